/** One axis of a {@link ChartSpec}. */
export interface ChartAxis {
  /** The axis title. */
  readonly title: string;
  /** `linear` or `log` (base 10). @defaultValue 'linear' */
  readonly type?: 'linear' | 'log';
  /** A fixed domain; otherwise the data's extent. */
  readonly domain?: readonly [number, number];
  /** Widen the domain to round tick values. @defaultValue true */
  readonly nice?: boolean;
  /** Include 0 in the domain (linear axes). @defaultValue false */
  readonly zero?: boolean;
}

/** One series of a {@link ChartSpec}: one colour, one legend entry. */
export interface ChartSeries {
  /** Legend label. */
  readonly name: string;
  /** x of each point, ascending. */
  readonly x: readonly number[];
  /** y of the line through the points, one per x. */
  readonly line?: readonly number[];
  /** A shaded band between `lower` and `upper`, one pair per x. */
  readonly band?: { readonly lower: readonly number[]; readonly upper: readonly number[] };
  /** Dots, one per x; null where no dot is drawn. */
  readonly dots?: readonly (number | null)[];
}

/** A static chart: lines, bands and dots of a few series over two quantitative axes, with a legend. */
export interface ChartSpec {
  readonly title: string;
  /** Lines under the title. */
  readonly subtitle: readonly string[];
  /** Width of the plotting area, px. */
  readonly width: number;
  /** Height of the plotting area, px. */
  readonly height: number;
  readonly x: ChartAxis;
  readonly y: ChartAxis;
  /** The legend's title. */
  readonly legend: string;
  /** Legend symbol: a stroke (lines) or a dot. */
  readonly symbol: 'stroke' | 'dot';
  /** Opacity of the bands' fill. @defaultValue 0.15 */
  readonly bandOpacity?: number;
  /** Series in legend order; colours follow this order. */
  readonly series: readonly ChartSeries[];
}
