import { gaussianTable } from './arm-table.js';
import { TaskBandit } from './task-bandit.js';
import { checkObject } from './validate.js';

/** Options of {@link GaussianBandit}. */
export interface GaussianBanditOptions {
  /** Mean reward of each arm; at least one arm, every entry finite. */
  readonly means: ArrayLike<number>;
  /** Standard deviation of each arm (finite, ≥ 0; 0 gives a deterministic arm), or one value for all arms. */
  readonly stds: ArrayLike<number> | number;
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
 * A multi-armed bandit with Gaussian rewards: arm a pays μ_a + σ_a·Z with Z ~ N(0, 1) drawn by the
 * Box–Muller {@link NormalSampler}. A one-step episodic environment with a Gymnasium-shaped API
 * ({@link BanditEnv}); the observation is always 0.
 *
 * @example
 * ```ts
 * const env = new GaussianBandit({ means: [1, 0.3], stds: [0.2, 0.2], seed: 42 });
 * env.reset();
 * const { reward, terminated, info } = env.step(0);
 * console.log(terminated, info.expectedReward, Math.abs(reward - 1) < 2);
 * // true 1 true
 * console.log(env.optimalAction(), env.regret([0.5, 0.5]));
 * // 0 0.35
 * ```
 */
export class GaussianBandit extends TaskBandit {
  /**
   * @param options - arm means and standard deviations, and the seed or an injected generator
   * @throws TypeError when `options` is not an object, an entry is not a number, or both `seed` and
   *   `random` are given; RangeError on no arms, a NaN or infinite mean, a negative or non-finite standard
   *   deviation, mismatched lengths, or a seed that is not a safe integer
   */
  constructor(options: GaussianBanditOptions) {
    checkObject(options, 'options');
    super([gaussianTable(options.means, options.stds, '')], Float64Array.of(1), options.seed, options.random);
  }
}
