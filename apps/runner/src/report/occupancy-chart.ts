import type { TopLevelSpec } from 'vega-lite';

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
 * The Vega-Lite specification of the paper's Figure 1: exact rank-occupancy curves, one colour per (C, K),
 * with Monte Carlo estimates drawn as points over them.
 *
 * @param n - pool size N (for the title)
 * @param points - the curves' points, all ranks of every pair
 * @param draws - Monte Carlo minibatches per pair (for the subtitle)
 * @returns the specification, ready for `renderSvg`
 * @example
 * ```ts
 * occupancyChart(128, [{ pair: 'C=4, K=1', rank: 1, exact: 0.03125, monteCarlo: 0.0311 }], 100000);
 * ```
 */
export function occupancyChart(n: number, points: readonly OccupancyPoint[], draws: number): TopLevelSpec {
  const pairs = [...new Set(points.map((p) => p.pair))];
  const color = { field: 'pair', type: 'nominal', title: '(C, K)', sort: pairs } as const;
  const x = {
    field: 'rank',
    type: 'quantitative' as const,
    title: 'rank r (1 = highest return)',
    scale: { domain: [1, n], nice: false },
  };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: `Selection probability by rank, N = ${n} (Eq. 5)`,
      subtitle: `lines: exact P(r | N, C, K); points: Monte Carlo, ${draws} minibatches per pair`,
      anchor: 'start',
    },
    width: 560,
    height: 320,
    data: { values: points.map((p) => ({ ...p })) },
    layer: [
      {
        mark: { type: 'line', strokeWidth: 1.5 },
        encoding: { x, y: { field: 'exact', type: 'quantitative', title: 'P(r | N, C, K)' }, color },
      },
      {
        transform: [{ filter: 'datum.monteCarlo !== null' }],
        mark: { type: 'point', size: 14, filled: true, opacity: 0.8 },
        encoding: { x, y: { field: 'monteCarlo', type: 'quantitative' }, color },
      },
    ],
  };
}
