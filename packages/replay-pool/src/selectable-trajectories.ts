/**
 * What {@link ReplayPool.selectable} returns: the returns of the trajectories that may be selected, and
 * for each the pool position it came from. Index i of a selection over `returns` is pool position
 * `positions[i]`. Both arrays are fresh copies owned by the caller.
 *
 * @example
 * ```ts
 * const { returns, positions } = pool.selectable(currentVersion);
 * const best = returns.indexOf(Math.max(...returns));
 * const trajectory = pool.at(positions[best]!);
 * ```
 */
export interface SelectableTrajectories {
  /** Returns of the selectable trajectories, oldest first. */
  readonly returns: Float64Array;
  /** Pool position (0 = oldest) of each entry of `returns`, increasing. */
  readonly positions: Uint32Array;
}
