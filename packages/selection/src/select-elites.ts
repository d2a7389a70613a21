import { EliteDraw } from './elite-draw.js';
import { type RandomSource, toIndexSource } from './random.js';
import { checkSelectionOptions, type SelectionOptions } from './selection-options.js';
import { checkReturns } from './validate.js';

/** Most items one call may select (the length of `indices`): 2^30, a 4 GiB array. */
const MAX_SELECTED = 2 ** 30;

/** What {@link selectElites} selected. */
export interface EliteSelection {
  /** The selected items (indices into `returns`), minibatch after minibatch, in no order within one. */
  indices: Uint32Array;
  /** counts[i] = how many of the J minibatches kept item i (the repeats FTW's cross-entropy counts). */
  counts: Uint32Array;
  /** Minibatch b kept indices[offsets[b] .. offsets[b + 1] − 1]; length J + 1. */
  offsets: Uint32Array;
}

/**
 * FTW's elite selection (Algorithm 2 of the paper): J minibatches of C items drawn uniformly without
 * replacement from the pool, and the top K of each by return. Ties are broken uniformly at random; with
 * a `threshold`, only items whose return is strictly above it are kept, so a minibatch may keep fewer
 * than K. The same random source state gives the same selection, bit for bit.
 *
 * Cost: O(n + J·C) time (the draws, plus a heap over about K + 3√K + 3 candidates per minibatch), 5n
 * bytes of working memory and O(n + J·K) for the result, no allocation per minibatch. The expected
 * counts are {@link expectedCounts}; {@link EliteSampler} streams the same minibatches one at a time; the
 * law of the rank of a kept item is Eq. 5 ({@link rankOccupancy}).
 *
 * @param returns - the return of each item in the pool (finite numbers).
 * @param options - `batches` J, `batchSize` C, `keep` K, optional `threshold`.
 * @param random - a `() => number` uniform on [0, 1), or a pure-rand generator (`xoroshiro128plus(seed)`).
 * @returns `{ indices, counts, offsets }`; without a threshold `indices.length` is J·K and the counts
 * sum to J·K.
 * @throws TypeError when `returns`, `options` or `random` has the wrong type; RangeError when `returns`
 * is empty or holds NaN or ±Infinity, when a size is not a positive integer, when K > C or C > n, when
 * the threshold is not finite, or when `random` yields a value outside [0, 1).
 * @example
 * ```ts
 * import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
 * const { indices, counts } = selectElites([3, 1, 4, 1, 5, 9, 2, 6], { batches: 4, batchSize: 3, keep: 1 },
 *   xoroshiro128plus(42));
 * // indices: 4 items, one per minibatch; counts: how often each of the 8 was kept (sums to 4)
 * ```
 */
export function selectElites(
  returns: ArrayLike<number>,
  options: SelectionOptions,
  random: RandomSource,
): EliteSelection {
  const values = checkReturns(returns);
  const n = values.length;
  const { batches, batchSize, keep, threshold } = checkSelectionOptions(options, n);
  if (batches * keep > MAX_SELECTED) {
    throw new RangeError(`batches × keep must be <= ${MAX_SELECTED}, got ${batches} × ${keep}`);
  }
  const elite = new EliteDraw(values, n, batchSize, keep, threshold, toIndexSource(random), batches);
  const kept = elite.kept;
  const indices = new Uint32Array(batches * keep);
  const counts = new Uint32Array(n);
  const offsets = new Uint32Array(batches + 1);
  let length = 0;
  try {
    for (let b = 0; b < batches; b++) {
      const count = elite.next();
      for (let i = 0; i < count; i++) {
        const item = kept[i]!;
        indices[length++] = item;
        counts[item]!++;
      }
      offsets[b + 1] = length;
    }
  } finally {
    elite.release();
  }
  return { indices: length === indices.length ? indices : indices.slice(0, length), counts, offsets };
}
