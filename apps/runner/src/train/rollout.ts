/** One collected one-step trajectory (a bandit episode), as the updaters see it. */
export interface Rollout {
  /** The observation (task index). */
  observation: number;
  /** The action taken. */
  action: number;
  /** The behaviour policy's log-probability of the action. */
  logProb: number;
  /** The reward, which is the trajectory's return. */
  reward: number;
  /** The policy version that acted. */
  version: number;
}

/** What one update reports for the metrics (null fields do not apply to the method). */
export interface UpdateStats {
  /** Mean return of the selected trajectories, weighted by selection count. */
  readonly eliteMean: number | null;
  /** Standard deviation of the selected returns (weighted, population form). */
  readonly eliteSpread: number | null;
  /** Total selection count (Σ counts; J·K without a threshold). */
  readonly selected: number | null;
  /** Pool size when the update ran. */
  readonly poolSize: number | null;
  /** Mean age in policy versions of the trajectories held. */
  readonly poolStaleness: number | null;
  /** Mean age of the selected trajectories, repeats included (what FTW imitates). */
  readonly selectionStaleness: number | null;
  /** Loss value at the last gradient step. */
  readonly loss: number;
}

/** A training method's update rule. */
export interface Updater {
  /**
   * Takes one iteration's rollouts and updates the policy (or not, e.g. during FTW's warm-up).
   * @param rollouts - this iteration's rollouts
   * @param version - the current policy version (that of the rollouts)
   * @returns statistics of the update, or null when the policy was not updated
   */
  update(rollouts: readonly Rollout[], version: number): UpdateStats | null;
}
