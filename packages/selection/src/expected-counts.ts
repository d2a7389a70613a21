import { fillRankOccupancy } from './rank-occupancy.js';
import { checkSelectionOptions, type SelectionOptions } from './selection-options.js';
import { checkReturns } from './validate.js';

/**
 * The exact expected number of times each item is selected over J minibatches by {@link selectElites}:
 * the zero-variance limit of the sampled selection, and FTW's "expected" selection mode (weight every
 * trajectory by its expected count, no minibatches drawn).
 *
 * With distinct returns the item of rank r is selected J·K·P(r) times on average (Eq. 5). Ties are
 * broken uniformly at random, so an item in a block of t equal returns with a better items gets
 * (J·K/t) · Σ_{r=a+1..a+t} P(r). With a threshold, items whose return is not strictly above it are never
 * kept (0) and the eligible ones — which all rank above every ineligible one — keep their values, so the
 * total is below J·K when a minibatch can hold fewer than K eligible items.
 *
 * Cost: O(n log n) (one sort of the returns) plus O(n) for Eq. 5.
 *
 * @param returns - the return of each item (finite numbers).
 * @param options - `batches` J, `batchSize` C, `keep` K, optional `threshold`.
 * @returns `Float64Array` e with e[i] = expected selections of item i; Σ e = J·K without a threshold.
 * @throws TypeError or RangeError naming the bad parameter, as {@link selectElites}.
 * @example
 * ```ts
 * expectedCounts([0.2, 0.9, 0.5], { batches: 10, batchSize: 2, keep: 1 });
 * // Float64Array [0, 6.666666666666666, 3.333333333333333]
 * expectedCounts([1, 0, 1, 0], { batches: 6, batchSize: 2, keep: 1 }); // ties share their ranks
 * // Float64Array [2.5, 0.5, 2.5, 0.5]
 * expectedCounts([1, 0, 1, 0], { batches: 6, batchSize: 2, keep: 1, threshold: 0 }); // failures never kept
 * // Float64Array [2.5, 0, 2.5, 0]
 * ```
 */
export function expectedCounts(returns: ArrayLike<number>, options: SelectionOptions): Float64Array {
  const values = checkReturns(returns);
  const n = values.length;
  const { batches, batchSize, keep, threshold } = checkSelectionOptions(options, n);
  const occupancy = new Float64Array(n);
  fillRankOccupancy(occupancy, n, batchSize, keep);

  // Distinct values in ascending order, and for each the expected count of one item holding it.
  const sorted = Float64Array.from(values).sort();
  const blockValue = new Float64Array(n);
  const blockCount = new Float64Array(n);
  let blocks = 0;
  for (let hi = n - 1; hi >= 0; ) {
    let lo = hi;
    while (lo > 0 && sorted[lo - 1] === sorted[hi]) lo--;
    // Ranks better + 1 .. better + tied, with better = n − 1 − hi items above the block.
    const better = n - 1 - hi;
    const tied = hi - lo + 1;
    let sum = 0;
    let compensation = 0;
    for (let r = better; r < better + tied; r++) {
      const y = occupancy[r]! - compensation;
      const t = sum + y;
      compensation = t - sum - y;
      sum = t;
    }
    blockValue[blocks] = sorted[hi]!;
    blockCount[blocks] = ((batches * keep) / tied) * sum;
    blocks++;
    hi = lo - 1;
  }
  // blockValue is descending; find each item's block by binary search.
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (threshold !== undefined && !(v > threshold)) continue;
    let lo = 0;
    let hi = blocks - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (blockValue[mid]! > v) lo = mid + 1;
      else hi = mid;
    }
    out[i] = blockCount[lo]!;
  }
  return out;
}
