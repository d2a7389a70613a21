import { SokobanError } from '@ftw/sokoban';
import { levelSet } from '@ftw/sokoban/trainer';
import { UsageError } from '../cli/usage-error.js';
import { describeOption, type RawOption } from '../config/option-spec.js';
import type { SokobanEnvironmentConfig } from '../config/sokoban-environment-config.js';
import { TRAIN_OPTIONS } from '../config/train-config.js';

/**
 * Generates the level set of a Sokoban run before the run starts, so that a size, box count and move range
 * that no generated level meets is a usage error (exit 2) naming the flags and their values, not a failure
 * of the run deep in `@ftw/sokoban` naming its internal options. The set is kept for the run's seeds
 * (`levelSet` caches it in this process), so the check costs nothing on a single thread.
 *
 * @param environment - the resolved Sokoban environment
 * @param raw - the raw train options it was resolved from (`collectOptions(TRAIN_OPTIONS, …)`)
 * @returns a warning naming `--max-steps` when it is below the longest optimal solution of the set (those
 *   levels can never be solved in an episode), else null
 * @throws {@link UsageError} when no level can be generated, or a split asks for more distinct levels than
 *   the setting gives
 * @example
 * ```ts
 * checkSokobanLevels(config.environment, raw); // ftw train --env sokoban --size 3 --boxes 4:
 * // UsageError: --size 3, --boxes 4 and --max-moves 8 (default): no 3×3 level with 4 boxes …
 * ```
 */
export function checkSokobanLevels(
  environment: SokobanEnvironmentConfig,
  raw: Readonly<Record<string, RawOption>>,
): string | null {
  const name = (key: string): string =>
    describeOption(raw[key]!, TRAIN_OPTIONS.find((spec) => spec.key === key)!);
  let longest: number;
  try {
    longest = levelSet(environment).longestSolution;
  } catch (error) {
    if (!(error instanceof SokobanError)) throw error;
    const { size, boxes, maxMoves } = environment;
    if (error.code === 'LEVELS_EXHAUSTED') {
      throw new UsageError(
        `${name('levels')} and ${name('heldOut')} with ${name('levelSet')}: ${error.message.replace(/^LEVELS_EXHAUSTED: /, '')}`,
      );
    }
    if (error.code !== 'GENERATION_FAILED') throw error;
    throw new UsageError(
      `${name('size')}, ${name('boxes')} and ${name('maxMoves')}: no ${size}×${size} level with ${boxes} box${boxes === 1 ? '' : 'es'} and an optimal solution of at most ${maxMoves} moves could be generated; give a larger --size, fewer --boxes or a larger --max-moves`,
    );
  }
  if (environment.maxSteps >= longest) return null;
  return `${name('maxSteps')} is below the longest optimal solution of the levels (${longest} moves): a level that needs more steps can never be solved in an episode; give --max-steps ${longest} or more`;
}
