import { boardFromLevel } from './board.js';
import type { Level } from './level.js';
import { checkChoice, checkObject } from './validate.js';
import { TILE_CHARACTERS, type Vocabulary } from './vocabulary.js';

/** Options of {@link formatLevel} and {@link formatLevels}. */
export interface FormatOptions {
  /**
   * The characters to write: `xsb` (standard) or `ragen` (RAGEN's LLM vocabulary).
   * @defaultValue 'xsb'
   */
  readonly vocabulary?: Vocabulary | undefined;
}

/**
 * @param options - the received options
 * @returns the vocabulary they ask for
 * @throws TypeError on bad options. Internal.
 */
export function vocabularyOf(options: FormatOptions | undefined): Vocabulary {
  if (options === undefined) return 'xsb';
  checkObject(options, 'options');
  if (options.vocabulary === undefined) return 'xsb';
  return checkChoice(options.vocabulary, 'options.vocabulary', ['xsb', 'ragen']);
}

/**
 * Writes a level as text, one line per row of exactly `width` characters, rows joined by `\n` with no
 * final newline. {@link parseLevel} reads it back to an equal level.
 *
 * @param level - a valid level
 * @param options - optional `{ vocabulary }` (`xsb` by default, or `ragen`)
 * @returns the text
 * @throws TypeError/RangeError/SokobanError `MALFORMED_LEVEL` when `level` is not a valid level
 *
 * @example
 * ```ts
 * const level = parseLevel('#####\n#@$.#\n#####');
 * console.log(formatLevel(level, { vocabulary: 'ragen' }));
 * // #####
 * // #PXO#
 * // #####
 * ```
 */
export function formatLevel(level: Level, options?: FormatOptions): string {
  const characters = TILE_CHARACTERS[vocabularyOf(options)];
  boardFromLevel(level, 'level');
  return formatGrid(level.grid, level.width, level.height, characters);
}

/**
 * @param grid - tile codes
 * @param width - columns
 * @param height - rows
 * @param characters - the character of each tile code
 * @returns the rows joined by `\n`. Internal.
 */
export function formatGrid(
  grid: Uint8Array,
  width: number,
  height: number,
  characters: readonly string[],
): string {
  const rows: string[] = [];
  for (let y = 0; y < height; y++) {
    let row = '';
    for (let x = 0; x < width; x++) row += characters[grid[y * width + x]!]!;
    rows.push(row);
  }
  return rows.join('\n');
}
