import type { Policy } from '@ftw/trainer';
import { TabularPolicy } from '@ftw/trainer';
import type { TrainConfig } from '../config/train-config.js';
import { SokobanEpisodeEnv } from '../sokoban/sokoban-episode-env.js';
import { FEATURE_COUNT } from '../sokoban/sokoban-features.js';
import { SokobanLinearPolicy } from '../sokoban/sokoban-linear-policy.js';
import type { EpisodeEnv } from './episode-env.js';

/**
 * Builds the policy a run trains: a {@link TabularPolicy} with the rows the environment already knows
 * (more are created as observations are met), or with `--policy linear` a linear softmax over the Sokoban
 * environment's egocentric features.
 *
 * @param config - the resolved configuration: `policy: 'linear'` builds a {@link SokobanLinearPolicy} over
 *   the Sokoban environment's features
 * @param env - the environment (its number of actions and known observations)
 * @returns a policy with all logits 0 (uniform)
 * @example
 * ```ts
 * createPolicy(REPRODUCE_CONFIG, env).parameters.length; // 2: one row of two arms
 * ```
 */
export function createPolicy(config: TrainConfig, env: EpisodeEnv): Policy {
  if (config.policy === 'linear') {
    if (!(env instanceof SokobanEpisodeEnv)) throw new Error('internal: --policy linear needs --env sokoban');
    return new SokobanLinearPolicy(env.numActions, FEATURE_COUNT, env);
  }
  return new TabularPolicy(env.numActions, env.observationCount);
}
