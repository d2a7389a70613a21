import { describeValue } from '@ftw/internal';
import { boardFromLevel } from './board.js';
import type { Level } from './level.js';
import { SokobanError } from './sokoban-error.js';
import { Tile } from './tile.js';
import { checkChoice, checkObject } from './validate.js';
import { TILE_OF_CHARACTER, type Vocabulary } from './vocabulary.js';

/** Options of {@link parseLevels} and {@link parseLevel}. */
export interface ParseOptions {
  /**
   * The characters of the text: `xsb` (standard) or `ragen` (RAGEN's LLM vocabulary).
   * @defaultValue 'xsb'
   */
  readonly vocabulary?: Vocabulary | undefined;
}

/** One level read by {@link parseLevels}. */
export interface ParsedLevel {
  /** The text of the last `;` comment line before the level (Boxoban's `; 12` gives `'12'`), if any. */
  readonly title: string | undefined;
  /** The level. */
  readonly level: Level;
  /** The 1-based line number of the level's first row in the text. */
  readonly line: number;
}

/**
 * Reads every level of a text: a level is a block of consecutive board lines; blank lines separate
 * levels, and lines starting with `;` are comments whose last one before a level is its title (the
 * layout of Boxoban's files). Rows shorter than the longest are padded with floor on the right. Every
 * level is validated (see {@link Level}).
 *
 * @param text - the text
 * @param options - optional `{ vocabulary }`
 * @returns the levels in order, each with its title and first line number; empty for a text of blank
 *   and comment lines only
 * @throws TypeError when `text` is not a string or the vocabulary is unknown; SokobanError
 *   `MALFORMED_LEVEL` naming the line of an unknown character or of a level that breaks a rule
 *
 * @example
 * ```ts
 * const levels = parseLevels('; 0\n#####\n#@$.#\n#####\n\n; 1\n#####\n#.$@#\n#####\n');
 * console.log(levels.map((l) => [l.title, l.line, l.level.width]));
 * // [ [ '0', 2, 5 ], [ '1', 7, 5 ] ]
 * ```
 */
export function parseLevels(text: string, options?: ParseOptions): ParsedLevel[] {
  if (typeof text !== 'string') throw new TypeError(`text must be a string, got ${describeValue(text)}`);
  let vocabulary: Vocabulary = 'xsb';
  if (options !== undefined) {
    checkObject(options, 'options');
    if (options.vocabulary !== undefined) {
      vocabulary = checkChoice(options.vocabulary, 'options.vocabulary', ['xsb', 'ragen']);
    }
  }
  const tiles = TILE_OF_CHARACTER[vocabulary];
  const lines = text.split(/\r?\n/);
  const out: ParsedLevel[] = [];
  let title: string | undefined;
  let block: string[] = [];
  let blockLine = 0;
  const flush = (): void => {
    if (block.length === 0) return;
    out.push({ title, level: levelOfRows(block, tiles, blockLine), line: blockLine });
    block = [];
    title = undefined;
  };
  lines.forEach((line, i) => {
    if (line.trim() === '') {
      flush();
    } else if (line.trimStart().startsWith(';')) {
      flush();
      title = line.trimStart().slice(1).trim();
    } else {
      const row = line.replace(/\s+$/, '');
      for (let x = 0; x < row.length; x++) {
        if (!tiles.has(row[x]!)) {
          throw new SokobanError(
            'MALFORMED_LEVEL',
            `line ${i + 1}, column ${x + 1}: ${describeValue(row[x])} is not a ${vocabulary} level character`,
          );
        }
      }
      if (block.length === 0) blockLine = i + 1;
      block.push(row);
    }
  });
  flush();
  return out;
}

function levelOfRows(rows: readonly string[], tiles: ReadonlyMap<string, number>, line: number): Level {
  const width = Math.max(...rows.map((r) => r.length));
  const height = rows.length;
  const grid = new Uint8Array(width * height).fill(Tile.Floor);
  rows.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) grid[y * width + x] = tiles.get(row[x]!)!;
  });
  const level: Level = { width, height, grid };
  try {
    boardFromLevel(level, `the level at line ${line}`);
  } catch (error) {
    if (error instanceof SokobanError) throw error;
    throw new SokobanError('MALFORMED_LEVEL', `the level at line ${line}: ${(error as Error).message}`);
  }
  return level;
}
