import type { Level } from './level.js';
import { type ParseOptions, parseLevels } from './parse-levels.js';
import { SokobanError } from './sokoban-error.js';

/**
 * Reads a text that holds exactly one level (titles and notes allowed), as {@link parseLevels} does.
 *
 * @param text - the text
 * @param options - optional `{ vocabulary }` (`xsb` by default, or `ragen`)
 * @returns the level
 * @throws TypeError when `text` is not a string; SokobanError `MALFORMED_LEVEL` when the text holds no
 *   level, several, or one that breaks a rule; `INVALID_SOLUTION` for a `Solution:` line that is none
 *
 * @example
 * ```ts
 * const level = parseLevel('#####\n#@$.#\n#####');
 * console.log(level.width, level.height, Array.from(level.grid.subarray(5, 10)));
 * // 5 3 [ 0, 5, 4, 2, 0 ]
 * ```
 */
export function parseLevel(text: string, options?: ParseOptions): Level {
  const levels = parseLevels(text, options);
  if (levels.length !== 1) {
    throw new SokobanError(
      'MALFORMED_LEVEL',
      `text must hold exactly one level, found ${levels.length}${levels.length > 1 ? ' (use parseLevels for several)' : ''}`,
    );
  }
  return levels[0]!.level;
}
