import { bernoulliTable } from './arm-table.js';
import { TaskBandit } from './task-bandit.js';
import { checkObject } from './validate.js';

/** Options of {@link BernoulliBandit}. */
export interface BernoulliBanditOptions {
  /** Success probability of each arm; at least one arm, every entry in [0, 1]. */
  readonly probabilities: ArrayLike<number>;
  /**
   * Seed of the default generator ({@link seededUniform}); any safe integer. Not allowed with `random`.
   * @defaultValue 0
   */
  readonly seed?: number | undefined;
  /**
   * An injected uniform generator on [0, 1) used instead of the default one; each draw is checked.
   * Such an environment cannot be re-seeded by `reset({ seed })`.
   * @defaultValue undefined (the seeded default generator)
   */
  readonly random?: (() => number) | undefined;
}

/**
 * A multi-armed bandit with binary rewards: arm a pays 1 with probability p_a and 0 otherwise, decided
 * by one uniform U as `U < p_a` (so p = 0 never pays and p = 1 always does). A one-step episodic
 * environment with a Gymnasium-shaped API ({@link BanditEnv}); the observation is always 0.
 *
 * @example
 * ```ts
 * const env = new BernoulliBandit({ probabilities: [0.1, 0.9], seed: 3 });
 * const { observation } = env.reset();
 * const { reward } = env.step(1);
 * console.log(observation, reward === 0 || reward === 1, env.optimalAction(), env.expectedReward(0));
 * // 0 true 1 0.1
 * ```
 */
export class BernoulliBandit extends TaskBandit {
  /**
   * @param options - arm success probabilities, and the seed or an injected generator
   * @throws TypeError when `options` is not an object, an entry is not a number, or both `seed` and
   *   `random` are given; RangeError on no arms, a probability outside [0, 1] (NaN included), or a seed
   *   that is not a safe integer
   */
  constructor(options: BernoulliBanditOptions) {
    checkObject(options, 'options');
    super([bernoulliTable(options.probabilities, '')], Float64Array.of(1), options.seed, options.random);
  }
}
