import type { ReplayPool } from '@ftw/replay-pool';
import { rankOccupancy } from '@ftw/selection';
import type { MinibatchSamplerOptions } from './minibatch-sampler.js';

/**
 * FTW's `expected` selection kept cheap as the pool turns over: every selectable trajectory weighted by
 * its exact expected selection count J·K·P(r) (Eq. 5 of arXiv 2610.03361, `rankOccupancy`), the
 * zero-variance limit of sampled minibatches. It gives the same counts as `@ftw/selection`'s
 * `expectedCounts` on the selectable returns (a test checks it), without sorting the pool at every update.
 *
 * Method: the pool's returns are kept in increasing order of (return, tie key, sequence) in parallel
 * arrays, the tie key being −length for the `shortest` rule, +length for `longest` and 0 otherwise; each
 * update inserts the trajectories pushed since the last one and removes those evicted (binary search,
 * then one `copyWithin` each: O(N) moves with a small constant, no sort). Ranks are then read from the
 * top, skipping the trajectories beyond the version-lag bound; a block of t equal (return, tie key)
 * shares the mean of its t occupancies (`random` ties, and equal lengths under `shortest`/`longest`), or
 * takes them newest (oldest) first; returns not above the threshold get 0. `rankOccupancy(n, C, K)` is
 * computed once per selectable count n.
 *
 * Cost per update: O(N) — every trajectory is weighted, by the definition of the mode — plus O(P log N)
 * for the P trajectories that entered or left.
 *
 * @example
 * ```ts
 * const expected = new ExpectedSelection(options, 128);
 * expected.select(pool, version); // expected.positions[0 .. expected.size) with expected.counts
 * ```
 */
export class ExpectedSelection {
  readonly #options: MinibatchSamplerOptions;
  readonly #capacity: number;
  /** Sorted by (return, tie key, sequence), ascending, `#count` of them. */
  readonly #returns: Float64Array;
  readonly #keys: Float64Array;
  readonly #sequences: Float64Array;
  #count = 0;
  /** Return and tie key of every sequence held, at `sequence % capacity` (to find it again on eviction). */
  readonly #bySequence: Float64Array;
  readonly #keyBySequence: Float64Array;
  /** Sequences below this were inserted (or skipped, when evicted before a sync). */
  #synced = 0;
  /** The pool's evicted count at the last sync: sequences below it have left the sorted arrays. */
  #evictedSynced = 0;
  #occupancy: Float64Array = new Float64Array(0);
  #occupancyFor = -1;
  readonly #selectableSequences: Float64Array;
  /** The return and tie key of each of those, read in order from `#returns` and `#keys`. */
  readonly #selectableReturns: Float64Array;
  readonly #selectableKeys: Float64Array;
  /** Expected count by pool position while one update emits them (all 0 between updates). */
  readonly #countAt: Float64Array;
  /** Pool positions of the weighted trajectories, `size` of them. */
  readonly positions: Int32Array;
  /** Expected count of each. */
  readonly counts: Float64Array;
  /** Number of trajectories with a positive expected count after the last `select`. */
  size = 0;

  /**
   * @param options - J, C, K, threshold and tie rule
   * @param capacity - the pool's capacity N
   */
  constructor(options: MinibatchSamplerOptions, capacity: number) {
    this.#options = options;
    this.#capacity = capacity;
    this.#returns = new Float64Array(capacity);
    this.#keys = new Float64Array(capacity);
    this.#sequences = new Float64Array(capacity);
    this.#bySequence = new Float64Array(capacity);
    this.#keyBySequence = new Float64Array(capacity);
    this.#selectableSequences = new Float64Array(capacity);
    this.#selectableReturns = new Float64Array(capacity);
    this.#selectableKeys = new Float64Array(capacity);
    this.#countAt = new Float64Array(capacity);
    this.positions = new Int32Array(capacity);
    this.counts = new Float64Array(capacity);
  }

  /**
   * Weights the selectable trajectories of `pool` at `version`.
   * @param pool - the pool (the same one at every call, pushed to in between)
   * @param version - the current policy version
   * @returns this, with `positions`, `counts`, `size`; or null when fewer than C are selectable
   */
  select(pool: ReplayPool, version: number): this | null {
    this.#sync(pool);
    const { batches: J, batchSize: C, keep: K, threshold, tieRule } = this.#options;
    const lag = pool.maxVersionLag;
    const evicted = pool.evictedCount;
    // Selectable items, from the best down: their sequences, in `#selectableSequences[0 .. n)`.
    const chosen = this.#selectableSequences;
    const chosenReturns = this.#selectableReturns;
    const chosenKeys = this.#selectableKeys;
    let n = 0;
    for (let i = this.#count - 1; i >= 0; i--) {
      const sequence = this.#sequences[i]!;
      if (lag !== undefined && version - pool.columnsAt(sequence - evicted).minVersion > lag) continue;
      chosenReturns[n] = this.#returns[i]!;
      chosenKeys[n] = this.#keys[i]!;
      chosen[n++] = sequence;
    }
    if (n < C) return null;
    if (this.#occupancyFor !== n) {
      this.#occupancy = rankOccupancy(n, C, K);
      this.#occupancyFor = n;
    }
    const occupancy = this.#occupancy;
    const floor = threshold ?? Number.NEGATIVE_INFINITY;
    const byAge = tieRule === 'newest' || tieRule === 'oldest';
    for (let hi = 0; hi < n; ) {
      const value = chosenReturns[hi]!;
      const key = chosenKeys[hi]!;
      let lo = hi + 1;
      while (lo < n && chosenReturns[lo] === value && chosenKeys[lo] === key) lo++;
      if (value > floor) {
        if (!byAge) {
          let sum = 0;
          for (let r = hi; r < lo; r++) sum += occupancy[r]!;
          const count = ((J * K) / (lo - hi)) * sum;
          for (let r = hi; r < lo; r++) this.#countAt[chosen[r]! - evicted] = count;
        } else {
          // Within the block the sequences decrease (newest first); `oldest` reverses them.
          for (let r = hi; r < lo; r++) {
            const item = tieRule === 'newest' ? chosen[r]! : chosen[lo - 1 - (r - hi)]!;
            this.#countAt[item - evicted] = J * K * occupancy[r]!;
          }
        }
      }
      hi = lo;
    }
    // Emitted in pool order, so that the learner reads the trajectories' columns in memory order.
    const countAt = this.#countAt;
    let size = 0;
    for (let position = 0; position < pool.size; position++) {
      const count = countAt[position]!;
      if (count > 0) {
        this.positions[size] = position;
        this.counts[size++] = count;
      }
      countAt[position] = 0;
    }
    this.size = size;
    return this;
  }

  /**
   * Removes the evicted sequences and inserts the new ones; when more than a quarter of the pool is new
   * (a first sync, a large batch), re-sorts it whole instead: O(N log N) rather than O(N) per item.
   */
  #sync(pool: ReplayPool): void {
    const evicted = pool.evictedCount;
    const pushed = pool.pushedCount;
    const capacity = this.#capacity;
    if (pushed - Math.max(this.#synced, evicted) > Math.max(32, pool.size / 4)) {
      const order = Array.from({ length: pool.size }, (_, p) => p);
      const returns = Float64Array.from(order, (p) => pool.columnsAt(p).return);
      const keys = Float64Array.from(order, (p) => this.#tieKey(pool, p));
      order.sort((a, b) => returns[a]! - returns[b]! || keys[a]! - keys[b]! || a - b);
      order.forEach((p, i) => {
        this.#returns[i] = returns[p]!;
        this.#keys[i] = keys[p]!;
        this.#sequences[i] = evicted + p;
        this.#bySequence[(evicted + p) % capacity] = returns[p]!;
        this.#keyBySequence[(evicted + p) % capacity] = keys[p]!;
      });
      this.#count = pool.size;
      this.#synced = pushed;
      this.#evictedSynced = evicted;
      return;
    }
    for (let s = this.#evictedSynced; s < Math.min(evicted, this.#synced); s++) {
      this.#remove(this.#bySequence[s % capacity]!, this.#keyBySequence[s % capacity]!, s);
    }
    for (let s = Math.max(this.#synced, evicted); s < pushed; s++) {
      const r = pool.columnsAt(s - evicted).return;
      const k = this.#tieKey(pool, s - evicted);
      this.#bySequence[s % capacity] = r;
      this.#keyBySequence[s % capacity] = k;
      this.#insert(r, k, s);
    }
    this.#synced = pushed;
    this.#evictedSynced = evicted;
  }

  /** The tie key of the trajectory at a pool position: −length (`shortest`), +length (`longest`), or 0. */
  #tieKey(pool: ReplayPool, position: number): number {
    const { tieRule } = this.#options;
    if (tieRule === 'shortest') return -pool.columnsAt(position).length;
    if (tieRule === 'longest') return pool.columnsAt(position).length;
    return 0;
  }

  /** First index whose (return, tie key, sequence) is not below (r, k, s). */
  #lowerBound(r: number, k: number, s: number): number {
    let lo = 0;
    let hi = this.#count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.#returns[mid]!;
      const w = this.#keys[mid]!;
      if (v < r || (v === r && (w < k || (w === k && this.#sequences[mid]! < s)))) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  // The tie keys are all 0 (never moved nor written) unless the rule orders by length.
  #insert(r: number, k: number, s: number): void {
    const at = this.#lowerBound(r, k, s);
    this.#returns.copyWithin(at + 1, at, this.#count);
    if (k !== 0) this.#keys.copyWithin(at + 1, at, this.#count);
    this.#sequences.copyWithin(at + 1, at, this.#count);
    this.#returns[at] = r;
    if (k !== 0) this.#keys[at] = k;
    this.#sequences[at] = s;
    this.#count++;
  }

  #remove(r: number, k: number, s: number): void {
    const at = this.#lowerBound(r, k, s);
    this.#returns.copyWithin(at, at + 1, this.#count);
    if (k !== 0) this.#keys.copyWithin(at, at + 1, this.#count);
    this.#sequences.copyWithin(at, at + 1, this.#count);
    this.#count--;
  }
}
