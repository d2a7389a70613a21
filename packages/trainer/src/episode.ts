import type { ObservationRows } from './policy.js';

/**
 * One collected episode (a trajectory), as the updaters see it: per step the observation the policy
 * acted in, the action, the behaviour policy's log-probability of it and the policy version that acted,
 * then the return. A bandit episode has one step.
 *
 * The arrays have exactly `length` entries (`observations`: `length × d`, d numbers per step). A
 * collector reuses an episode's arrays from one iteration to the next, so an updater must copy what it
 * keeps (FTW's pool copies on push).
 *
 * @example
 * ```ts
 * const episode: Episode = {
 *   length: 2,
 *   observations: Float64Array.of(0, 3),
 *   actions: Int32Array.of(1, 0),
 *   logProbs: Float64Array.of(-0.69, -0.2),
 *   versions: Uint32Array.of(7, 7),
 *   return: 1,
 * };
 * ```
 */
export interface Episode {
  /** Number of steps L ≥ 1. */
  length: number;
  /** Observation o_t per step, d numbers each, step after step (see `Policy`). */
  observations: ObservationRows;
  /** Action a_t per step. */
  actions: Int32Array;
  /** Behaviour log-probability log q(a_t | o_t) per step, finite and ≤ 0. */
  logProbs: Float64Array;
  /** Policy version per step (the number of updates made before the step was taken). */
  versions: Uint32Array;
  /** Return: the sum of the episode's rewards. */
  return: number;
}
