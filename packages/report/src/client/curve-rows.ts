import type { ChartData } from '../view-model.js';

/**
 * A row of a chart's seed data (`SEED_DATA`): a point of a seed's curve, or the row without x and y that
 * ends it (where the one line drawn through a group's seeds breaks).
 */
export interface SeedRow {
  /** The curve group (index in the page model's groups): its colour, and what the legend hides. */
  readonly g: number;
  readonly seed: number;
  readonly x: number | null;
  readonly y: number | null;
}

/** A row of a chart's mean data (`MEAN_DATA`): a point of a group's mean curve and its 95% interval. */
export interface MeanRow {
  readonly g: number;
  readonly x: number;
  readonly y: number;
  /** The interval's ends; null where the mean has none (one seed). */
  readonly lo: number | null;
  readonly hi: number | null;
}

/**
 * Expands the compact curves of the page model into a chart's rows, in curve order: each curve's points in
 * order of x, and after each seed's curve a row whose x and y are null, so that the one line drawn through
 * a group's seeds (see `curveChartSpec`) breaks there. Only what the chart filters and draws on: the
 * legend's hidden runs and methods are turned into hidden groups by the page, and the tooltip looks the
 * group's label up.
 *
 * @param chart - the chart's model
 * @returns the seed rows and the mean rows
 * @example
 * ```ts
 * curveRows({ curves: [{ g: 0, s: 3, x: [1, 2], y: [0.5, 0.6] }], … }).seeds.map((r) => [r.seed, r.x]);
 * // [[3, 1], [3, 2], [3, null]]
 * ```
 */
export function curveRows(chart: ChartData): { seeds: SeedRow[]; means: MeanRow[] } {
  const seeds: SeedRow[] = [];
  const means: MeanRow[] = [];
  for (const c of chart.curves) {
    const { g, s } = c;
    if (s === null) {
      for (let i = 0; i < c.x.length; i++) {
        means.push({ g, x: c.x[i]!, y: c.y[i]!, lo: c.lo?.[i] ?? null, hi: c.hi?.[i] ?? null });
      }
    } else {
      for (let i = 0; i < c.x.length; i++) seeds.push({ g, seed: s, x: c.x[i]!, y: c.y[i]! });
      seeds.push({ g, seed: s, x: null, y: null });
    }
  }
  return { seeds, means };
}
