/**
 * The engine of {@link EliteSampler} and {@link monteCarloOccupancy}: draws one minibatch of C distinct
 * items from 0..n−1 uniformly without replacement and keeps the K best, in one pass over the draws plus
 * one over the minibatch, with no allocation.
 *
 * Drawing: Floyd's algorithm (Bentley & Floyd, "A sample of brilliance", CACM 1987): for j = n−C..n−1
 * pick t uniform in 0..j and take t, or j when t is already taken. O(C) per minibatch; membership is an
 * array of n minibatch stamps (4n bytes, allocated once), so nothing needs clearing between minibatches.
 *
 * Keeping: a size-K min-heap fed as items are drawn finds the K-th best score v in O(C log K). Every
 * item scoring above v is kept; of the e items scoring exactly v, a uniform random subset fills the
 * places left (a partial Fisher–Yates shuffle, drawing randomness only when e exceeds them) — the law of
 * "shuffle, then sort stably and take the first K". With a threshold, only items scoring strictly above
 * it are kept.
 */
export class EliteDraw {
  /** The current minibatch (item indices, in draw order), overwritten by each {@link EliteDraw.next}. */
  readonly batch: Uint32Array;
  /** The kept items of the current minibatch in `kept[0..count−1]` (above the cut first, then ties). */
  readonly kept: Uint32Array;
  readonly #n: number;
  readonly #keep: number;
  readonly #threshold: number;
  readonly #uniform: () => number;
  readonly #stamps: Uint32Array;
  #stamp = 0;
  readonly #scores: Float64Array;
  readonly #heap: Float64Array;
  readonly #ties: Uint32Array;

  /**
   * @param n - items to draw from; `scores` (when given) has this length.
   * @param batchSize - C.
   * @param keep - K.
   * @param threshold - keep only scores strictly above it (undefined: no threshold).
   * @param uniform - checked uniform source on [0, 1).
   */
  constructor(
    n: number,
    batchSize: number,
    keep: number,
    threshold: number | undefined,
    uniform: () => number,
  ) {
    this.#n = n;
    this.#keep = keep;
    this.#threshold = threshold ?? Number.NEGATIVE_INFINITY;
    this.#uniform = uniform;
    this.#stamps = new Uint32Array(n);
    this.#scores = new Float64Array(batchSize);
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
    const uniform = this.#uniform;
    const drawn = this.#scores;
    const heap = this.#heap;
    let min = Number.POSITIVE_INFINITY;
    for (let j = n - C, k = 0; j < n; j++, k++) {
      let item = Math.floor(uniform() * (j + 1));
      if (stamps[item] === stamp) item = j;
      stamps[item] = stamp;
      batch[k] = item;
      const score = scores === null ? -item : scores[item]!;
      drawn[k] = score;
      if (k < K) {
        heapPush(heap, k, score);
        if (score < min) min = score;
      } else if (score > heap[0]!) {
        heapReplaceTop(heap, K, score);
      }
    }
    const cut = K === C ? min : heap[0]!;
    return this.#keepAbove(cut);
  }

  /** Keeps the items of the current minibatch that beat the cut, and random ties at it. */
  #keepAbove(cut: number): number {
    const batch = this.batch;
    const C = batch.length;
    const drawn = this.#scores;
    const kept = this.kept;
    const threshold = this.#threshold;
    let count = 0;
    if (!(cut > threshold)) {
      // Fewer than K eligible items: every eligible one is kept, no tie to break.
      for (let i = 0; i < C; i++) if (drawn[i]! > threshold) kept[count++] = batch[i]!;
      return count;
    }
    const ties = this.#ties;
    let tied = 0;
    for (let i = 0; i < C; i++) {
      const s = drawn[i]!;
      if (s > cut) kept[count++] = batch[i]!;
      else if (s === cut) ties[tied++] = batch[i]!;
    }
    const places = this.#keep - count;
    if (tied > places) {
      for (let i = 0; i < places; i++) {
        const j = i + Math.floor(this.#uniform() * (tied - i));
        const swap = ties[j]!;
        ties[j] = ties[i]!;
        ties[i] = swap;
      }
    }
    for (let i = 0; i < places; i++) kept[count++] = ties[i]!;
    return count;
  }
}

/** Inserts `value` into the min-heap heap[0..size−1] (size grows by one). */
function heapPush(heap: Float64Array, size: number, value: number): void {
  let child = size;
  while (child > 0) {
    const parent = (child - 1) >> 1;
    if (heap[parent]! <= value) break;
    heap[child] = heap[parent]!;
    child = parent;
  }
  heap[child] = value;
}

/** Replaces the minimum of the min-heap heap[0..size−1] by a larger `value`. */
function heapReplaceTop(heap: Float64Array, size: number, value: number): void {
  let parent = 0;
  for (;;) {
    let child = 2 * parent + 1;
    if (child >= size) break;
    if (child + 1 < size && heap[child + 1]! < heap[child]!) child++;
    if (heap[child]! >= value) break;
    heap[parent] = heap[child]!;
    parent = child;
  }
  heap[parent] = value;
}
