/**
 * Options of {@link ReplayPool}.
 *
 * @example
 * ```ts
 * const options: ReplayPoolOptions = { capacity: 10_000, maxVersionLag: 8 };
 * ```
 */
export interface ReplayPoolOptions {
  /** Capacity N: trajectories held before the oldest is evicted. An integer in [1, 2^26]. */
  readonly capacity: number;
  /**
   * Largest age, in policy versions, of a trajectory that {@link ReplayPool.selectable} offers for
   * selection: a trajectory is selectable at version c when c − minVersion ≤ maxVersionLag, so every
   * one of its steps is at most that old. An integer in [0, 2^32 − 1]. Older trajectories stay in the
   * pool (FIFO order is not disturbed) and still count in {@link ReplayPool.staleness}.
   *
   * @defaultValue `undefined`: no bound, every trajectory held is selectable
   */
  readonly maxVersionLag?: number | undefined;
}
