import type { TrainConfig } from '../config/train-config.js';
import type { EpisodeEnv } from './episode-env.js';
import type { Policy } from './policy.js';
import { TabularPolicy } from './tabular-policy.js';

/**
 * Builds the policy a run trains: a {@link TabularPolicy} with the rows the environment already knows
 * (more are created as observations are met). A new policy kind (a linear softmax over the
 * environment's features) adds its case here.
 *
 * @param _config - the resolved configuration (no policy option yet)
 * @param env - the environment (its number of actions and known observations)
 * @returns a policy with all logits 0 (uniform)
 * @example
 * ```ts
 * createPolicy(REPRODUCE_CONFIG, env).parameters.length; // 2: one row of two arms
 * ```
 */
export function createPolicy(_config: TrainConfig, env: EpisodeEnv): Policy {
  return new TabularPolicy(env.numActions, env.observationCount);
}
