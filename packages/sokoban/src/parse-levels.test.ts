import { readFileSync } from 'node:fs';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { smallLevelArb } from '../test/random-levels.js';
import { formatLevel } from './format-level.js';
import { formatLevels } from './format-levels.js';
import { generateLevel } from './generate-level.js';
import { parseLevel } from './parse-level.js';
import { parseLevels } from './parse-levels.js';
import { SokobanError } from './sokoban-error.js';
import { solve } from './solve.js';
import { Tile } from './tile.js';

/** A test file of test/level-files. */
function levelFile(name: string): string {
  return readFileSync(new URL(`../test/level-files/${name}`, import.meta.url), 'utf8');
}

/** The four boards that the level files hold, written plainly. */
const BOARDS = [
  '  ####\n###  #\n#  $ #\n# #. ##\n#  @  #\n#######',
  '######\n#    #\n# #@ #\n# $* #\n# .* #\n#    #\n######',
  '#######\n#.  ..#\n# $$$ #\n#  @  #\n#######',
  '########\n#@     #\n# $  $ #\n#  ##  #\n#.    .#\n########',
].map((text) => parseLevel(text));

/**
 * Run-length encodes XSB rows as sokobano.de's level format describes it, independently of the package:
 * a run of n > 1 equal characters becomes n followed by the character, spaces are written `-`, rows are
 * joined by `|`.
 */
function runLengthEncode(text: string): string {
  return text
    .split('\n')
    .map((row) => row.replaceAll(' ', '-').replace(/(.)\1+/g, (run, ch: string) => `${run.length}${ch}`))
    .join('|');
}

const BOXOBAN = `; 0
##########
##########
##########
####   ###
####.   ##
####$## ##
#### $  ##
####  @ ##
####.   ##
##########

; 1
##########
#    #   #
#    $ . #
#  #### ##
#  #   $ #
#  $   # #
#  #  ## #
# .  @ $.#
#  .##   #
##########
`;

describe('parseLevels', () => {
  it("reads Boxoban's layout: '; N' headers, levels separated by blank lines", () => {
    const levels = parseLevels(BOXOBAN);
    expect(levels.map((l) => [l.title, l.line, l.level.width, l.level.height])).toEqual([
      ['0', 2, 10, 10],
      ['1', 14, 10, 10],
    ]);
    const first = levels[0]!.level;
    expect(first.grid[4 * 10 + 4]).toBe(Tile.Target);
    expect(first.grid[5 * 10 + 4]).toBe(Tile.Box);
    expect(first.grid[7 * 10 + 6]).toBe(Tile.Player);
    expect(formatLevels(levels.map((l) => l.level))).toBe(BOXOBAN);
  });

  test.prop([
    fc.array(smallLevelArb(3), { minLength: 1, maxLength: 4 }),
    fc.constantFrom('xsb' as const, 'ragen' as const),
  ])('round-trips levels through text in both vocabularies', (texts, vocabulary) => {
    const levels = texts.map((t) => parseLevel(t));
    const written = formatLevels(levels, { vocabulary });
    const read = parseLevels(written, { vocabulary });
    expect(read.map((l) => l.level)).toEqual(levels);
    expect(read.map((l) => l.title)).toEqual(levels.map((_, i) => String(i)));
    for (const [i, t] of texts.entries()) {
      expect(formatLevel(levels[i]!)).toBe(t);
      expect(parseLevel(formatLevel(levels[i]!, { vocabulary }), { vocabulary })).toEqual(levels[i]);
    }
  });

  it('writes the LLM vocabulary of RAGEN', () => {
    const level = parseLevel('#######\n#@$.* #\n#+    #\n#######'.replace('#+', '# '));
    expect(formatLevel(level, { vocabulary: 'ragen' })).toBe('#######\n#PXO√_#\n#_____#\n#######');
    const onTarget = parseLevel('#####\n#+$ #\n#####');
    expect(formatLevel(onTarget, { vocabulary: 'ragen' })).toBe('#####\n#SX_#\n#####');
  });

  it('pads short rows with floor and accepts - and _ as floor', () => {
    const level = parseLevel('  #####\n###@$.#\n#-_ ###\n####');
    expect(level.width).toBe(7);
    expect(formatLevel(level)).toBe('  #####\n###@$.#\n#   ###\n####   ');
  });

  it('reads a generated level back', () => {
    const { level } = generateLevel({ width: 8, height: 8, boxes: 3 }, 11);
    expect(parseLevel(formatLevel(level))).toEqual(level);
  });

  it('reads a .txt collection that writes each title under its board, notes above the first', () => {
    const levels = parseLevels(levelFile('titles-below.txt'));
    expect(levels.map((l) => [l.title, l.line, l.author])).toEqual([
      ['Level 1', 3, undefined],
      ['Level 2', 11, 'Someone Else'],
      ['Level 3', 21, undefined],
      ['Level 4', 28, undefined],
    ]);
    expect(levels.map((l) => l.level)).toEqual(BOARDS);
    const packed = parseLevels(levelFile('titles-below-packed.txt'));
    expect(packed.map((l) => [l.title, l.line])).toEqual([
      ['Level 1', 1],
      ['Level 2', 8],
    ]);
    expect(packed.map((l) => l.level)).toEqual(BOARDS.slice(0, 2));
  });

  it('reads titles above their boards with no blank line between levels, and CRLF line ends', () => {
    const levels = parseLevels(levelFile('titles-above-crlf.txt'));
    expect(levels.map((l) => [l.title, l.line])).toEqual([
      ['Level 1', 2],
      ['Level 2', 9],
    ]);
    expect(levels.map((l) => l.level)).toEqual(BOARDS.slice(0, 2));
  });

  it('reads a SOK file: raw notes, file notes, titles, Author, Comment blocks, checked Solutions', () => {
    const levels = parseLevels(levelFile('collection.sok'));
    expect(levels.map((l) => l.level)).toEqual(BOARDS);
    expect(levels.map(({ level: _, ...notes }) => notes)).toEqual([
      {
        title: 'Level 1',
        line: 8,
        author: 'A. Builder',
        comment: 'The smallest of the four.\n  ####  a comment line, not a board row',
        solution: 'uruulD',
      },
      {
        title: 'Two boxes already home',
        line: 23,
        author: undefined,
        comment: undefined,
        solution: 'rddLruulDuullddR',
      },
      {
        title: 'Level 3',
        line: 35,
        author: undefined,
        comment: 'Two solutions; the shorter one is kept.',
        solution: 'ULdlUruRdRdrU',
      },
      { title: 'Level 4', line: 45, author: undefined, comment: undefined, solution: 'rDDurrRurDDldllL' },
    ]);
    // Each kept solution is as long as the optimum here (the solver's), so it solves in that many moves.
    for (const { level, solution } of levels) {
      const optimum = solve(level);
      expect(optimum.status === 'solved' && optimum.moves).toBe(solution!.length);
    }
  });

  it('reads run-length encoded rows, | row separators and - or _ floors', () => {
    const levels = parseLevels(levelFile('run-length.xsb'));
    expect(levels.map((l) => [l.title, l.line])).toEqual([
      ['Level 1, run-length encoded on one line', 2],
      ['Level 2, one row per line with run lengths and _ floors', 5],
    ]);
    expect(levels.map((l) => l.level)).toEqual(BOARDS.slice(0, 2));
    expect(parseLevel('12#|#@$.8-#|12#')).toEqual(parseLevel('############\n#@$.        #\n############'));
  });

  test.prop([fc.array(smallLevelArb(3), { minLength: 1, maxLength: 3 })])(
    'reads every level the same run-length encoded as written plainly',
    (texts) => {
      const plain = parseLevels(texts.join('\n\n'));
      const encoded = parseLevels(texts.map(runLengthEncode).join('\n\n'));
      expect(encoded.map((l) => l.level)).toEqual(plain.map((l) => l.level));
      expect(encoded.map((l) => l.line)).toEqual(texts.map((_, i) => 2 * i + 1));
    },
  );

  it("names the level's title and line when it has no player, two players, or boxes ≠ targets", () => {
    expect(() => parseLevels('Level 7\n#####\n#.$ #\n#####\n')).toThrow(
      /MALFORMED_LEVEL: level "Level 7" at line 2 must hold exactly one player, found 0/,
    );
    expect(() => parseLevels('#####\n#@$.#\n#####\nLevel 8\n\n######\n#@$.@#\n######\nLevel 9\n')).toThrow(
      /level "Level 9" at line 6 must hold exactly one player, found 2/,
    );
    expect(() => parseLevels('Title: Lopsided\n#######\n#@$$..#\n# .   #\n#######')).toThrow(
      /level "Lopsided" at line 2 must hold as many targets as boxes, found 2 boxes and 3 targets/,
    );
    expect(() => parseLevels('; 4\n#####\n#@ .#\n#####')).toThrow(/level "4" at line 2 holds no box/);
  });

  it('refuses a Solution that is none, naming the level, the line and the first bad move', () => {
    const text = (solution: string): string => `Level 1\n${formatLevel(BOARDS[0]!)}\nSolution: ${solution}\n`;
    expect(parseLevels(text('UrUuLd'))[0]!.solution).toBe('uruulD');
    const refused = (solution: string): unknown => {
      try {
        parseLevels(text(solution));
      } catch (error) {
        return error;
      }
      return undefined;
    };
    expect(refused('uruul')).toBeInstanceOf(SokobanError);
    expect(refused('uruul')).toMatchObject({ code: 'INVALID_SOLUTION' });
    expect(String(refused('uruul'))).toMatch(
      /INVALID_SOLUTION: level "Level 1" at line 2: the solution on line 8 is not one: after its 5 moves 1 box stands off target/,
    );
    expect(String(refused('urulll'))).toMatch(/move 6 \(l\) pushes a box into a wall or another box/);
    expect(String(refused('D'))).toMatch(/move 1 \(D\) walks into a wall/);
    expect(() => parseLevels(`${formatLevel(BOARDS[2]!)}\nSolution: rrul`)).toThrow(
      /the level at line 1: the solution on line 6 is not one: move 4 \(l\) pushes a box into a wall or another box/,
    );
    expect(String(refused('ur?'))).toMatch(/"\?" is not a move/);
    expect(String(refused('ur3'))).toMatch(/the run length 3 is not followed by a move/);
    expect(() => parseLevels('Solution: r\n#####\n#@$.#\n#####')).toThrow(
      /line 1: a Solution: line before any level/,
    );
  });

  it('names the line of a bad run length and of an unclosed comment block', () => {
    expect(() => parseLevels('5#|#@$.#|5')).toThrow(/line 1, column 10: the run length 5 must be followed/);
    expect(() => parseLevels('5#|#@$.#|0#')).toThrow(
      /line 1, column 10: a run length must be in \[1, 65535\], got 0/,
    );
    expect(() => parseLevels(`#|${'60000#'.repeat(2)}`)).toThrow(
      /line 1, column 14: the row grows past 65535 cells/,
    );
    expect(() => parseLevels('#####\n#@$.#\n#####\nComment:\nnever closed')).toThrow(
      /line 4: the Comment: block is never closed by a Comment-End: line/,
    );
  });

  it('names the line and column of a bad character, and the line of a bad level', () => {
    expect(() => parseLevels('; 0\n#####\n#@$x#\n#####')).toThrow(
      /MALFORMED_LEVEL: line 3, column 4: "x" is not a xsb level character/,
    );
    expect(() => parseLevels('#####\n#@$.#\n#####', { vocabulary: 'ragen' })).toThrow(
      /line 2, column 2: "@"/,
    );
    expect(() => parseLevels('; a\n#####\n#@$ #\n#####\n\n#####\n#@ .#\n#####')).toThrow(
      /level "a" at line 2 must hold as many targets as boxes, found 1 boxes and 0 targets/,
    );
    expect(() => parseLevels('#####\n#@$.#\n#####\n\n#####\n#@$. \n#####')).toThrow(
      /the level at line 5.*edge of the board at row 2, column 5/,
    );
    expect(() => parseLevel('; nothing here\n')).toThrow(/exactly one level, found 0/);
    expect(() => parseLevel('#####\n#@$.#\n#####\n\n#####\n#@$.#\n#####')).toThrow(
      /found 2 \(use parseLevels/,
    );
    expect(() => parseLevels(42 as never)).toThrow(/text must be a string, got 42/);
    expect(() => parseLevels('', { vocabulary: 'sok' as never })).toThrow(
      /options.vocabulary must be one of 'xsb', 'ragen', got "sok"/,
    );
    expect(() => formatLevel({ width: 3, height: 3, grid: new Uint8Array(9) })).toThrow(/exactly one player/);
    expect(() => formatLevels('x' as never)).toThrow(/levels must be an array/);
  });
});
