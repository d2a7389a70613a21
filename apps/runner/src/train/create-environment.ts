import { BernoulliBandit, ContextualBandit, GaussianBandit, tieHeavyBinary } from '@ftw/bandit';
import type { EnvironmentConfig } from '../config/train-config.js';
import { SokobanEpisodeEnv } from '../sokoban/sokoban-episode-env.js';
import { BanditEpisodeEnv } from './bandit-episode-env.js';
import type { EpisodeEnv } from './episode-env.js';

/**
 * Builds the environment a configuration names, seeded for one run, as an {@link EpisodeEnv}. A new
 * environment kind adds its case here (and its kind to `EnvironmentConfig`); nothing else in the training
 * loop changes.
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
 * env.numActions; // 2
 * ```
 */
export function createEnvironment(config: EnvironmentConfig, seed: number): EpisodeEnv {
  switch (config.kind) {
    case 'gaussian':
      return new BanditEpisodeEnv(new GaussianBandit({ means: config.means, stds: config.sds, seed }));
    case 'bernoulli':
      return new BanditEpisodeEnv(new BernoulliBandit({ probabilities: config.probs, seed }));
    case 'contextual':
      return new BanditEpisodeEnv(
        new ContextualBandit({
          tasks: config.taskMeans.map((means) => ({ kind: 'gaussian', means, stds: config.sd })),
          seed,
        }),
      );
    case 'tie-heavy':
      return new BanditEpisodeEnv(
        tieHeavyBinary({ arms: config.arms, maxProbability: config.maxProbability, seed }),
      );
    case 'sokoban':
      return new SokobanEpisodeEnv(config, seed);
  }
}
