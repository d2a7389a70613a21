/** Options of {@link BanditEnv.reset}. */
export interface ResetOptions {
  /**
   * Re-seeds the environment's generator before the episode, as Gymnasium's `reset(seed=…)` does: the
   * episodes that follow are those of a fresh environment built with this seed.
   * @defaultValue undefined (keep drawing from the current stream)
   */
  readonly seed?: number | undefined;
}

/** What {@link BanditEnv.reset} returns. */
export interface ResetResult {
  /** The task index of the episode; always 0 for a non-contextual bandit. */
  readonly observation: number;
  /** Diagnostics about the episode, never needed to act. */
  readonly info: ResetInfo;
}

/** Diagnostics returned by {@link BanditEnv.reset}. */
export interface ResetInfo {
  /** The action of highest expected reward for this episode's task (lowest index among ties). */
  readonly optimalAction: number;
}

/** What {@link BanditEnv.step} returns: Gymnasium's five-tuple as an object. */
export interface StepResult {
  /** The task index of the episode (unchanged by the step). */
  readonly observation: number;
  /** The sampled reward of the action. */
  readonly reward: number;
  /** Always `true`: a bandit episode is one step long. */
  readonly terminated: true;
  /** Always `false`: no time limit cuts a one-step episode. */
  readonly truncated: false;
  /** Diagnostics about the step, never needed to learn. */
  readonly info: StepInfo;
}

/** Diagnostics returned by {@link BanditEnv.step}. */
export interface StepInfo {
  /** The expected reward of the action taken in this episode's task. */
  readonly expectedReward: number;
  /** The expected regret of the action: the best expected reward of the task minus `expectedReward`. */
  readonly regret: number;
}

/**
 * A policy's action probabilities: one row (length `numActions`) for every state, or one row per
 * observation (length `numObservations`) for a tabular policy of a contextual bandit.
 */
export type PolicyProbabilities = ArrayLike<number> | ReadonlyArray<ArrayLike<number>>;

/**
 * The interface every environment of the package implements: a Gymnasium-shaped, one-step episodic
 * bandit with a discrete observation (the task index) and discrete actions, plus the oracle quantities
 * (optimal action, expected reward, regret) that experiments report.
 *
 * An episode is `reset()` then one `step(action)`; a second `step` without `reset` throws a
 * {@link BanditError} with code `RESET_REQUIRED`.
 */
export interface BanditEnv {
  /** Number of arms; actions are the integers 0 … numActions − 1. */
  readonly numActions: number;
  /** Number of observations (tasks); 1 for a non-contextual bandit. */
  readonly numObservations: number;
  /**
   * Starts an episode: re-seeds when asked, then draws the task.
   * @param options - optional `{ seed }`
   * @returns the observation (task index) and diagnostics
   */
  reset(options?: ResetOptions): ResetResult;
  /**
   * Pulls an arm in the current episode, which then terminates.
   * @param action - integer in [0, numActions)
   * @returns the sampled reward with `terminated: true` and `truncated: false`
   */
  step(action: number): StepResult;
  /**
   * @param observation - the task; omitted for a contextual bandit, the task mixture
   * @returns the action of highest expected reward (lowest index among ties)
   */
  optimalAction(observation?: number): number;
  /**
   * @param action - integer in [0, numActions)
   * @param observation - the task; omitted for a contextual bandit, averaged over the task distribution
   * @returns the expected reward of the action
   */
  expectedReward(action: number, observation?: number): number;
  /**
   * Expected regret per step of a stochastic policy.
   * @param probabilities - one row of action probabilities, or one row per observation
   * @param observation - the task a single row applies to; omitted, the row applies to every task
   * @returns the expected shortfall of the policy's reward from the best action's, ≥ 0
   */
  regret(probabilities: PolicyProbabilities, observation?: number): number;
}
