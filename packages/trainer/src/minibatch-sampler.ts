import type { SelectableIndex } from '@ftw/replay-pool';

/** The orders among tied returns: see {@link MinibatchSamplerOptions.tieRule}. */
export const TIE_RULES = ['random', 'newest', 'oldest', 'shortest', 'longest'] as const;

/** An order among tied returns. */
export type TieRule = (typeof TIE_RULES)[number];

/** The settings of {@link MinibatchSampler}. */
export interface MinibatchSamplerOptions {
  /** J, minibatches per update. */
  readonly batches: number;
  /** C, items drawn per minibatch (uniformly without replacement). */
  readonly batchSize: number;
  /** K, best items kept per minibatch. */
  readonly keep: number;
  /** Only items whose return is strictly above it can be kept; null for none. */
  readonly threshold: number | null;
  /**
   * Order among equal returns: uniformly random (the paper's), the newest (oldest) first, or the shortest
   * (longest) episode first and equal lengths at random.
   */
  readonly tieRule: TieRule;
}

/** The episode length of the trajectory at a pool position (for the `shortest` and `longest` rules). */
export type LengthAt = (position: number) => number;

/** Up to this many items, repeats are found by a scan of those drawn or kept (see `select`). */
const SCAN_LIMIT = 32;

/**
 * FTW's sampled selection (arXiv 2610.03361, Algorithm 2) at a cost that does not grow with the pool:
 * J minibatches of C items drawn uniformly without replacement from the selectable trajectories, the K
 * best of each kept (only those above the threshold, when there is one). The law is that of
 * `@ftw/selection`'s `selectElites` (a test checks the counts against Eq. 5 and `expectedCounts`), but it
 * reads the pool through a `SelectableIndex` and touches only the J·C items drawn.
 *
 * Method, per minibatch: Floyd's algorithm draws a uniform C-subset of 0..n−1 with C uniforms (for
 * j = n − C … n − 1: t uniform on 0..j; take t, or j when t is taken already; R. W. Floyd and J. Bentley,
 * "Programming pearls: a sample of brilliance", CACM 30(9), 1987); the K best are kept by an insertion
 * into a sorted buffer of K. Equal returns at the cut are broken as the tie rule says: `random` draws a
 * uniform subset of the tied items for the places left (extra uniforms only then), the law of "shuffle,
 * then sort stably"; `newest`/`oldest` prefer the higher/lower pool position; `shortest`/`longest`
 * shuffle the tied items, then sort them stably by episode length (so equal lengths stay at random).
 *
 * Cost: O(J·C·K) at worst, O(J·C) for small K, and no allocation per call. Repeats among the items
 * drawn (and among those kept) are found by scanning them when there are at most 32; only larger
 * minibatches use marks with one entry per selectable item (allocated once per pool size, reset after
 * each minibatch), whose random accesses miss the cache once the pool is large.
 *
 * @example
 * ```ts
 * const sampler = new MinibatchSampler({ batches: 4, batchSize: 5, keep: 1, threshold: null, tieRule: 'random' });
 * const chosen = sampler.select(pool.selectableIndex(version), random);
 * chosen.size; // ≤ 4 distinct positions; chosen.positions[i] was kept chosen.counts[i] times
 * ```
 */
export class MinibatchSampler {
  readonly #options: MinibatchSamplerOptions;
  #taken = new Uint8Array(0);
  #countOf = new Uint32Array(0);
  readonly #drawn: Int32Array;
  /** The returns of the drawn items, read once per minibatch. */
  readonly #drawnReturns: Float64Array;
  readonly #best: Int32Array;
  /** The returns of `#best`, in decreasing order. */
  readonly #bestReturns: Float64Array;
  readonly #tied: Int32Array;
  readonly #touched: Int32Array;
  /** Pool positions of the kept items, `size` of them, each once. */
  readonly positions: Int32Array;
  /** Times each was kept (1 … J). */
  readonly counts: Float64Array;
  /** Number of distinct items kept by the last `select`. */
  size = 0;

  /** @param options - J, C, K, threshold and tie rule (validated by the configuration) */
  constructor(options: MinibatchSamplerOptions) {
    this.#options = options;
    const { batches, batchSize, keep } = options;
    this.#drawn = new Int32Array(batchSize);
    this.#drawnReturns = new Float64Array(batchSize);
    this.#best = new Int32Array(keep);
    this.#bestReturns = new Float64Array(keep);
    this.#tied = new Int32Array(batchSize);
    this.#touched = new Int32Array(batches * keep);
    this.positions = new Int32Array(batches * keep);
    this.counts = new Float64Array(batches * keep);
  }

  /**
   * Draws J minibatches and keeps the best of each.
   * @param index - the selectable trajectories (at least C of them)
   * @param random - uniform on [0, 1)
   * @param lengthAt - episode lengths by pool position; needed by the `shortest` and `longest` rules only
   * @returns this, with `positions`, `counts` and `size` set (overwritten by the next call)
   * @throws TypeError when the tie rule is `shortest` or `longest` and `lengthAt` is not given
   */
  select(index: SelectableIndex, random: () => number, lengthAt?: LengthAt): this {
    const { batches, batchSize: C, keep: K, threshold, tieRule } = this.#options;
    if ((tieRule === 'shortest' || tieRule === 'longest') && lengthAt === undefined) {
      throw new TypeError(`lengthAt must be given with the tie rule ${tieRule}, got undefined`);
    }
    const n = index.size;
    // Small minibatches and selections (every FTW run: C = 5, J·K = 4) find repeats by scanning the few
    // items drawn or kept; larger ones mark them in arrays of n entries. Same draws either way; the scan
    // touches no memory that grows with n, so a large pool costs no extra cache misses here.
    const scanDrawn = C <= SCAN_LIMIT;
    const scanKept = batches * K <= SCAN_LIMIT;
    if (!(scanDrawn && scanKept) && this.#taken.length < n) {
      this.#taken = new Uint8Array(Math.max(n, 2 * this.#taken.length));
      this.#countOf = new Uint32Array(this.#taken.length);
    }
    const taken = this.#taken;
    const countOf = this.#countOf;
    const drawn = this.#drawn;
    const drawnReturns = this.#drawnReturns;
    const best = this.#best;
    const bestReturns = this.#bestReturns;
    const touchedItems = this.#touched;
    const counts = this.counts;
    const positions = this.positions;
    const floor = threshold ?? Number.NEGATIVE_INFINITY;
    let touched = 0;
    for (let b = 0; b < batches; b++) {
      // Floyd: a uniform C-subset of 0..n−1.
      for (let i = 0, j = n - C; j < n; i++, j++) {
        let t = Math.floor(random() * (j + 1));
        if (scanDrawn) {
          for (let k = 0; k < i; k++) {
            if (drawn[k] === t) {
              t = j;
              break;
            }
          }
        } else {
          if (taken[t] === 1) t = j;
          taken[t] = 1;
        }
        drawn[i] = t;
      }
      // The K best eligible items, by insertion into best[0..kept) kept in decreasing return.
      let kept = 0;
      if (K === 1) {
        // Every FTW run's setting: the best item, with a count of the items equal to it, so that the tie
        // rule's scan runs only on a tie. It is kept when above the threshold.
        let item = drawn[0]!;
        if (!scanDrawn) taken[item] = 0;
        let top = index.returnAt(item);
        drawnReturns[0] = top;
        let ties = 1;
        for (let i = 1; i < C; i++) {
          const candidate = drawn[i]!;
          if (!scanDrawn) taken[candidate] = 0;
          const r = index.returnAt(candidate);
          drawnReturns[i] = r;
          if (r > top) {
            top = r;
            item = candidate;
            ties = 1;
          } else if (r === top) ties++;
        }
        if (top > floor) {
          kept = 1;
          best[0] = item;
          bestReturns[0] = top;
          if (ties > 1) this.#breakTies(index, 1, random, tieRule, lengthAt);
        }
      } else
        for (let i = 0; i < C; i++) {
          const item = drawn[i]!;
          if (!scanDrawn) taken[item] = 0;
          const r = index.returnAt(item);
          drawnReturns[i] = r;
          if (!(r > floor)) continue;
          if (kept === K && !(r > bestReturns[K - 1]!)) continue;
          let p = kept < K ? kept++ : K - 1;
          while (p > 0 && r > bestReturns[p - 1]!) {
            best[p] = best[p - 1]!;
            bestReturns[p] = bestReturns[p - 1]!;
            p--;
          }
          best[p] = item;
          bestReturns[p] = r;
        }
      if (K > 1 && kept === K) this.#breakTies(index, kept, random, tieRule, lengthAt);
      for (let i = 0; i < kept; i++) {
        const item = best[i]!;
        if (scanKept) {
          let k = 0;
          while (k < touched && touchedItems[k] !== item) k++;
          if (k === touched) {
            touchedItems[touched++] = item;
            counts[k] = 1;
          } else {
            counts[k]!++;
          }
        } else {
          if (countOf[item] === 0) touchedItems[touched++] = item;
          countOf[item]!++;
        }
      }
    }
    for (let i = 0; i < touched; i++) {
      const item = touchedItems[i]!;
      positions[i] = index.positionAt(item);
      if (!scanKept) {
        counts[i] = countOf[item]!;
        countOf[item] = 0;
      }
    }
    this.size = touched;
    return this;
  }

  /**
   * When items left out of the minibatch's top K have the same return as the K-th kept, the places held
   * by that return go to a uniform subset of all the items holding it (or the newest/oldest of them, or
   * the shortest/longest, at random among equal lengths).
   */
  #breakTies(
    index: SelectableIndex,
    kept: number,
    random: () => number,
    rule: TieRule,
    lengthAt: LengthAt | undefined,
  ): void {
    const best = this.#best;
    const bestReturns = this.#bestReturns;
    const drawn = this.#drawn;
    const drawnReturns = this.#drawnReturns;
    const cut = bestReturns[kept - 1]!;
    let inside = 0;
    while (inside < kept && bestReturns[kept - 1 - inside] === cut) inside++;
    let count = 0;
    for (let i = 0; i < drawn.length; i++) if (drawnReturns[i] === cut) count++;
    if (count === inside) return;
    const tied = this.#tied;
    count = 0;
    for (let i = 0; i < drawn.length; i++) if (drawnReturns[i] === cut) tied[count++] = drawn[i]!;
    const first = kept - inside;
    if (rule === 'random') {
      for (let i = 0; i < inside; i++) {
        const j = i + Math.floor(random() * (count - i));
        const swap = tied[i]!;
        tied[i] = tied[j]!;
        tied[j] = swap;
        best[first + i] = tied[i]!;
      }
      return;
    }
    if (rule === 'shortest' || rule === 'longest') {
      // A uniform order of the tied items (Fisher–Yates), then a stable sort by length: equal lengths keep
      // their uniform order.
      for (let i = count - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        const swap = tied[i]!;
        tied[i] = tied[j]!;
        tied[j] = swap;
      }
      const sign = rule === 'shortest' ? 1 : -1;
      const ordered = Array.from(tied.subarray(0, count)).sort(
        (a, b) => sign * (lengthAt!(index.positionAt(a)) - lengthAt!(index.positionAt(b))),
      );
      for (let i = 0; i < inside; i++) best[first + i] = ordered[i]!;
      return;
    }
    const newer = rule === 'newest' ? -1 : 1;
    const ordered = Array.from(tied.subarray(0, count)).sort(
      (a, b) => newer * (index.positionAt(a) - index.positionAt(b)),
    );
    for (let i = 0; i < inside; i++) best[first + i] = ordered[i]!;
  }
}
