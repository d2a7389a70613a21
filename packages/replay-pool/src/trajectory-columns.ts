/**
 * What {@link ReplayPool.columnsAt} returns: read access to one held trajectory's steps in the pool's own
 * storage, without building its {@link Trajectory} record (four typed-array views and a frozen object,
 * which cost more than reading the few steps a learner's update needs). A view: valid until the pool is
 * next changed or asked for another trajectory's columns.
 *
 * @example
 * ```ts
 * pool.push({ actions: [2, 0], logProbs: [-0.5, -1], versions: 3, return: 1, observations: [7, 8] });
 * const steps = pool.columnsAt(pool.size - 1);
 * console.log(steps.length, steps.action(0), steps.observation(1), steps.return); // 2 2 8 1
 * ```
 */
export interface TrajectoryColumns {
  /** Number of steps L. */
  readonly length: number;
  /** Observation values per step, d (0 when the trajectory was stored without observations). */
  readonly observationSize: number;
  /** The trajectory's return. */
  readonly return: number;
  /** Oldest policy version among its steps. */
  readonly minVersion: number;
  /** Newest policy version among its steps. */
  readonly maxVersion: number;
  /**
   * @param t - a step in [0, length) (not checked)
   * @returns the action taken at step t
   */
  action(t: number): number;
  /**
   * @param t - a step in [0, length) (not checked)
   * @returns the behaviour log-probability of that action
   */
  logProb(t: number): number;
  /**
   * @param t - a step in [0, length) (not checked)
   * @returns the policy version that acted at step t
   */
  version(t: number): number;
  /**
   * @param t - a step in [0, length) (not checked)
   * @param k - a value in [0, observationSize) (not checked); 0 by default
   * @returns value k of the observation at step t
   */
  observation(t: number, k?: number): number;
}
