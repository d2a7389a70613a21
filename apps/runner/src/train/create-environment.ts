import { BernoulliBandit, ContextualBandit, GaussianBandit, tieHeavyBinary } from '@ftw/bandit';
import { laneStreams } from '@ftw/internal/seeded-streams';
import { type EncodedSokobanEnv, seededUniform } from '@ftw/sokoban';
import { encodedSokobanEnvs, SokobanEpisodeEnv } from '@ftw/sokoban/trainer';
import type { SokobanEnvironmentConfig } from '../config/sokoban-environment-config.js';
import type { EnvironmentConfig } from '../config/train-config.js';
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

/**
 * The Sokoban environment of a network policy, as `count` instances stepped in lockstep
 * (`encodedSokobanEnvs` of `@ftw/sokoban/trainer`): instance 0 draws its levels from `seed` as
 * `SokobanEpisodeEnv` does; instance j ≥ 1 from `laneStreams(seed).lane(j)`.
 *
 * @param config - the Sokoban configuration
 * @param encoding - what a policy reads
 * @param seed - the run's environment seed
 * @param count - instances (≥ 1)
 * @returns the instances
 * @example
 * ```ts
 * createEncodedEnvironments(config.environment, 'grid', 0, 8)[0].observationSize; // 5 · 8 · 8 for size 6
 * ```
 */
export function createEncodedEnvironments(
  config: SokobanEnvironmentConfig,
  encoding: 'grid' | 'features',
  seed: number,
  count: number,
): EncodedSokobanEnv[] {
  const lanes = laneStreams(seed);
  const randoms = Array.from({ length: count }, (_, j) =>
    j === 0 ? seededUniform(seed) : lanes.lane(j).environment,
  );
  return encodedSokobanEnvs(config, encoding, randoms);
}
