import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { smallLevelArb } from '../test/random-levels.js';
import { formatLevel } from './format-level.js';
import { formatLevels } from './format-levels.js';
import { generateLevel } from './generate-level.js';
import { parseLevel } from './parse-level.js';
import { parseLevels } from './parse-levels.js';
import { Tile } from './tile.js';

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

  it('names the line and column of a bad character, and the line of a bad level', () => {
    expect(() => parseLevels('; 0\n#####\n#@$x#\n#####')).toThrow(
      /MALFORMED_LEVEL: line 3, column 4: "x" is not a xsb level character/,
    );
    expect(() => parseLevels('#####\n#@$.#\n#####', { vocabulary: 'ragen' })).toThrow(
      /line 2, column 2: "@"/,
    );
    expect(() => parseLevels('; a\n#####\n#@$ #\n#####\n\n#####\n#@ .#\n#####')).toThrow(
      /the level at line 2 must hold as many targets as boxes, found 1 boxes and 0 targets/,
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
