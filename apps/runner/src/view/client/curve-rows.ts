import type { ChartData } from '../view-model.js';

/**
 * One row of a chart's data (the data set `CURVE_DATA`): a point of a seed's curve or of a group's mean
 * curve, or the row without x and y that ends a seed's curve (where the line through a group's seeds
 * breaks). Only what the chart filters and draws on: the legend's hidden runs and methods are turned into
 * hidden groups by the page, and the tooltip looks the group's label up.
 */
export interface CurveRow {
  /** The curve group (index in the page model's groups): its colour, and what the legend hides. */
  readonly g: number;
  /** The seed, or −1 on the mean curve. */
  readonly seed: number;
  readonly x: number | null;
  readonly y: number | null;
  /** The mean's 95% interval; null on a seed's curve (and where the mean has none). */
  readonly lo: number | null;
  readonly hi: number | null;
}

/**
 * Expands the compact curves of the page model into rows, in curve order: each curve's points in order of
 * x, and after each seed's curve a row whose x and y are null, so that the one line drawn through a group's
 * seeds (see `curveChartSpec`) breaks there.
 *
 * @param chart - the chart's model
 * @returns the rows
 * @example
 * ```ts
 * curveRows({ curves: [{ g: 0, s: 3, x: [1, 2], y: [0.5, 0.6] }], … }).map((r) => [r.seed, r.x]);
 * // [[3, 1], [3, 2], [3, null]]
 * ```
 */
export function curveRows(chart: ChartData): CurveRow[] {
  const rows: CurveRow[] = [];
  for (const c of chart.curves) {
    const seed = c.s ?? -1;
    for (let i = 0; i < c.x.length; i++) {
      rows.push({ g: c.g, seed, x: c.x[i]!, y: c.y[i]!, lo: c.lo?.[i] ?? null, hi: c.hi?.[i] ?? null });
    }
    if (c.s !== null) rows.push({ g: c.g, seed, x: null, y: null, lo: null, hi: null });
  }
  return rows;
}
