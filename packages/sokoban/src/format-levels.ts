import { describeValue } from '@ftw/internal';
import { type FormatOptions, formatLevel } from './format-level.js';
import type { Level } from './level.js';

/**
 * Writes several levels as one text in the layout of Boxoban's files: each level under a `; N` header
 * (N its index from 0), levels separated by a blank line, a final newline. {@link parseLevels} reads it
 * back, the header text becoming each level's title.
 *
 * @param levels - valid levels
 * @param options - optional `{ vocabulary }` (`xsb` by default, or `ragen`)
 * @returns the text
 * @throws TypeError when `levels` is not an array; whatever {@link formatLevel} throws for a bad level
 *
 * @example
 * ```ts
 * const level = parseLevel('#####\n#@$.#\n#####');
 * console.log(formatLevels([level, level]));
 * // ; 0
 * // #####
 * // #@$.#
 * // #####
 * //
 * // ; 1
 * // #####
 * // #@$.#
 * // #####
 * ```
 */
export function formatLevels(levels: readonly Level[], options?: FormatOptions): string {
  if (!Array.isArray(levels)) throw new TypeError(`levels must be an array, got ${describeValue(levels)}`);
  return levels.map((level, i) => `; ${i}\n${formatLevel(level, options)}\n`).join('\n');
}
