import { EncodedSokobanEnv, type SokobanEncoding } from '@ftw/sokoban';
import { levelSet } from './level-set.js';
import type { SokobanEpisodeEnvOptions } from './sokoban-episode-env.js';

/**
 * The level set of `options` for a network policy: one {@link EncodedSokobanEnv} per random stream, all on
 * the training and held-out levels a {@link SokobanEpisodeEnv} of the same options plays ({@link levelSet},
 * generated once per process), with numeric observations (`features` for an MLP, `grid` channels for a
 * CNN), the same episode length and rewards, and `lengthTiebreak` as the step cost. Instances meant to be
 * stepped in lockstep (a batch of episodes) each draw their training levels from their own stream.
 *
 * @param options - the levels and the episodes' length and rewards
 * @param encoding - what a policy reads
 * @param randoms - one uniform stream in [0, 1) per instance (e.g. `seededUniform(seed)`)
 * @returns the instances, one per stream
 * @throws SokobanError `GENERATION_FAILED` when the level set cannot be generated
 * @example
 * ```ts
 * const [env] = encodedSokobanEnvs(options, 'features', [seededUniform(0)]);
 * env.observationSize; // SOKOBAN_FEATURE_COUNT
 * ```
 */
export function encodedSokobanEnvs(
  options: SokobanEpisodeEnvOptions,
  encoding: SokobanEncoding,
  randoms: readonly (() => number)[],
): EncodedSokobanEnv[] {
  const { training, heldOut } = levelSet(options);
  return randoms.map(
    (random) =>
      new EncodedSokobanEnv({
        levels: training,
        heldOut,
        encoding,
        maxSteps: options.maxSteps,
        reward: options.reward,
        stepCost: options.lengthTiebreak,
        random,
      }),
  );
}
