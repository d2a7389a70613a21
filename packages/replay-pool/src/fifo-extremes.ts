/**
 * The minimum of a FIFO window, by a monotone deque: the values that may still become the minimum, in
 * increasing order, with the id (arrival number) of each. A value leaves the back when a smaller or equal
 * one arrives (it can never be the minimum again), and the front when its item leaves the window.
 */
class WindowMinimum {
  /** Entry i of the deque (at ring index i) in [2i, 2i + 1]: its id, then its value (one allocation). */
  #entries: Float64Array;
  #head = 0;
  #size = 0;

  /** @param length - initial room, a power of two (it doubles when full) */
  constructor(length: number) {
    this.#entries = new Float64Array(2 * length);
  }

  get value(): number {
    return this.#size === 0 ? Number.POSITIVE_INFINITY : this.#entries[2 * this.#head + 1]!;
  }

  add(id: number, value: number): void {
    const entries = this.#entries;
    let mask = (entries.length >>> 1) - 1;
    while (this.#size > 0 && entries[2 * ((this.#head + this.#size - 1) & mask) + 1]! >= value) this.#size--;
    if (this.#size === mask + 1) mask = this.#grow();
    const at = 2 * ((this.#head + this.#size++) & mask);
    this.#entries[at] = id;
    this.#entries[at + 1] = value;
  }

  /** Removes the item `id` if it is at the front (an item leaves in arrival order). */
  leave(id: number): void {
    if (this.#size > 0 && this.#entries[2 * this.#head] === id) {
      this.#head = (this.#head + 1) & ((this.#entries.length >>> 1) - 1);
      this.#size--;
    }
  }

  clear(): void {
    this.#head = 0;
    this.#size = 0;
  }

  #grow(): number {
    const length = this.#entries.length >>> 1;
    const entries = new Float64Array(4 * length);
    for (let i = 0; i < this.#size; i++) {
      const from = 2 * ((this.#head + i) & (length - 1));
      entries[2 * i] = this.#entries[from]!;
      entries[2 * i + 1] = this.#entries[from + 1]!;
    }
    this.#entries = entries;
    this.#head = 0;
    return 2 * length - 1;
  }
}

/**
 * The minimum and maximum of the policy versions of a FIFO pool's trajectories, for its incremental
 * staleness: values are added as trajectories enter and removed, oldest first, as they leave. Internal.
 *
 * Method: a monotone deque per extreme (the sliding-window minimum; the maximum as the minimum of −v).
 * `add` and `removeOldest` are O(1) amortised, with no hashing: a pool whose versions grow with time only
 * appends at the back and drops at the front of typed arrays.
 */
export class FifoExtremes {
  readonly #minimum: WindowMinimum;
  readonly #negatedMaximum: WindowMinimum;
  #added = 0;
  #removed = 0;

  /**
   * @param window - the most items held at once, when known (a pool's capacity): the deques start with
   *   room for that many, up to 1024, so that a small pool never grows them
   */
  constructor(window = 16) {
    let length = 16;
    while (length < window && length < 1024) length *= 2;
    this.#minimum = new WindowMinimum(length);
    this.#negatedMaximum = new WindowMinimum(length);
  }

  /** Smallest value held (+Infinity when empty). */
  get min(): number {
    return this.#minimum.value;
  }

  /** Largest value held (−Infinity when empty). */
  get max(): number {
    return this.#added === this.#removed ? Number.NEGATIVE_INFINITY : -this.#negatedMaximum.value;
  }

  /** @param value - the value of the newest item */
  add(value: number): void {
    const id = this.#added++;
    this.#minimum.add(id, value);
    this.#negatedMaximum.add(id, -value);
  }

  /** Removes the oldest item held (the pool is not empty). */
  removeOldest(): void {
    const id = this.#removed++;
    this.#minimum.leave(id);
    this.#negatedMaximum.leave(id);
  }

  /** Removes everything. */
  clear(): void {
    this.#added = 0;
    this.#removed = 0;
    this.#minimum.clear();
    this.#negatedMaximum.clear();
  }
}
