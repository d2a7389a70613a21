import type { Observation, Policy } from './policy.js';

/** What {@link Environment.step} returns (Gymnasium's `step`, without `info`). */
export interface EnvironmentStep<O extends Observation = Observation> {
  /** The observation after the step (never acted in once the episode has ended). */
  readonly observation: O;
  /** The reward of the step; an episode's return is the sum of its rewards (undiscounted). */
  readonly reward: number;
  /** The episode reached a terminal state. */
  readonly terminated: boolean;
  /** The episode was cut by a limit (a step budget per episode), not by a terminal state. */
  readonly truncated: boolean;
}

/** What {@link Environment.evaluate} returns: a headline score and optional further figures. */
export interface Evaluation {
  /** The headline score, recorded after every iteration (e.g. the probability of the optimal action). */
  readonly score: number;
  /** Further named figures recorded beside it; omit when there are none. */
  readonly details?: Readonly<Record<string, number>>;
}

/**
 * An environment the trainer can act in, Gymnasium-shaped: `reset`, then `step` until `terminated` or
 * `truncated`, then `reset` again. One instance is driven by one thread; it draws its randomness from a
 * generator it was built with, so the same seed gives the same episodes for the same actions.
 *
 * Observations are what the policy reads: `observationSize` numbers (a feature vector, returned as any
 * array-like), or one number (d = 1), e.g. an integer id for a tabular policy. An environment whose
 * observations are dense ids (the first one returned is 0 and each new one is `observationCount` when
 * first returned) says so with `observationCount`; the policy-shift meter then measures every known
 * observation, and otherwise the ones of the iteration's episodes.
 *
 * @example
 * ```ts
 * const chain: Environment = {
 *   numActions: 2,
 *   reset: () => 0,
 *   step: (action) => ({ observation: 1, reward: action, terminated: true, truncated: false }),
 * };
 * ```
 */
export interface Environment<O extends Observation = Observation> {
  /** Number of actions; actions are the integers 0 … numActions − 1 in every state. */
  readonly numActions: number;
  /** Numbers per observation, d ≥ 1 (1 when absent). */
  readonly observationSize?: number;
  /** Dense integer ids handed out so far, when observations are such ids (may grow, never shrinks). */
  readonly observationCount?: number;
  /**
   * Starts an episode.
   * @returns the first observation
   */
  reset(): O;
  /**
   * Takes an action in the current episode.
   * @param action - integer in [0, numActions)
   * @returns the next observation, the reward and whether the episode ended
   */
  step(action: number): EnvironmentStep<O>;
  /**
   * Optional: a headline score of a policy, called after every iteration (keep it cheap or cache it).
   * @param policy - the current policy
   * @param moved - the observation ids whose logits may have changed since this environment last
   *   evaluated this policy (empty when no update ran), or null/absent when any may have
   * @returns the score and optional details (may be reused: read it before the next call)
   */
  evaluate?(policy: Policy, moved?: Int32Array | null): Evaluation;
  /**
   * Optional: the expected regret of acting with these action probabilities in this state; summed over
   * every step of training into the cumulative regret.
   * @param observation - the state acted in
   * @param probabilities - the acting policy's probabilities there
   * @returns the expected regret, ≥ 0
   */
  stepRegret?(observation: O, probabilities: Float64Array): number;
}
