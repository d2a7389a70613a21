import type { ChartData, GroupData } from '../view-model.js';

/**
 * One row of a chart's data: a point of a seed's curve or of a mean curve, or the row without x and y that
 * ends a seed's curve (where the line through a group's seeds breaks).
 */
export interface CurveRow {
  readonly g: number;
  readonly label: string;
  readonly run: string;
  readonly method: string;
  /** The seed, or -1 on a mean curve. */
  readonly seed: number;
  readonly kind: 'seed' | 'mean';
  /** Curve identity, for drawing one line per curve. */
  readonly curve: string;
  readonly x: number | null;
  readonly y: number | null;
  readonly lo: number | null;
  readonly hi: number | null;
}

/**
 * Expands the compact curves of the page model into rows, in curve order: each curve's points in order of
 * x, and after each seed's curve a row whose x and y are null, so that the one line drawn through a group's
 * seeds (see `curveChartSpec`) breaks there.
 *
 * @param chart - the chart's model
 * @param groups - every group of the page
 * @returns the rows
 * @example
 * ```ts
 * curveRows({ curves: [{ g: 0, s: 3, x: [1, 2], y: [0.5, 0.6] }], … }, groups).map((r) => [r.seed, r.x]);
 * // [[3, 1], [3, 2], [3, null]]
 * ```
 */
export function curveRows(chart: ChartData, groups: readonly GroupData[]): CurveRow[] {
  const rows: CurveRow[] = [];
  for (const c of chart.curves) {
    const group = groups[c.g]!;
    const kind = c.s === null ? 'mean' : 'seed';
    const curve = `${c.g}:${c.s ?? 'mean'}`;
    const row = (x: number | null, y: number | null, lo: number | null, hi: number | null): CurveRow => ({
      g: c.g,
      label: group.label,
      run: group.run,
      method: group.method,
      seed: c.s ?? -1,
      kind,
      curve,
      x,
      y,
      lo,
      hi,
    });
    for (let i = 0; i < c.x.length; i++) {
      rows.push(row(c.x[i]!, c.y[i]!, c.lo?.[i] ?? null, c.hi?.[i] ?? null));
    }
    if (kind === 'seed') rows.push(row(null, null, null, null));
  }
  return rows;
}
