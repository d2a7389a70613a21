import {
  type BanditEnv,
  BernoulliBandit,
  ContextualBandit,
  GaussianBandit,
  tieHeavyBinary,
} from '@ftw/bandit';
import type { EnvironmentConfig } from '../config/train-config.js';

/**
 * Builds the `@ftw/bandit` environment a configuration names, seeded for one run.
 *
 * Contextual tasks are drawn uniformly at reset; each task is Gaussian with the given arm means and one
 * shared standard deviation.
 *
 * @param config - the resolved environment configuration
 * @param seed - the environment's seed (its own generator; see `seededStreams`)
 * @returns the environment, ready for `reset()`
 * @example
 * ```ts
 * const env = createEnvironment({ kind: 'gaussian', means: [1, 0.3], sds: [0.2, 0.2] }, 0);
 * env.optimalAction(); // 0
 * ```
 */
export function createEnvironment(config: EnvironmentConfig, seed: number): BanditEnv {
  switch (config.kind) {
    case 'gaussian':
      return new GaussianBandit({ means: config.means, stds: config.sds, seed });
    case 'bernoulli':
      return new BernoulliBandit({ probabilities: config.probs, seed });
    case 'contextual':
      return new ContextualBandit({
        tasks: config.taskMeans.map((means) => ({ kind: 'gaussian', means, stds: config.sd })),
        seed,
      });
    case 'tie-heavy':
      return tieHeavyBinary({ arms: config.arms, maxProbability: config.maxProbability, seed });
  }
}
