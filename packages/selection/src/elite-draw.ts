import { DrawBuffers } from './draw-buffers.js';
import type { IndexSource } from './random.js';
import { nonFiniteReturn } from './validate.js';

/**
 * The engine of {@link EliteSampler}, {@link selectElites} (but for K = 1 with C <= 27: see
 * {@link bestOfEach}, which gives the same) and {@link monteCarloOccupancy}: draws one
 * minibatch of C distinct items from 0..n−1 uniformly without replacement and keeps the K best, with no
 * allocation per minibatch.
 *
 * Drawing: a partial Fisher–Yates shuffle of a permutation of 0..n−1 kept from minibatch to minibatch:
 * for k = 0..C−1, swap entry k with entry k + t, t uniform on 0..n−k−1. The first C entries are then a
 * uniform random ordered sample of C items whatever the permutation held before, so minibatches are
 * independent. Every draw starts from the identity permutation, so the same random numbers draw the same
 * items. O(C) per minibatch. A one-shot draw borrows a permutation that is already the identity
 * ({@link DrawBuffers}) and puts it back at the end: when it draws fewer than n items in all, it logs
 * its swap targets and writes p back at every position p it touched (O(J·C), not O(n)); otherwise it
 * rewrites the whole identity.
 *
 * Keeping: the K best of the minibatch are searched among its candidates, the items scoring at least a
 * pivot. The pivot is an order statistic of a fixed sample of the pool, placed so that a minibatch holds
 * about K + 3√K + 3 candidates; without a pivot (small minibatches, or too few of them to repay the
 * sample) the whole minibatch is searched. When the draw will read at least n items in all (and always
 * for a sampler), each permutation entry carries its item's candidate flag in its top bit, written once
 * over all n entries, so the draw loop collects candidates without a branch or a score look-up; a
 * smaller one-shot draw reads each drawn item's score instead, so that it costs its draws, not n. When a minibatch has at least K candidates, every item left
 * out scores below the pivot, so below the K-th best candidate, and the K best of the candidates are the
 * K best of the minibatch, ties at the cut included. When it has fewer (rare), the whole minibatch is
 * searched. The pivot thus changes the speed, never the result.
 *
 * The search: a size-K min-heap of (score, item) holds the K best of m items in O(m log K); its root is
 * the K-th best score v. When no item left out of the heap scores v (tracked on the way), the heap is the
 * answer. Otherwise every item scoring above v is kept and, of the e items scoring exactly v, a uniform
 * random subset fills the places left (a partial Fisher–Yates shuffle): the law of "shuffle, then sort
 * stably and take the first K". With a threshold, only items scoring strictly above it are kept; they
 * are all in the heap.
 */
export class EliteDraw {
  /**
   * The kept items of the current minibatch in `kept[0..count−1]` (in no particular order). Between
   * draws it doubles as the heap's item array. It may be longer than K.
   */
  kept: Uint32Array;
  #scores: Float64Array | null;
  #batchSize: number;
  #keep: number;
  #source: IndexSource;
  /**
   * [pivot, threshold]: items scoring at least the pivot are candidates (−Infinity when every item is
   * one); only items scoring strictly above the threshold are kept (−Infinity: no threshold). In a typed
   * array, so that resetting a draw writes two doubles in place instead of boxing them.
   */
  readonly #bounds = new Float64Array(2);
  /**
   * Whether each permutation entry carries its item's candidacy in its top bit (written over all n
   * entries by reset), or the draw reads the item's score.
   */
  #flagged: boolean;
  /** A permutation of 0..n−1 in `permutation[0..n−1]` whose first C entries are the current minibatch. */
  #permutation: Uint32Array;
  #n: number;
  /** The current minibatch's candidates in `candidates[0..m−1]`. */
  #candidates: Uint32Array;
  /** The heap's scores, with one +Infinity past the end so that a node's right child always exists. */
  #heap: Float64Array;
  #ties: Uint32Array;
  #buffers: DrawBuffers;
  /** Whether the buffers were borrowed (a one-shot draw) rather than allocated for this draw. */
  #borrowed: boolean;
  /** Swap targets: log[b·C + k] for draw k of minibatch b when logged for restore(), else log[k]. */
  #log: Uint32Array;
  /** C when the draws are logged for restore(), 0 when the log is overwritten by each minibatch. */
  #logStep: number;
  /** Where the next minibatch's swap targets go in the log. */
  #logged = 0;

  /**
   * @param scores - the score of each of the n items (higher is better), or null to score item i by −i
   * (rank order, item 0 best).
   * @param n - items to draw from (the length of `scores` when given), at most 2^31.
   * @param batchSize - C.
   * @param keep - K.
   * @param threshold - keep only scores strictly above it (undefined: no threshold).
   * @param source - uniform integers: source.index(bound) is uniform on 0..bound−1.
   * @param minibatches - how many minibatches will be drawn (Infinity when unknown): the pivot is only
   * worth its sample when they are many.
   * @param buffers - borrowed working memory whose permutation is the identity (see
   * {@link EliteDraw.restore}); by default the draw allocates its own.
   */
  constructor(
    scores: Float64Array | null,
    n: number,
    batchSize: number,
    keep: number,
    threshold: number | undefined,
    source: IndexSource,
    minibatches: number,
    buffers?: DrawBuffers,
  ) {
    this.#borrowed = buffers !== undefined;
    this.#buffers = buffers ?? new DrawBuffers(n);
    // Assigned by reset; given here so that every field has its final kind from the start.
    this.#scores = scores;
    this.#batchSize = batchSize;
    this.#keep = keep;
    this.#source = source;
    this.#flagged = false;
    this.#n = n;
    this.#logStep = 0;
    const b = this.#buffers;
    this.#permutation = b.permutation;
    this.#log = b.log;
    this.#heap = b.heap;
    this.kept = b.kept;
    this.#candidates = b.candidates;
    this.#ties = b.ties;
    this.reset(scores, n, batchSize, keep, threshold, source, minibatches);
  }

  /**
   * Starts a new draw over the same buffers, as a new EliteDraw with these arguments would (the
   * buffers' permutation must be the identity again: see {@link EliteDraw.restore}). One-shot callers
   * keep their draw with their buffers ({@link DrawBuffers.draw}), so a call allocates no draw object.
   * @returns this.
   */
  reset(
    scores: Float64Array | null,
    n: number,
    batchSize: number,
    keep: number,
    threshold: number | undefined,
    source: IndexSource,
    minibatches: number,
  ): this {
    this.#scores = scores;
    this.#batchSize = batchSize;
    this.#keep = keep;
    this.#bounds[1] = threshold ?? Number.NEGATIVE_INFINITY;
    this.#source = source;
    const pivot = candidatePivot(scores, n, batchSize, keep, minibatches);
    this.#bounds[0] = pivot;
    const draws = minibatches * batchSize;
    this.#logStep = this.#borrowed && draws < n ? batchSize : 0;
    this.#logged = 0;
    const b = this.#buffers.fit(n, batchSize, keep, this.#logStep === 0 ? batchSize : draws);
    this.#permutation = b.permutation;
    this.#n = n;
    this.#log = b.log;
    this.#heap = b.heap;
    this.#heap[keep] = Number.POSITIVE_INFINITY;
    this.kept = b.kept;
    this.#candidates = b.candidates;
    this.#ties = b.ties;
    // Flags cost a pass over the n scores: worth it for a sampler (once for all its minibatches) and for
    // a one-shot draw of at least n items (which rewrites the permutation at the end anyway); a smaller
    // draw reads each drawn item's score instead, so that it costs its draws, not n.
    this.#flagged = pivot !== Number.NEGATIVE_INFINITY && (!this.#borrowed || !(draws < n));
    if (this.#flagged) {
      const permutation = b.permutation;
      for (let i = 0; i < n; i++) {
        const score = scores === null ? -i : scores[i]!;
        if (score - score !== 0) nonFiniteReturn(i, score);
        permutation[i] = i | (Number(score >= pivot) << 31);
      }
    }
    return this;
  }

  /**
   * Draws the next minibatch and keeps its best items.
   * @returns how many items were kept, in `kept[0..count−1]`.
   */
  next(): number {
    if (this.#bounds[0] === Number.NEGATIVE_INFINITY) return this.#drawWhole();
    return this.#flagged ? this.#drawFlagged() : this.#drawCandidates();
  }

  /** Draws a minibatch and searches all of it. */
  #drawWhole(): number {
    const permutation = this.#permutation;
    const n = this.#n;
    const C = this.#batchSize;
    const source = this.#source;
    const log = this.#log;
    const base = this.#logged;
    this.#logged = base + this.#logStep;
    for (let k = 0; k < C; k++) {
      const t = k + source.index(n - k);
      const item = permutation[t]!;
      permutation[t] = permutation[k]!;
      permutation[k] = item;
      log[base + k] = t;
    }
    return this.#keepBest(permutation, C);
  }

  /**
   * Draws a minibatch from a flagged permutation and searches its candidates, or all of it when they are
   * fewer than K.
   */
  #drawFlagged(): number {
    const permutation = this.#permutation;
    const n = this.#n;
    const C = this.#batchSize;
    const source = this.#source;
    const log = this.#log;
    const base = this.#logged;
    this.#logged = base + this.#logStep;
    const candidates = this.#candidates;
    let m = 0;
    for (let k = 0; k < C; k++) {
      const t = k + source.index(n - k);
      const entry = permutation[t]!;
      permutation[t] = permutation[k]!;
      permutation[k] = entry;
      log[base + k] = t;
      // Always written, counted only when it is a candidate: no branch to mispredict.
      candidates[m] = entry & ITEM;
      m += entry >>> 31;
    }
    if (m >= this.#keep) return this.#keepBest(candidates, m);
    return this.#keepBest(this.copyBatch(candidates), C);
  }

  /** Draws a minibatch, reading each item's score, and searches its candidates (or all of it). */
  #drawCandidates(): number {
    const permutation = this.#permutation;
    const n = this.#n;
    const C = this.#batchSize;
    const source = this.#source;
    const log = this.#log;
    const base = this.#logged;
    this.#logged = base + this.#logStep;
    const scores = this.#scores;
    const pivot = this.#bounds[0]!;
    const candidates = this.#candidates;
    let m = 0;
    for (let k = 0; k < C; k++) {
      const t = k + source.index(n - k);
      const item = permutation[t]!;
      permutation[t] = permutation[k]!;
      permutation[k] = item;
      log[base + k] = t;
      // Always written, counted only when it is a candidate: no branch to mispredict.
      candidates[m] = item;
      const score = scores === null ? -item : scores[item]!;
      if (score - score !== 0) nonFiniteReturn(item, score);
      m += Number(score >= pivot);
    }
    return m >= this.#keep ? this.#keepBest(candidates, m) : this.#keepBest(permutation, C);
  }

  /**
   * Copies the current minibatch (its items, in draw order) into `out[0..C−1]`.
   * @returns `out`.
   */
  copyBatch(out: Uint32Array): Uint32Array {
    const permutation = this.#permutation;
    const C = this.#batchSize;
    for (let k = 0; k < C; k++) out[k] = permutation[k]! & ITEM;
    return out;
  }

  /**
   * Puts the permutation back to the identity, so that the buffers can serve another draw; call it only
   * after draws that returned (a draw that throws may leave the log behind the permutation). Only the
   * positions the draws touched can differ from the identity: 0..C−1 and the logged swap targets, so
   * writing p at each of them is enough when every draw was logged; otherwise the whole identity is
   * rewritten.
   * @returns the buffers, ready for {@link releaseDrawBuffers}.
   */
  restore(): DrawBuffers {
    const permutation = this.#permutation;
    const log = this.#log;
    const logged = this.#logged;
    if (this.#logStep !== 0 && logged <= log.length) {
      for (let k = 0; k < this.#batchSize; k++) permutation[k] = k;
      for (let e = 0; e < logged; e++) {
        const t = log[e]!;
        permutation[t] = t;
      }
    } else {
      const n = this.#n;
      for (let i = 0; i < n; i++) permutation[i] = i;
    }
    // The buffers outlive the call: do not keep the caller's returns alive with them.
    this.#scores = null;
    return this.#buffers;
  }

  /** Keeps the best of items[0..m−1], which hold every item of the minibatch that can be kept. */
  #keepBest(items: Uint32Array, m: number): number {
    const scores = this.#scores;
    const K = this.#keep;
    const heap = this.#heap;
    const heapItems = this.kept;
    // The best score that did not stay in the heap: if it equals the final cut, there is a tie to break.
    let bestOut = Number.NEGATIVE_INFINITY;
    for (let k = 0; k < m; k++) {
      const item = items[k]!;
      const score = scores === null ? -item : scores[item]!;
      if (score - score !== 0) nonFiniteReturn(item, score);
      if (k < K) {
        heapPush(heap, heapItems, k, score, item);
      } else if (score > heap[0]!) {
        if (heap[0]! > bestOut) bestOut = heap[0]!;
        heapReplaceTop(heap, heapItems, K, score, item);
      } else if (score > bestOut) {
        bestOut = score;
      }
    }
    const cut = heap[0]!;
    const threshold = this.#bounds[1]!;
    if (!(cut > threshold)) {
      // Fewer than K eligible items, all of them in the heap (everything outside scores <= cut).
      let count = 0;
      for (let i = 0; i < K; i++) {
        if (heap[i]! > threshold) heapItems[count++] = heapItems[i]!;
      }
      return count;
    }
    // No item outside the heap ties with the cut: the heap holds exactly the K best.
    if (bestOut < cut) return K;
    return this.#breakTies(items, m, cut);
  }

  /** Keeps the items of items[0..m−1] above the cut and a uniform random choice of those tied at it. */
  #breakTies(items: Uint32Array, m: number, cut: number): number {
    const scores = this.#scores;
    const kept = this.kept;
    const ties = this.#ties;
    let count = 0;
    let tied = 0;
    for (let i = 0; i < m; i++) {
      const item = items[i]!;
      const s = scores === null ? -item : scores[item]!;
      if (s > cut) kept[count++] = item;
      else if (s === cut) ties[tied++] = item;
    }
    const places = this.#keep - count;
    for (let i = 0; i < places; i++) {
      const j = i + this.#source.index(tied - i);
      const swap = ties[j]!;
      ties[j] = ties[i]!;
      ties[i] = swap;
      kept[count++] = swap;
    }
    return count;
  }
}

/**
 * A draw over borrowed buffers: the draw kept with them, reset, or a new one kept with them (see
 * {@link EliteDraw.reset}).
 */
export function oneShotDraw(
  scores: Float64Array | null,
  n: number,
  batchSize: number,
  keep: number,
  threshold: number | undefined,
  source: IndexSource,
  minibatches: number,
  buffers: DrawBuffers,
): EliteDraw {
  const draw = buffers.draw;
  if (draw !== null) return draw.reset(scores, n, batchSize, keep, threshold, source, minibatches);
  const fresh = new EliteDraw(scores, n, batchSize, keep, threshold, source, minibatches, buffers);
  buffers.draw = fresh;
  return fresh;
}

/** The low 31 bits of a permutation entry: its item (the top bit may flag it as a candidate). */
const ITEM = 0x7fff_ffff;

/** Pool items looked at to place the pivot. */
const PIVOT_SAMPLE = 256;

/**
 * Whether a draw of minibatches of C keeping K searches each minibatch whole, without a candidate pivot:
 * when μ = K + 3√K + 3 candidates would not be few (μ > C/4). For K = 1, when C <= 27.
 */
export function searchesWholeMinibatch(batchSize: number, keep: number): boolean {
  return 4 * (keep + 3 * Math.sqrt(keep) + 3) > batchSize;
}

/**
 * A score such that a minibatch of C items holds about μ = K + 3√K + 3 items scoring at least it (fewer
 * than K in well under 1% of minibatches): the ⌈S·μ/C⌉-th best of S evenly spaced pool items. −Infinity
 * (every item a candidate) when the candidates would not be few (μ > C/4) or the minibatches too few to
 * repay the sample (J·C < 32·S).
 */
function candidatePivot(
  scores: Float64Array | null,
  n: number,
  batchSize: number,
  keep: number,
  minibatches: number,
): number {
  if (searchesWholeMinibatch(batchSize, keep)) return Number.NEGATIVE_INFINITY;
  const expected = keep + 3 * Math.sqrt(keep) + 3;
  // Rank order (item i scores −i): the pivot keeps the ⌈n·μ/C⌉ best items exactly.
  if (scores === null) return -(Math.ceil((n * expected) / batchSize) - 1);
  const size = Math.min(n, PIVOT_SAMPLE, Math.floor((minibatches * batchSize) / 32));
  const rank = Math.ceil((size * expected) / batchSize);
  if (rank >= size) return Number.NEGATIVE_INFINITY;
  // The rank best of the sample in a min-heap: its root.
  const heap = new Float64Array(rank + 1);
  heap[rank] = Number.POSITIVE_INFINITY;
  const items = new Uint32Array(rank);
  for (let i = 0; i < size; i++) {
    const item = Math.floor((i * n) / size);
    const score = scores[item]!;
    if (score - score !== 0) nonFiniteReturn(item, score);
    if (i < rank) heapPush(heap, items, i, score, i);
    else if (score > heap[0]!) heapReplaceTop(heap, items, rank, score, i);
  }
  return heap[0]!;
}

// A heap on two typed arrays, not an npm heap (tinyqueue, heap-js keep one JS value per entry): a draw
// must allocate nothing (test/allocation.test.ts), and a core package takes no dependency for 30 lines.
/** Inserts (value, item) into the min-heap of heap[0..size−1] (size grows by one). */
function heapPush(heap: Float64Array, items: Uint32Array, size: number, value: number, item: number): void {
  let child = size;
  while (child > 0) {
    const parent = (child - 1) >> 1;
    if (heap[parent]! <= value) break;
    heap[child] = heap[parent]!;
    items[child] = items[parent]!;
    child = parent;
  }
  heap[child] = value;
  items[child] = item;
}

/**
 * Replaces the minimum of the min-heap heap[0..size−1] by a larger (value, item). heap[size] must be
 * +Infinity: the right child is then read without a bounds test, and never chosen past the end.
 */
function heapReplaceTop(
  heap: Float64Array,
  items: Uint32Array,
  size: number,
  value: number,
  item: number,
): void {
  let parent = 0;
  for (;;) {
    let child = 2 * parent + 1;
    if (child >= size) break;
    child += Number(heap[child + 1]! < heap[child]!);
    if (heap[child]! >= value) break;
    heap[parent] = heap[child]!;
    items[parent] = items[child]!;
    parent = child;
  }
  heap[parent] = value;
  items[parent] = item;
}
