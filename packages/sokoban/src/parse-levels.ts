import { describeValue } from '@ftw/internal';
import { boardFromLevel } from './board.js';
import { checkSolution } from './check-solution.js';
import type { Level } from './level.js';
import { scanLevelText, type TextEntry, type Token } from './scan-level-text.js';
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

/** One level read by {@link parseLevels}, with the notes the file gives it. */
export interface ParsedLevel {
  /** Its title (a `Title:` line, else a title line above or below the board; see parseLevels), if any. */
  readonly title: string | undefined;
  /** The level. */
  readonly level: Level;
  /** The 1-based line number of the level's first row in the text. */
  readonly line: number;
  /** The value of its `Author:` line, if any. */
  readonly author: string | undefined;
  /** Its `Comment:` lines and `Comment:` … `Comment-End:` blocks, joined by new lines, if any. */
  readonly comment: string | undefined;
  /**
   * The fewest-moves one of its `Solution:` lines, replayed and rewritten in LURD notation (lower case
   * moves, upper case pushes), if any. Its length bounds the optimum from above; it need not be optimal.
   */
  readonly solution: string | undefined;
}

interface Draft {
  readonly rows: string[];
  readonly line: number;
  readonly entries: Array<{ entry: TextEntry; rank: number; above: boolean }>;
}

/** Title ranks, best first: a `Title:` key, then a text line right above, right below, farther away. */
const RANK_KEY = 0;
const RANK_ATTACHED_ABOVE = 1;
const RANK_ATTACHED_BELOW = 2;
const RANK_NEAR = 3;
const RANK_FAR = 4;

/**
 * Reads every level of a text as players write level files (the SOK and XSB conventions of
 * sokobano.de, and the `.txt` collections that put a level's title under its board):
 *
 * - a board is a block of consecutive board lines (`#` wall, `@`/`+` player, `$`/`*` box, `.` target,
 *   space, `-` or `_` floor); rows may be run-length encoded (`4#` is `####`) and joined by `|`; short
 *   rows are padded with floor on the right;
 * - `Title:`, `Author:`, `Comment:` (one line, or a block up to `Comment-End:`) and `Solution:` lines
 *   belong to the board above them (the SOK puzzle notes), unless they sit right above a board (no blank
 *   line between) and not right below the previous one; before the first board they are file notes,
 *   ignored unless right above it; `::` lines are ignored;
 * - a title is a `Title:` value, else a text or `;` comment line: the last one of the lines right above
 *   the board (Boxoban's `; 12`, a `Level 12` line), else the first right below it (no blank line between),
 *   else the nearest one separated by blank lines. Where text sits right under one board and right above
 *   the next, the file's layout decides: titles go under their boards when the first board has nothing
 *   right above it and text follows the last board;
 * - a `Solution:` (moves in LURD notation, run lengths allowed, continued on the lines of moves that
 *   follow) is replayed: every move must be possible and every box end on a target.
 *
 * Every level is validated (see {@link Level}); errors name the level's title and line.
 *
 * @param text - the text
 * @param options - optional `{ vocabulary }`
 * @returns the levels in order, each with its title, first line number, author, comment and solution;
 *   empty for a text without boards
 * @throws TypeError when `text` is not a string or the vocabulary is unknown; SokobanError
 *   `MALFORMED_LEVEL` naming the line and column of a bad character or run length, or the title and line
 *   of a level that breaks a rule (no player, two players, boxes ≠ targets, open to the edge);
 *   `INVALID_SOLUTION` naming the level, the line of the solution and its first impossible move
 *
 * @example
 * ```ts
 * const levels = parseLevels('#####\n#@$.#\n#####\nLevel 1\nSolution: rR\n\n5#|#.$@#|5#\nLevel 2\n');
 * console.log(levels.map((l) => [l.title, l.line, l.solution]));
 * // [ [ 'Level 1', 1, 'rR' ], [ 'Level 2', 7, undefined ] ]
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
  const tokens = scanLevelText(text, tiles, vocabulary);
  const drafts: Draft[] = [];
  // The text between boards: regions[i] lies above drafts[i] (the last one below the last board).
  const regions: Token[][] = [[]];
  for (const token of tokens) {
    if (token.kind !== 'rows') {
      regions[regions.length - 1]!.push(token);
      continue;
    }
    const region = regions[regions.length - 1]!;
    if (region.length === 0 && drafts.length > 0) {
      drafts[drafts.length - 1]!.rows.push(...token.rows);
    } else {
      drafts.push({ rows: [...token.rows], line: token.line, entries: [] });
      regions.push([]);
    }
  }
  if (drafts.length === 0) return [];
  const first = paragraphsOf(regions[0]!);
  const last = paragraphsOf(regions[regions.length - 1]!);
  const titlesBelow = !(first.length > 0 && first[first.length - 1]!.end) && last.length > 0;
  regions.forEach((region, i) => {
    assign(region, i > 0 ? drafts[i - 1] : undefined, drafts[i], titlesBelow);
  });
  return drafts.map((draft) => finish(draft, tiles));
}

interface Paragraph {
  readonly entries: TextEntry[];
  /** Starts on the line after the board above. */
  readonly start: boolean;
  /** Ends on the line before the board below. */
  readonly end: boolean;
}

function paragraphsOf(region: readonly Token[]): Paragraph[] {
  const out: Paragraph[] = [];
  let entries: TextEntry[] = [];
  let start = 0;
  const close = (end: number): void => {
    if (entries.length > 0) out.push({ entries, start: start === 0, end: end === region.length });
    entries = [];
  };
  region.forEach((token, i) => {
    if (token.kind === 'entry') {
      if (entries.length === 0) start = i;
      entries.push(token.entry);
    } else {
      close(i);
    }
  });
  close(region.length);
  return out;
}

function assign(
  region: readonly Token[],
  above: Draft | undefined,
  below: Draft | undefined,
  titlesBelow: boolean,
): void {
  for (const paragraph of paragraphsOf(region)) {
    const toAbove = above !== undefined && paragraph.start;
    const toBelow = below !== undefined && paragraph.end;
    for (const entry of paragraph.entries) {
      if (entry.kind === 'solution') {
        if (above === undefined) {
          throw new SokobanError('MALFORMED_LEVEL', `line ${entry.line}: a Solution: line before any level`);
        }
        above.entries.push({ entry, rank: RANK_KEY, above: false });
        continue;
      }
      const key = entry.kind !== 'text';
      let owner: Draft | undefined;
      let rank: number;
      if (toAbove !== toBelow) {
        owner = toAbove ? above : below;
        rank = toAbove ? RANK_ATTACHED_BELOW : RANK_ATTACHED_ABOVE;
      } else if (toAbove) {
        owner = titlesBelow ? above : below;
        rank = titlesBelow ? RANK_ATTACHED_BELOW : RANK_ATTACHED_ABOVE;
      } else {
        // Keys apart from a board are its SOK notes (below it); before the first board, file notes.
        owner = key ? above : titlesBelow ? (above ?? below) : (below ?? above);
        rank = owner === (titlesBelow ? above : below) ? RANK_NEAR : RANK_FAR;
      }
      if (owner === undefined) continue;
      owner.entries.push({ entry, rank: entry.kind === 'title' ? RANK_KEY : rank, above: owner === below });
    }
  }
}

function finish(draft: Draft, tiles: ReadonlyMap<string, number>): ParsedLevel {
  let title: string | undefined;
  let best = Number.POSITIVE_INFINITY;
  let author: string | undefined;
  const comments: string[] = [];
  for (const { entry, rank, above } of draft.entries) {
    if (entry.kind === 'author' && entry.value !== '') author = entry.value;
    if (entry.kind === 'comment' && entry.value !== '') comments.push(entry.value);
    if ((entry.kind !== 'title' && entry.kind !== 'text') || entry.value === '') continue;
    // Above a board the nearest candidate is the last one, below it the first.
    if (rank < best || (rank === best && above)) {
      best = rank;
      title = entry.value;
    }
  }
  const name =
    title === undefined
      ? `the level at line ${draft.line}`
      : `level ${JSON.stringify(title)} at line ${draft.line}`;
  const level = levelOfRows(draft.rows, tiles, name);
  let solution: string | undefined;
  for (const { entry } of draft.entries) {
    if (entry.kind !== 'solution') continue;
    const check = checkSolution(level, entry.value);
    if (!check.valid) {
      throw new SokobanError(
        'INVALID_SOLUTION',
        `${name}: the solution on line ${entry.line} is not one: ${check.reason}`,
      );
    }
    if (solution === undefined || check.moves < solution.length) solution = check.path;
  }
  return {
    title,
    level,
    line: draft.line,
    author,
    comment: comments.length > 0 ? comments.join('\n') : undefined,
    solution,
  };
}

function levelOfRows(rows: readonly string[], tiles: ReadonlyMap<string, number>, name: string): Level {
  const width = Math.max(...rows.map((r) => r.length));
  const height = rows.length;
  const grid = new Uint8Array(width * height).fill(Tile.Floor);
  rows.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) grid[y * width + x] = tiles.get(row[x]!)!;
  });
  const level: Level = { width, height, grid };
  try {
    boardFromLevel(level, name);
  } catch (error) {
    if (error instanceof SokobanError) throw error;
    throw new SokobanError('MALFORMED_LEVEL', `${name}: ${(error as Error).message}`);
  }
  return level;
}
