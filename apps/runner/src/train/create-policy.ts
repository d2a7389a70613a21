import { EncodedSokobanEnv, SOKOBAN_FEATURE_COUNT as FEATURE_COUNT } from '@ftw/sokoban';
import { SokobanEpisodeEnv, SokobanLinearPolicy } from '@ftw/sokoban/trainer';
import type { Policy } from '@ftw/trainer';
import { TabularPolicy } from '@ftw/trainer';
import type { TrainConfig } from '../config/train-config.js';
import type { EpisodeEnv } from './episode-env.js';
import { networks } from './network-module.js';

/**
 * The runner's one choice of policy, for every process that acts or learns (a seed, an actor): a
 * {@link TabularPolicy} with the rows the environment already knows (more are created as observations are
 * met); with `--policy linear` a linear softmax over the Sokoban environment's egocentric features; with
 * `--policy mlp` or `cnn` a network of `@ftw/tfjs` on the encoded Sokoban environment's observations
 * (features, or the grid as channels), its initial weights drawn from `random` (call `loadNetworks()`
 * once before).
 *
 * @param config - the resolved configuration (`policy`, `network`)
 * @param env - the environment (its number of actions and known observations; an `EncodedSokobanEnv`
 *   for a network)
 * @param random - uniform on [0, 1) for a network's initial weights (unused otherwise)
 * @returns a policy (tabular and linear: all logits 0, uniform)
 * @throws Error when the policy does not match the environment (a bug of the caller)
 * @example
 * ```ts
 * createPolicy(REPRODUCE_CONFIG, env).parameters.length; // 2: one row of two arms
 * ```
 */
export function createPolicy(
  config: Partial<TrainConfig>,
  env: EpisodeEnv | EncodedSokobanEnv,
  random: () => number = () => 0.5,
): Policy {
  if (config.policy === 'mlp' || config.policy === 'cnn') {
    const { hidden, filters } = config.network!;
    if (!(env instanceof EncodedSokobanEnv))
      throw new Error('internal: a network needs an EncodedSokobanEnv');
    const { MlpPolicy, ConvPolicy } = networks();
    return config.policy === 'mlp'
      ? new MlpPolicy({ inputSize: env.observationSize, numActions: 4, hiddenSizes: hidden, random })
      : new ConvPolicy({
          height: env.height,
          width: env.width,
          numActions: 4,
          filters,
          hiddenSizes: hidden,
          random,
        });
  }
  if (env instanceof EncodedSokobanEnv) throw new Error('internal: an EncodedSokobanEnv needs a network');
  if (config.policy === 'linear') {
    if (!(env instanceof SokobanEpisodeEnv)) throw new Error('internal: --policy linear needs --env sokoban');
    return new SokobanLinearPolicy(env.numActions, FEATURE_COUNT, env);
  }
  return new TabularPolicy(env.numActions, env.observationCount);
}
