/**
 * The engine of {@link EliteSampler} and {@link monteCarloOccupancy}: draws one minibatch of C distinct
 * items from 0..n−1 uniformly without replacement and keeps the K best, in one pass over the draws plus
 * one over the minibatch, with no allocation.
 *
 * Drawing: Floyd's algorithm (Bentley & Floyd, "A sample of brilliance", CACM 1987): for j = n−C..n−1
 * pick t uniform in 0..j and take t, or j when t is already taken. O(C) per minibatch; membership is an
 * array of n minibatch stamps (4n bytes, allocated once), so nothing needs clearing between minibatches.
 *
 * Keeping: a size-K min-heap of (score, item) fed as items are drawn holds the K best in O(C log K); its
 * root is the K-th best score v. When no item left out of the heap scores v (tracked during the draw),
 * the heap is the answer. Otherwise every item scoring above v is kept and, of the e items scoring
 * exactly v, a uniform random subset fills the places left (a partial Fisher–Yates shuffle) — the law of
 * "shuffle, then sort stably and take the first K". With a threshold, only items scoring strictly above
 * it are kept; they are all in the heap.
 */
export class EliteDraw {
  /** The current minibatch (item indices, in draw order), overwritten by each {@link EliteDraw.next}. */
  readonly batch: Uint32Array;
  /**
   * The kept items of the current minibatch in `kept[0..count−1]` (in no particular order). Between
   * draws it doubles as the heap's item array.
   */
  readonly kept: Uint32Array;
  readonly #n: number;
  readonly #keep: number;
  readonly #threshold: number;
  readonly #index: (bound: number) => number;
  readonly #stamps: Uint32Array;
  #stamp = 0;
  readonly #heap: Float64Array;
  readonly #ties: Uint32Array;

  /**
   * @param n - items to draw from; `scores` (when given) has this length.
   * @param batchSize - C.
   * @param keep - K.
   * @param threshold - keep only scores strictly above it (undefined: no threshold).
   * @param index - uniform integer source: index(bound) is uniform on 0..bound−1.
   */
  constructor(
    n: number,
    batchSize: number,
    keep: number,
    threshold: number | undefined,
    index: (bound: number) => number,
  ) {
    this.#n = n;
    this.#keep = keep;
    this.#threshold = threshold ?? Number.NEGATIVE_INFINITY;
    this.#index = index;
    this.#stamps = new Uint32Array(n);
    this.#heap = new Float64Array(keep);
    this.#ties = new Uint32Array(batchSize);
    this.batch = new Uint32Array(batchSize);
    this.kept = new Uint32Array(keep);
  }

  /**
   * Draws the next minibatch and keeps its best items, scoring item i by `scores[i]`, or by −i (rank
   * order, item 0 best) when `scores` is null.
   * @returns how many items were kept, in `kept[0..count−1]`.
   */
  next(scores: Float64Array | null): number {
    const n = this.#n;
    const batch = this.batch;
    const C = batch.length;
    const K = this.#keep;
    const stamps = this.#stamps;
    if (this.#stamp === 0xffff_ffff) {
      stamps.fill(0);
      this.#stamp = 0;
    }
    const stamp = ++this.#stamp;
    const index = this.#index;
    const heap = this.#heap;
    const heapItems = this.kept;
    // The best score that did not stay in the heap: if it equals the final cut, there is a tie to break.
    let bestOut = Number.NEGATIVE_INFINITY;
    for (let j = n - C, k = 0; j < n; j++, k++) {
      let item = index(j + 1);
      if (stamps[item] === stamp) item = j;
      stamps[item] = stamp;
      batch[k] = item;
      const score = scores === null ? -item : scores[item]!;
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
    const threshold = this.#threshold;
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
    return this.#breakTies(scores, cut);
  }

  /** Keeps the items above the cut and a uniform random choice of those tied at it. */
  #breakTies(scores: Float64Array | null, cut: number): number {
    const batch = this.batch;
    const C = batch.length;
    const kept = this.kept;
    const ties = this.#ties;
    let count = 0;
    let tied = 0;
    for (let i = 0; i < C; i++) {
      const item = batch[i]!;
      const s = scores === null ? -item : scores[item]!;
      if (s > cut) kept[count++] = item;
      else if (s === cut) ties[tied++] = item;
    }
    const places = this.#keep - count;
    for (let i = 0; i < places; i++) {
      const j = i + this.#index(tied - i);
      const swap = ties[j]!;
      ties[j] = ties[i]!;
      ties[i] = swap;
      kept[count++] = swap;
    }
    return count;
  }
}

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

/** Replaces the minimum of the min-heap heap[0..size−1] by a larger (value, item). */
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
    if (child + 1 < size && heap[child + 1]! < heap[child]!) child++;
    if (heap[child]! >= value) break;
    heap[parent] = heap[child]!;
    items[parent] = items[child]!;
    parent = child;
  }
  heap[parent] = value;
  items[parent] = item;
}
