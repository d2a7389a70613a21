/**
 * What {@link ReplayPool.selectableIndex} returns: random access to the trajectories that may be
 * selected at one policy version, in an order of the pool's choosing (not oldest first), without
 * copying anything. A view: valid until the pool is next pushed to, restored, or asked for another
 * version's index.
 *
 * @example
 * ```ts
 * const index = pool.selectableIndex(version);
 * const k = Math.floor(random() * index.size); // a uniform selectable trajectory
 * const trajectory = pool.at(index.positionAt(k));
 * console.log(index.returnAt(k) === trajectory.return); // true
 * ```
 */
export interface SelectableIndex {
  /** Number of selectable trajectories. */
  readonly size: number;
  /**
   * @param k - an index in [0, size) (not checked)
   * @returns the pool position (0 = oldest) of the k-th selectable trajectory
   */
  positionAt(k: number): number;
  /**
   * @param k - an index in [0, size) (not checked)
   * @returns the return of the k-th selectable trajectory
   */
  returnAt(k: number): number;
}
