/**
 * The minimum of a FIFO window, by a monotone deque: the values that may still become the minimum, in
 * increasing order, with the id (arrival number) of each. A value leaves the back when a smaller or equal
 * one arrives (it can never be the minimum again), and the front when its item leaves the window.
 */
class WindowMinimum {
  #ids: Float64Array;
  #values: Float64Array;
  #head = 0;
  #size = 0;

  /** @param length - initial room, a power of two (it doubles when full) */
  constructor(length: number) {
    this.#ids = new Float64Array(length);
    this.#values = new Float64Array(length);
  }

  get value(): number {
    return this.#size === 0 ? Number.POSITIVE_INFINITY : this.#values[this.#head]!;
  }

  add(id: number, value: number): void {
    let mask = this.#ids.length - 1;
    while (this.#size > 0 && this.#values[(this.#head + this.#size - 1) & mask]! >= value) this.#size--;
    if (this.#size === this.#ids.length) mask = this.#grow();
    const at = (this.#head + this.#size++) & mask;
    this.#ids[at] = id;
    this.#values[at] = value;
  }

  /** Removes the item `id` if it is at the front (an item leaves in arrival order). */
  leave(id: number): void {
    if (this.#size > 0 && this.#ids[this.#head] === id) {
      this.#head = (this.#head + 1) & (this.#ids.length - 1);
      this.#size--;
    }
  }

  clear(): void {
    this.#head = 0;
    this.#size = 0;
  }

  #grow(): number {
    const length = this.#ids.length;
    const ids = new Float64Array(2 * length);
    const values = new Float64Array(2 * length);
    for (let i = 0; i < this.#size; i++) {
      ids[i] = this.#ids[(this.#head + i) & (length - 1)]!;
      values[i] = this.#values[(this.#head + i) & (length - 1)]!;
    }
    this.#ids = ids;
    this.#values = values;
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
