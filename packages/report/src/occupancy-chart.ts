import type { ChartSpec } from './chart-spec.js';

/** One point of Figure 1: a (C, K) pair's occupancy at one rank, exact and simulated. */
export interface OccupancyPoint {
  /** Legend label, e.g. `C=5, K=1`. */
  readonly pair: string;
  /** Rank r (1 is the best return). */
  readonly rank: number;
  /** P(r | N, C, K) of Eq. 5. */
  readonly exact: number;
  /** The Monte Carlo estimate, or null where no point is drawn. */
  readonly monteCarlo: number | null;
}

/**
 * The paper's Figure 1: exact rank-occupancy curves, one colour per (C, K), with Monte Carlo estimates
 * drawn as dots over them. Draw it with `renderSvg`.
 *
 * @param n - pool size N (for the title and the x axis, [1, N])
 * @param points - the curves' points, all ranks of every pair, grouped by pair
 * @param draws - Monte Carlo minibatches per pair (for the subtitle)
 * @returns the chart's specification
 * @throws RangeError when n is not an integer ≥ 1
 * @example
 * ```ts
 * renderSvg(occupancyChart(128, [{ pair: 'C=4, K=1', rank: 1, exact: 0.03125, monteCarlo: 0.0311 }], 100000));
 * // '<svg xmlns="http://www.w3.org/2000/svg" …'
 * ```
 */
export function occupancyChart(n: number, points: readonly OccupancyPoint[], draws: number): ChartSpec {
  if (!(Number.isInteger(n) && n >= 1)) throw new RangeError(`n must be an integer ≥ 1, got ${n}`);
  const byPair = new Map<string, { x: number[]; exact: number[]; dots: (number | null)[] }>();
  for (const p of points) {
    let pair = byPair.get(p.pair);
    if (pair === undefined) {
      pair = { x: [], exact: [], dots: [] };
      byPair.set(p.pair, pair);
    }
    pair.x.push(p.rank);
    pair.exact.push(p.exact);
    pair.dots.push(p.monteCarlo);
  }
  return {
    title: `Selection probability by rank, N = ${n} (Eq. 5)`,
    subtitle: [`lines: exact P(r | N, C, K); points: Monte Carlo, ${draws} minibatches per pair`],
    width: 560,
    height: 320,
    x: { title: 'rank r (1 = highest return)', domain: [1, n] },
    y: { title: 'P(r | N, C, K)', zero: true },
    legend: '(C, K)',
    symbol: 'dot',
    series: [...byPair].map(([name, p]) => ({ name, x: p.x, line: p.exact, dots: p.dots })),
  };
}
