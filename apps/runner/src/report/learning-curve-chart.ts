import type { TopLevelSpec } from 'vega-lite';
import type { BandPoint } from '../stats/curve-band.js';

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
 * A Vega-Lite specification of learning curves: one line per series (the mean over seeds) over a shaded
 * 95% confidence band, against environment samples, so methods are compared at equal sampling budgets.
 *
 * @param points - averaged points (see `curveBand`)
 * @param options - titles and axis
 * @returns the specification, ready for `renderSvg`
 * @example
 * ```ts
 * learningCurveChart(curveBand('ftw', [1, 2], [[0.5, 0.6]]), { title: 'FTW', yTitle: 'P(optimal)' });
 * ```
 */
export function learningCurveChart(
  points: readonly BandPoint[],
  options: LearningCurveOptions,
): TopLevelSpec {
  const order = [...new Set(points.map((p) => p.series))];
  const color = {
    field: 'series',
    type: 'nominal',
    title: options.legend ?? 'method',
    sort: order,
    legend: { labelLimit: 320, symbolType: 'stroke', symbolStrokeWidth: 2, symbolOpacity: 1 },
  } as const;
  const x = { field: 'samples', type: 'quantitative', title: 'environment samples' } as const;
  const scale =
    options.logScale === true
      ? { type: 'log' as const }
      : options.unitInterval === true
        ? { domain: [0, 1] }
        : { zero: false };
  const line = {
    mark: { type: 'line' as const, strokeWidth: 1.5 },
    encoding: { x, y: { field: 'mean', type: 'quantitative' as const, title: options.yTitle, scale }, color },
  };
  const band = {
    mark: { type: 'area' as const, opacity: order.length > 4 ? 0.08 : 0.15 },
    encoding: {
      x,
      y: { field: 'lower', type: 'quantitative' as const, title: options.yTitle, scale },
      y2: { field: 'upper' },
      color,
    },
  };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: options.title, subtitle: [...(options.subtitle ?? [])], anchor: 'start' },
    width: 560,
    height: 300,
    data: { values: points.map((p) => ({ ...p })) },
    layer: options.band === false ? [line] : [band, line],
  };
}
