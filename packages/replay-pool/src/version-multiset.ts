/**
 * A multiset of policy versions with its minimum and maximum, for the pool's incremental staleness.
 * Internal.
 *
 * `add` is O(1). `remove` is O(1) unless it empties the bucket of the current minimum (or maximum);
 * the new one is then found by stepping through the versions above (or below) it, at most as many steps
 * as there are distinct versions held (beyond that it scans the distinct versions instead). A FIFO pool
 * whose versions grow with time evicts its minimum and finds the next one a step or two away, so its
 * cost per push is O(1).
 */
export class VersionMultiset {
  readonly #counts = new Map<number, number>();
  #min = Number.POSITIVE_INFINITY;
  #max = Number.NEGATIVE_INFINITY;

  /** Smallest version held (+Infinity when empty). */
  get min(): number {
    return this.#min;
  }

  /** Largest version held (−Infinity when empty). */
  get max(): number {
    return this.#max;
  }

  /** @param version - a version to add once */
  add(version: number): void {
    this.#counts.set(version, (this.#counts.get(version) ?? 0) + 1);
    if (version < this.#min) this.#min = version;
    if (version > this.#max) this.#max = version;
  }

  /** @param version - a version held, removed once */
  remove(version: number): void {
    const counts = this.#counts;
    const count = counts.get(version)!;
    if (count > 1) {
      counts.set(version, count - 1);
      return;
    }
    counts.delete(version);
    if (counts.size === 0) {
      this.#min = Number.POSITIVE_INFINITY;
      this.#max = Number.NEGATIVE_INFINITY;
      return;
    }
    if (version === this.#min) this.#min = this.#step(version, 1);
    if (version === this.#max) this.#max = this.#step(version, -1);
  }

  /** Removes everything. */
  clear(): void {
    this.#counts.clear();
    this.#min = Number.POSITIVE_INFINITY;
    this.#max = Number.NEGATIVE_INFINITY;
  }

  /** The nearest version held beyond `from` in direction `by` (the multiset is not empty). */
  #step(from: number, by: 1 | -1): number {
    const counts = this.#counts;
    let v = from + by;
    for (let steps = 0; steps < counts.size; steps++, v += by) if (counts.has(v)) return v;
    let best = by === 1 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
    for (const key of counts.keys()) best = by === 1 ? Math.min(best, key) : Math.max(best, key);
    return best;
  }
}
