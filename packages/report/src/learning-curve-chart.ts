import type { ChartSpec } from './chart-spec.js';
import type { BandPoint } from './curve-band.js';

/** Options of {@link learningCurveChart}. */
export interface LearningCurveOptions {
  /** Chart title. */
  readonly title: string;
  /** Subtitle lines (setting, seeds). @defaultValue [] */
  readonly subtitle?: readonly string[];
  /** Title of the y axis. */
  readonly yTitle: string;
  /** Fix the y axis to [0, 1] (probabilities). @defaultValue false */
  readonly unitInterval?: boolean;
  /** Legend title. @defaultValue 'method' */
  readonly legend?: string;
  /** Draw the confidence band. @defaultValue true */
  readonly band?: boolean;
  /** Logarithmic y axis (for quantities spanning decades, like per-update KL). @defaultValue false */
  readonly logScale?: boolean;
}

/**
 * A learning-curve chart: one line per series (the mean over seeds) over a shaded 95% confidence band,
 * against environment samples (an x axis from 0), so methods are compared at equal sampling budgets. Series
 * keep the order of their first point; the legend and colours follow it. Draw it with `renderSvg`.
 *
 * @param points - averaged points (see `curveBand`), grouped by series, each series' samples ascending
 * @param options - titles and axis
 * @returns the chart's specification (no points: a chart that says it has nothing to draw)
 * @throws RangeError when a point's samples, mean, lower or upper is not a finite number
 * @example
 * ```ts
 * renderSvg(learningCurveChart(curveBand('ftw', [1, 2], [[0.5, 0.6]]), { title: 'FTW', yTitle: 'P(optimal)' }));
 * // '<svg xmlns="http://www.w3.org/2000/svg" …'
 * ```
 */
export function learningCurveChart(points: readonly BandPoint[], options: LearningCurveOptions): ChartSpec {
  const bySeries = new Map<string, { x: number[]; mean: number[]; lower: number[]; upper: number[] }>();
  for (const [i, p] of points.entries()) {
    for (const field of ['samples', 'mean', 'lower', 'upper'] as const) {
      if (!Number.isFinite(p[field])) {
        throw new RangeError(`points[${i}].${field} must be a finite number, got ${p[field]}`);
      }
    }
    let series = bySeries.get(p.series);
    if (series === undefined) {
      series = { x: [], mean: [], lower: [], upper: [] };
      bySeries.set(p.series, series);
    }
    series.x.push(p.samples);
    series.mean.push(p.mean);
    series.lower.push(p.lower);
    series.upper.push(p.upper);
  }
  const band = options.band !== false;
  return {
    title: options.title,
    subtitle: [...(options.subtitle ?? [])],
    width: 560,
    height: 300,
    x: { title: 'environment samples', zero: true },
    y:
      options.logScale === true
        ? { title: options.yTitle, type: 'log' }
        : options.unitInterval === true
          ? { title: options.yTitle, domain: [0, 1] }
          : { title: options.yTitle },
    legend: options.legend ?? 'method',
    symbol: 'stroke',
    bandOpacity: bySeries.size > 4 ? 0.08 : 0.15,
    series: [...bySeries].map(([name, s]) => ({
      name,
      x: s.x,
      line: s.mean,
      ...(band ? { band: { lower: s.lower, upper: s.upper } } : {}),
    })),
  };
}
