import type { Policy } from './policy.js';

/** What {@link EpisodeEnv.step} returns. */
export interface EnvironmentStep {
  /** The observation id after the step (ignored by the runner once the episode has ended). */
  readonly observation: number;
  /** The reward of the step; an episode's return is the sum of its rewards (undiscounted). */
  readonly reward: number;
  /** The episode reached a terminal state (a bandit pull; a solved or dead Sokoban level). */
  readonly terminated: boolean;
  /** The episode was cut by a limit (a step budget per episode), not by a terminal state. */
  readonly truncated: boolean;
}

/** What {@link EpisodeEnv.evaluate} returns: the headline metric and optional further figures. */
export interface Evaluation {
  /**
   * The headline score in [0, 1], recorded after every iteration as `optimalProbability` in
   * `metrics.ndjson` and drawn in the learning curves: for bandits the probability of the optimal action
   * (mean over observations); for Sokoban, the success rate on the training levels.
   */
  readonly score: number;
  /**
   * Further named figures recorded beside it under `evaluation` in `metrics.ndjson` (e.g. Sokoban's
   * `heldOutSuccess`); omit when there are none.
   */
  readonly details?: Readonly<Record<string, number>>;
}

/**
 * The environment side of the runner's training loop: what an adapter implements so that every method
 * (FTW and the baselines) can train on it, unchanged. One instance belongs to one seed's run and is
 * driven by one thread: `reset`, then `step` until `terminated` or `truncated`, then `reset` again.
 *
 * Observations are integer ids, not feature vectors: the policy maps an id to logits (a tabular policy
 * keeps a row per id; a linear policy asks the adapter for the id's features). Ids must be dense: the
 * first observation ever returned is 0 and every new one is `observationCount` at the moment it is first
 * returned (bandits: the task index, all known in advance; Sokoban: states numbered as they are
 * discovered, so `observationCount` grows during a run). The observation returned with a step that ends
 * the episode is never acted in, so it need not be a valid id.
 *
 * Randomness: the adapter is built from a seed (see `createEnvironment`) and draws everything it needs
 * (rewards, task or level choice) from its own generator, so the same seed gives the same episodes for
 * the same actions, bit for bit.
 *
 * Adding an environment: implement this interface in `src/train/` (or the environment's own folder),
 * add its kind to `EnvironmentConfig` and a case to `createEnvironment`. The updaters, the policy and
 * the reports need no change.
 *
 * @example
 * ```ts
 * const env = createEnvironment({ kind: 'gaussian', means: [1, 0.3], sds: [0.2, 0.2] }, 0);
 * let observation = env.reset(); // 0
 * const { reward, terminated } = env.step(0); // reward ≈ 1 (one draw of N(1, 0.2²)), terminated: true
 * env.evaluate(new TabularPolicy(2)).score; // 0.5: the uniform policy picks the optimal arm half the time
 * ```
 */
export interface EpisodeEnv {
  /** Number of actions; actions are the integers 0 … numActions − 1 in every state. */
  readonly numActions: number;
  /**
   * Observation ids handed out so far (ids are 0 … observationCount − 1). May grow after `reset` and
   * `step`; never shrinks.
   */
  readonly observationCount: number;
  /** What `Evaluation.score` measures, for chart titles and reports (e.g. `P(optimal action)`). */
  readonly scoreLabel: string;
  /**
   * Starts an episode.
   * @returns the first observation id
   */
  reset(): number;
  /**
   * Takes an action in the current episode.
   * @param action - integer in [0, numActions)
   * @returns the next observation, the reward and whether the episode ended
   */
  step(action: number): EnvironmentStep;
  /**
   * The headline metric of a policy, called after every iteration: keep it cheap or cache it (it may
   * run its own evaluation episodes, from a generator separate from training's).
   * @param policy - the current policy
   * @param moved - optional: the observations whose logits may have changed since this environment last
   *   evaluated this same policy object (an update that lists them, `UpdateStats.moved`; empty when no
   *   update ran), so that an environment may keep what depends on the others only; absent or null when
   *   any may have. A promise of the caller: every other row's logits are as they were
   * @returns the score and optional details (an environment may reuse the object: read it before the
   *   next call)
   */
  evaluate(policy: Policy, moved?: Int32Array | null): Evaluation;
  /**
   * Optional: the expected regret of acting with the given action probabilities in the given state (the
   * shortfall of the expected reward from the best action's). When present, the runner adds it up over
   * every step of training into the cumulative regret it reports; when absent, regret is not reported.
   * @param observation - the state acted in
   * @param probabilities - the acting policy's probabilities there
   * @returns the expected regret, ≥ 0
   */
  stepRegret?(observation: number, probabilities: Float64Array): number;
}
