/**
 * Keeps the `keep` = K highest scores of a minibatch, breaking ties at the cut uniformly at random and,
 * with a threshold, keeping only scores strictly above it. Time O(C log K) (a size-K min-heap finds the
 * K-th best score), no allocation: the caller owns every buffer.
 *
 * Every item scoring above the K-th best value v is kept; of the e items scoring exactly v, a uniform
 * random (K − #above)-subset is kept (a partial Fisher–Yates shuffle, drawing randomness only when e
 * exceeds the places left). This is the law of "shuffle, then sort stably and take the first K".
 */
export class KeepBest {
  readonly #keep: number;
  readonly #threshold: number;
  readonly #uniform: () => number;
  readonly #heap: Float64Array;
  readonly #ties: Uint32Array;
  readonly #chosen: Uint8Array;

  constructor(batchSize: number, keep: number, threshold: number | undefined, uniform: () => number) {
    this.#keep = keep;
    this.#threshold = threshold ?? Number.NEGATIVE_INFINITY;
    this.#uniform = uniform;
    this.#heap = new Float64Array(keep);
    this.#ties = new Uint32Array(batchSize);
    this.#chosen = new Uint8Array(batchSize);
  }

  /**
   * Writes into `kept` the positions (0..C−1, in draw order) of the kept items of `scores[0..C−1]` and
   * returns how many there are (K, or fewer when a threshold leaves fewer eligible).
   */
  select(scores: Float64Array, batchSize: number, kept: Uint32Array): number {
    const K = this.#keep;
    const cut = K === batchSize ? minimum(scores, batchSize) : kthLargest(scores, batchSize, this.#heap, K);
    const threshold = this.#threshold;
    let count = 0;
    if (!(cut > threshold)) {
      // Fewer than K eligible items: every eligible one is kept, no tie to break.
      for (let i = 0; i < batchSize; i++) if (scores[i]! > threshold) kept[count++] = i;
      return count;
    }
    let above = 0;
    let tied = 0;
    const ties = this.#ties;
    for (let i = 0; i < batchSize; i++) {
      const s = scores[i]!;
      if (s > cut) above++;
      else if (s === cut) ties[tied++] = i;
    }
    const places = K - above;
    const chosen = this.#chosen;
    if (tied > places) {
      for (let i = 0; i < places; i++) {
        const j = i + Math.floor(this.#uniform() * (tied - i));
        const swap = ties[j]!;
        ties[j] = ties[i]!;
        ties[i] = swap;
      }
    }
    for (let i = 0; i < places; i++) chosen[ties[i]!] = 1;
    for (let i = 0; i < batchSize; i++) {
      if (scores[i]! > cut || chosen[i] === 1) {
        kept[count++] = i;
        chosen[i] = 0;
      }
    }
    return count;
  }
}

function minimum(scores: Float64Array, length: number): number {
  let min = scores[0]!;
  for (let i = 1; i < length; i++) if (scores[i]! < min) min = scores[i]!;
  return min;
}

/** The K-th largest of scores[0..length−1], with a binary min-heap of the K largest seen so far. */
function kthLargest(scores: Float64Array, length: number, heap: Float64Array, K: number): number {
  for (let i = 0; i < K; i++) {
    // Sift up.
    let child = i;
    const value = scores[i]!;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (heap[parent]! <= value) break;
      heap[child] = heap[parent]!;
      child = parent;
    }
    heap[child] = value;
  }
  for (let i = K; i < length; i++) {
    const value = scores[i]!;
    if (value <= heap[0]!) continue;
    // Replace the root and sift down.
    let parent = 0;
    for (;;) {
      let child = 2 * parent + 1;
      if (child >= K) break;
      if (child + 1 < K && heap[child + 1]! < heap[child]!) child++;
      if (heap[child]! >= value) break;
      heap[parent] = heap[child]!;
      parent = child;
    }
    heap[parent] = value;
  }
  return heap[0]!;
}
