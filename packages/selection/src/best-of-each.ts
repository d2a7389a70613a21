import type { DrawBuffers } from './draw-buffers.js';
import { type IndexSource, outOfRange } from './random.js';
import { nonFiniteReturn } from './validate.js';

/**
 * {@link selectElites} for K = 1 when each minibatch is searched whole (C <= 27, no candidate pivot: see
 * {@link EliteDraw}), the setting of every FTW run (J = 4, C = 5, K = 1), in one loop with no draw object
 * and no heap (internal).
 *
 * It gives what {@link EliteDraw} gives, bit for bit, and consumes the random source the same way: for
 * each minibatch, the C swaps of the partial Fisher–Yates shuffle (k = 0..C−1: swap entries k and
 * k + t, t = source.index(n − k)) of a permutation that starts as the identity and is carried from one
 * minibatch to the next; then the best score v of the minibatch. When v is not strictly above the
 * threshold, nothing is kept and nothing more is drawn. When one item scores v, it is kept with no
 * further draw. When e >= 2 items tie at v, one more draw j = source.index(e) keeps the j-th of them in
 * draw order (0-based): EliteDraw's tie-break (a partial Fisher–Yates shuffle of the tied items in draw
 * order) for one place. A non-finite score throws after the minibatch's C draws, naming the first such
 * item in draw order, as EliteDraw's search does.
 *
 * Speed notes (measured on the reproduction setting, against its floor of 20 uniforms and 20 reads):
 * the running best is branch-free (a comparison as 0 or 1, then products: best = a·score + (1 − a)·best
 * is exact, one of its terms being ±0), because the comparisons of random returns mispredict a branch
 * about once per minibatch (0.35× the floor). It starts at −Number.MAX_VALUE, not −Infinity (0·∞ is
 * NaN); a minibatch whose best is −Number.MAX_VALUE is then all of that value, and keeps its first item
 * (C = 1) or breaks the tie as usual. A `() => number` source is called here directly, not through
 * IndexSource.index, so that its inlining does not depend on whether V8 inlines this function into
 * selectElites (when it did, the source's call was left out of line: 0.9× the floor).
 *
 * @param scores - the returns (read in place; each read is checked).
 * @param n - the pool size, the length of `scores`.
 * @param batchSize - C, at most 27.
 * @param batches - J.
 * @param threshold - keep only a best score strictly above it (−Infinity: no threshold).
 * @param source - the random source.
 * @param buffers - borrowed buffers whose permutation is the identity, fitted to n, a log of J·C
 * entries when J·C < n (else C), `selected` of J and `ends` of J + 1. The permutation is the identity
 * again when the call returns (not when it throws).
 * @returns how many items were kept, in `buffers.selected[0..count−1]`; minibatch b's end is
 * `buffers.ends[b + 1]`.
 * @throws RangeError naming the first non-finite return met, or from `source`.
 */
export function bestOfEach(
  scores: Float64Array,
  n: number,
  batchSize: number,
  batches: number,
  threshold: number,
  source: IndexSource,
  buffers: DrawBuffers,
): number {
  const random = source.uniform;
  const permutation = buffers.permutation;
  const log = buffers.log;
  const selected = buffers.selected;
  const ends = buffers.ends;
  // The swap targets of every draw are logged when the draws touch fewer than n positions, so that
  // putting the permutation back costs the draws; otherwise each minibatch overwrites log[0..C−1].
  const logged = batches * batchSize < n;
  const step = logged ? batchSize : 0;
  let base = 0;
  let length = 0;
  for (let b = 0; b < batches; b++) {
    let best = -Number.MAX_VALUE;
    let bestItem = 0;
    let tied = 0;
    // x·0 is 0 for a finite x and NaN otherwise; a sum that meets a NaN stays NaN.
    let check = 0;
    for (let k = 0; k < batchSize; k++) {
      let t = k;
      if (random !== null) {
        // source.index(n − k), written out (see the speed notes above).
        const u = random();
        t += u >= 0 && u < 1 ? (u * (n - k)) >>> 0 : outOfRange(u);
      } else {
        t += source.index(n - k);
      }
      const item = permutation[t]!;
      permutation[t] = permutation[k]!;
      permutation[k] = item;
      log[base + k] = t;
      const score = scores[item]!;
      check += score * 0;
      // The running best without a branch (see the speed notes above); ties counted from the best on.
      const above = Number(score > best);
      const same = Number(score === best);
      best = above * score + (1 - above) * best;
      bestItem = above * item + (1 - above) * bestItem;
      tied = (tied + same) * (1 - above) + above;
    }
    base += step;
    if (check !== 0) firstNonFinite(scores, permutation, batchSize);
    // Every score was −Number.MAX_VALUE (the start value, which none exceeded): bestItem is stale, so
    // take the first item (it is the answer when C = 1; otherwise tied = C >= 2 and the tie is broken).
    if (best === -Number.MAX_VALUE) bestItem = permutation[0]!;
    if (best > threshold) {
      if (tied > 1) bestItem = tiedAt(scores, permutation, best, source.index(tied));
      selected[length++] = bestItem;
    }
    ends[b + 1] = length;
  }
  if (logged) {
    for (let k = 0; k < batchSize; k++) permutation[k] = k;
    for (let e = 0; e < base; e++) {
      const t = log[e]!;
      permutation[t] = t;
    }
  } else {
    for (let i = 0; i < n; i++) permutation[i] = i;
  }
  return length;
}

/** The j-th (0-based) of the minibatch's items scoring `best`, in draw order. */
function tiedAt(scores: Float64Array, permutation: Uint32Array, best: number, j: number): number {
  let seen = 0;
  for (let k = 0; ; k++) {
    const item = permutation[k]!;
    if (scores[item] === best && seen++ === j) return item;
  }
}

/** Throws the error for the first non-finite score of the minibatch, in draw order. */
function firstNonFinite(scores: Float64Array, permutation: Uint32Array, batchSize: number): never {
  for (let k = 0; k < batchSize; k++) {
    const item = permutation[k]!;
    const score = scores[item]!;
    if (score - score !== 0) nonFiniteReturn(item, score);
  }
  throw new Error('unreachable: a minibatch with a non-finite score has one');
}
