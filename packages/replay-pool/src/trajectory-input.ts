import type { JsonValue } from './json-value.js';

/**
 * A trajectory as a caller hands it to {@link ReplayPool.push}: per step the action taken, the behaviour
 * policy's log-probability of that action and the policy version that produced the step, plus the
 * terminal return. Plain arrays and typed arrays are both accepted; the pool copies them into columnar
 * typed arrays, so later changes to these arrays do not reach the pool. A stored {@link Trajectory} is
 * itself a valid `TrajectoryInput`.
 *
 * Constraints, checked on push before any state changes (T = `actions.length`):
 * - `actions`: T ≥ 1 integers in [0, 2^31 − 1];
 * - `logProbs`: T numbers ≤ 0 (`-Infinity` and `NaN` are refused: a step the behaviour policy could not
 *   have taken is a bug, not data);
 * - `versions`: T integers in [0, 2^32 − 1], or one such integer for every step (a trajectory may span
 *   versions when weights are hot-loaded mid-rollout);
 * - `return`: a finite number;
 * - `observations`: optional, T · d finite numbers for some whole d ≥ 1 (d values per step, step-major);
 * - `metadata`: optional {@link JsonValue}; stored as a frozen JSON copy.
 *
 * @example
 * ```ts
 * const input: TrajectoryInput = {
 *   actions: [2, 0, 1],
 *   logProbs: [-0.1, -1.6, -0.4],
 *   versions: [4, 4, 5],
 *   return: 1,
 *   metadata: { task: 'maze-3' },
 * };
 * ```
 */
export interface TrajectoryInput {
  /** Action index per step: integers in [0, 2^31 − 1]; at least one step. */
  readonly actions: ArrayLike<number>;
  /** Behaviour log-probability log q_{v_t}(a_t | h_t) per step: finite numbers ≤ 0. */
  readonly logProbs: ArrayLike<number>;
  /** Policy version per step (integers in [0, 2^32 − 1]), or one version for all steps. */
  readonly versions: ArrayLike<number> | number;
  /** Terminal return of the trajectory: a finite number. */
  readonly return: number;
  /** Optional observations, d finite values per step laid out step after step. */
  readonly observations?: ArrayLike<number> | undefined;
  /** Optional JSON metadata (task id, seed, worker…). */
  readonly metadata?: JsonValue | undefined;
}
