import type { Environment, Evaluation, Policy, EnvironmentStep as TrainerStep } from '@ftw/trainer';

/** What {@link EpisodeEnv.step} returns: the next observation id, the reward and whether the episode ended. */
export type EnvironmentStep = TrainerStep<number>;

/**
 * The runner's environments (bandits, Sokoban): `@ftw/trainer`'s {@link Environment} whose observations
 * are dense integer ids, with the evaluation every run reports and a label for it.
 *
 * Ids are dense: the first observation ever returned is 0 and every new one is `observationCount` at
 * the moment it is first returned (bandits: the task index, all known in advance; Sokoban: states
 * numbered as they are discovered, so `observationCount` grows during a run). A tabular policy keeps a
 * row per id; the linear Sokoban policy asks the environment for the id's features.
 *
 * Adding an environment: implement this interface in the environment's folder, add its kind to
 * `EnvironmentConfig` and a case to `createEnvironment`. The trainer and the reports need no change.
 *
 * @example
 * ```ts
 * const env = createEnvironment({ kind: 'gaussian', means: [1, 0.3], sds: [0.2, 0.2] }, 0);
 * let observation = env.reset(); // 0
 * const { reward, terminated } = env.step(0); // reward ≈ 1 (one draw of N(1, 0.2²)), terminated: true
 * env.evaluate(new TabularPolicy(2)).score; // 0.5: the uniform policy picks the optimal arm half the time
 * ```
 */
export interface EpisodeEnv extends Environment<number> {
  /** Observation ids handed out so far (0 … observationCount − 1); may grow, never shrinks. */
  readonly observationCount: number;
  /** What `Evaluation.score` measures, for chart titles and reports (e.g. `P(optimal action)`). */
  readonly scoreLabel: string;
  /**
   * The headline metric of a policy, recorded after every iteration as `optimalProbability` in
   * `metrics.ndjson`: for bandits the probability of the optimal action (mean over observations); for
   * Sokoban the success rate on the training levels (see `Environment.evaluate`).
   */
  evaluate(policy: Policy, moved?: Int32Array | null): Evaluation;
}

export type { Evaluation };
