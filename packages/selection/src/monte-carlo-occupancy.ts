import { borrowDrawBuffers, releaseDrawBuffers } from './draw-buffers.js';
import { oneShotDraw } from './elite-draw.js';
import { type RandomSource, toIndexSource } from './random.js';
import { checkPositiveInteger, checkSizes, MAX_SAMPLED_POOL_SIZE } from './validate.js';

/**
 * Monte Carlo estimate of the rank occupancy P(r | n, C, K): simulates `draws` minibatches of C ranks
 * drawn uniformly without replacement from 1..n, keeps the K best (lowest) ranks of each and returns the
 * share of kept slots that went to each rank. Unbiased for {@link rankOccupancy}; each rank's count is
 * Binomial(draws, K·P(r)), so its standard error is sqrt(P(r)(1 − K·P(r)) / (K · draws)).
 *
 * @param n - pool size, a positive integer, at most 2^31.
 * @param batchSize - C, 1 ≤ C ≤ n.
 * @param keep - K, 1 ≤ K ≤ C.
 * @param draws - number of simulated minibatches, a positive integer.
 * @param random - a `() => number` uniform on [0, 1), or a pure-rand generator.
 * @returns `Float64Array` q with q[r − 1] = (times rank r was kept) / (K · draws); it sums to 1.
 * @throws TypeError or RangeError naming the bad parameter (as {@link rankOccupancy}, plus `draws` and
 * `random`).
 * @example
 * ```ts
 * import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
 * monteCarloOccupancy(5, 2, 1, 100_000, xoroshiro128plus(1));
 * // ≈ Float64Array [0.4, 0.3, 0.2, 0.1, 0], each within about 0.004
 * ```
 */
export function monteCarloOccupancy(
  n: number,
  batchSize: number,
  keep: number,
  draws: number,
  random: RandomSource,
): Float64Array {
  checkSizes(n, batchSize, keep, 'n', MAX_SAMPLED_POOL_SIZE);
  checkPositiveInteger('draws', draws, Number.MAX_SAFE_INTEGER);
  // Scores null: item i is rank i + 1, so the K best are the K lowest indices (no ties).
  const source = toIndexSource(random);
  const buffers = borrowDrawBuffers(n);
  const elite = oneShotDraw(null, n, batchSize, keep, undefined, source, draws, buffers);
  const counts = new Float64Array(n);
  for (let d = 0; d < draws; d++) {
    elite.next();
    for (let i = 0; i < keep; i++) counts[elite.kept[i]!]!++;
  }
  releaseDrawBuffers(elite.restore());
  const scale = 1 / (keep * draws);
  for (let r = 0; r < n; r++) counts[r]! *= scale;
  return counts;
}
