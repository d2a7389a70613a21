import { describeValue } from '@ftw/internal';
import { bestOfEach } from './best-of-each.js';
import { borrowDrawBuffers, releaseDrawBuffers } from './draw-buffers.js';
import { oneShotDraw, searchesWholeMinibatch } from './elite-draw.js';
import { type RandomSource, toIndexSource } from './random.js';
import type { SelectionOptions } from './selection-options.js';
import {
  checkOptions,
  checkPositiveInteger,
  checkReturnsToRead,
  checkSizes,
  checkThreshold,
} from './validate.js';

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
 * Cost: the draws, O(J·C), and a heap over about K + 3√K + 3 candidates per minibatch; for K = 1 with
 * C <= 27 (every FTW run's setting) one loop keeps a running best instead, with the same result and the
 * same random numbers. A `Float64Array` pool is not scanned (each return read is checked), and with an
 * `out` whose counts have length n, the counts are cleared only where the previous selection set them:
 * such a call costs O(J·C), whatever n. Without `out` the result's n counts are allocated (O(n)); any
 * other array of returns is checked and copied whole (O(n)); when the draws read at least n items and
 * C is large enough for a candidate pivot, a pass over the n returns flags the candidates (O(n), less
 * than the draws). The working memory (a permutation of the n items, 4n bytes, and buffers of O(J·C))
 * is kept from call to call and put back in O(min(J·C, n)). The expected counts are
 * {@link expectedCounts}; {@link EliteSampler} streams the same minibatches one at a time; the law of
 * the rank of a kept item is Eq. 5 ({@link rankOccupancy}).
 *
 * @param returns - the return of each item in the pool (finite numbers). A `Float64Array` is read in
 * place; any other array is copied.
 * @param options - `batches` J, `batchSize` C, `keep` K, optional `threshold`.
 * @param random - a `() => number` uniform on [0, 1), or a pure-rand generator (`xoroshiro128plus(seed)`).
 * @param out - optional: the result of an earlier call, unmodified, to overwrite, for a loop that
 * selects on every iteration. Its `counts` (when of length n), `offsets` (length J + 1) and `indices`
 * (length of this selection) are reused, any other is replaced by a new array, and `out` itself is
 * returned, so that the call allocates nothing once the sizes settle. Reused counts are cleared at
 * `out.indices` only, so `out` must be exactly as selectElites left it (from any pool and options):
 * `out.counts` zero except at the items of `out.indices`, the three arrays distinct. A caller that
 * changes a count, or swaps arrays between results, gets wrong counts from the next call; copy
 * anything you need to change. `out` is written only after every draw has succeeded: a call that
 * throws leaves it unchanged.
 * @returns `{ indices, counts, offsets }` (`out` when given); without a threshold `indices.length` is J·K
 * and the counts sum to J·K.
 * @throws TypeError when `returns`, `options`, `random` or `out` has the wrong type; RangeError when
 * `returns` is empty or holds NaN or ±Infinity, when a size is not a positive integer, when K > C or
 * C > n, when the threshold is not finite, or when `random` yields a value outside [0, 1).
 * @example
 * ```ts
 * import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
 * const { indices, counts } = selectElites([3, 1, 4, 1, 5, 9, 2, 6], { batches: 4, batchSize: 3, keep: 1 },
 *   xoroshiro128plus(42));
 * // indices: 4 items, one per minibatch; counts: how often each of the 8 was kept (sums to 4)
 *
 * // In a training loop: reuse the previous result's arrays (no allocation per call).
 * const returns = new Float64Array([0.5, 2, 1, 3]);
 * let selection = selectElites(returns, { batches: 4, batchSize: 2, keep: 1 }, xoroshiro128plus(1));
 * selection = selectElites(returns, { batches: 4, batchSize: 2, keep: 1 }, xoroshiro128plus(2), selection);
 * // the same object, holding the second selection
 * ```
 */
export function selectElites(
  returns: ArrayLike<number>,
  options: SelectionOptions,
  random: RandomSource,
  out?: EliteSelection,
): EliteSelection {
  const values = checkReturnsToRead(returns);
  const n = values.length;
  // checkSelectionOptions, unrolled so that no object is allocated for the checked values.
  const o = checkOptions(options);
  const batches = o['batches'] as number;
  const batchSize = o['batchSize'] as number;
  const keep = o['keep'] as number;
  // The common case in a few comparisons (for a number x, x >>> 0 === x && x !== 0: an integer in
  // [1, 2^32 − 1], what checkPositiveInteger accepts); anything else goes through the checks that name
  // the problem, in their order.
  if (
    !(
      typeof batchSize === 'number' &&
      typeof keep === 'number' &&
      typeof batches === 'number' &&
      batchSize >>> 0 === batchSize &&
      keep >>> 0 === keep &&
      batches >>> 0 === batches &&
      keep !== 0 &&
      batches !== 0 &&
      keep <= batchSize &&
      batchSize <= n
    )
  ) {
    checkSizes(n, batchSize, keep, 'returns.length');
    checkPositiveInteger('batches', batches);
  }
  const threshold = checkThreshold(o['threshold']);
  const capacity = batches * keep;
  if (capacity > MAX_SELECTED) {
    throw new RangeError(`batches × keep must be <= ${MAX_SELECTED}, got ${batches} × ${keep}`);
  }
  if (out !== undefined && (out === null || typeof out !== 'object')) {
    throw new TypeError(
      `out must be undefined or a selection returned by selectElites, got ${describeValue(out)}`,
    );
  }
  const source = toIndexSource(random);
  // Draw into borrowed buffers; `out` is written only once every draw has succeeded.
  const buffers = borrowDrawBuffers(n);
  let length = 0;
  if (keep === 1 && searchesWholeMinibatch(batchSize, 1)) {
    const draws = batches * batchSize;
    buffers.fit(n, batchSize, 1, draws < n ? draws : batchSize, batches, batches + 1);
    const floor = threshold ?? Number.NEGATIVE_INFINITY;
    length = bestOfEach(values, n, batchSize, batches, floor, source, buffers);
    releaseDrawBuffers(buffers);
  } else {
    buffers.fit(n, batchSize, keep, 0, capacity, batches + 1);
    const elite = oneShotDraw(values, n, batchSize, keep, threshold, source, batches, buffers);
    const kept = elite.kept;
    const selected = buffers.selected;
    const ends = buffers.ends;
    for (let b = 0; b < batches; b++) {
      const count = elite.next();
      for (let i = 0; i < count; i++) selected[length++] = kept[i]!;
      ends[b + 1] = length;
    }
    releaseDrawBuffers(elite.restore());
  }
  const selected = buffers.selected;
  const ends = buffers.ends;

  const previous = out?.indices;
  const indices = fits(previous, length) ?? new Uint32Array(length);
  let counts = fits(out?.counts, n);
  if (counts === undefined) {
    counts = new Uint32Array(n);
  } else if (previous instanceof Uint32Array) {
    // An unmodified earlier result's counts are 0 outside its indices: clearing those is O(J·K), not O(n).
    for (let i = 0; i < previous.length; i++) counts[previous[i]!] = 0;
  } else {
    counts.fill(0);
  }
  const offsets = fits(out?.offsets, batches + 1) ?? new Uint32Array(batches + 1);
  offsets[0] = 0;
  for (let b = 1; b <= batches; b++) offsets[b] = ends[b]!;
  for (let i = 0; i < length; i++) {
    const item = selected[i]!;
    indices[i] = item;
    counts[item]!++;
  }
  if (out === undefined) return { indices, counts, offsets };
  out.indices = indices;
  out.counts = counts;
  out.offsets = offsets;
  return out;
}

/** `array` when it is a Uint32Array of exactly `length` entries, else undefined. */
function fits(array: unknown, length: number): Uint32Array | undefined {
  return array instanceof Uint32Array && array.length === length ? array : undefined;
}
