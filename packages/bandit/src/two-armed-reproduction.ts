import { GaussianBandit } from './gaussian-bandit.js';

/** Arm means of the small reproduction's bandit: arm 0 is optimal by a gap of 0.7. */
const REPRODUCTION_MEANS: readonly number[] = [1.0, 0.3];
/** Reward noise of both arms in the small reproduction. */
const REPRODUCTION_STD = 0.2;

/**
 * The two-armed Gaussian bandit of the small FTW reproduction (a synthetic continuous-reward bandit on
 * which the optimal arm's probability rose from 0.5 to about 0.968): arm means 1.0 and 0.3, standard
 * deviation 0.2 for both, arm 0 optimal. The gap of 0.7 is 3.5 standard deviations, so returns rarely
 * tie and rank selection separates the arms well.
 *
 * @param seed - seed of the default generator, any safe integer
 * @defaultValue seed 0
 * @returns a fresh {@link GaussianBandit}
 * @throws TypeError/RangeError when `seed` is not a safe integer
 *
 * @example
 * ```ts
 * const env = twoArmedReproduction(1);
 * console.log(env.numActions, env.optimalAction(), env.expectedReward(1), env.regret([0, 1]));
 * // 2 0 0.3 0.7
 * ```
 */
export function twoArmedReproduction(seed = 0): GaussianBandit {
  return new GaussianBandit({ means: REPRODUCTION_MEANS, stds: REPRODUCTION_STD, seed });
}
