import { readFileSync } from 'node:fs';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { GOLDEN_CASES, goldenTitle } from '../test/golden-cases.js';
import { exhaustiveSolve, ModelBoard } from '../test/model.js';
import { formatLevel } from './format-level.js';
import { generateLevel } from './generate-level.js';
import { parseLevels } from './parse-levels.js';
import { seededUniform } from './seeded-uniform.js';
import { SokobanError } from './sokoban-error.js';

const LETTERS = 'udlr';

/** Plays a LURD path in the independent model. */
function replay(text: string, path: string): { solved: boolean; moves: number; pushes: number } {
  const model = new ModelBoard(text);
  let moves = 0;
  let pushes = 0;
  for (const letter of path) {
    const { moved, pushed } = model.step(LETTERS.indexOf(letter.toLowerCase()));
    if (moved) moves++;
    if (pushed !== (letter !== letter.toLowerCase())) throw new Error(`push mismatch at ${moves}`);
    if (pushed) pushes++;
  }
  return { solved: model.solved(), moves, pushes };
}

function goldenText(): string {
  return GOLDEN_CASES.map(({ options, seed }) => {
    const { level, moves, pushes, path } = generateLevel(options, seed);
    return `; ${goldenTitle(options, seed, moves, pushes, path)}\n${formatLevel(level)}\n`;
  }).join('\n');
}

describe('generateLevel', () => {
  it('gives the committed golden levels for their seeds', () => {
    const committed = readFileSync(new URL('../test/golden-levels.xsb', import.meta.url), 'utf8');
    expect(goldenText()).toBe(committed);
    expect(parseLevels(committed)).toHaveLength(GOLDEN_CASES.length);
  });

  test.prop(
    [
      fc.integer(),
      fc.integer({ min: 3, max: 6 }),
      fc.integer({ min: 3, max: 6 }),
      fc.integer({ min: 1, max: 2 }),
    ],
    {
      numRuns: 40,
    },
  )(
    'certifies every level: the solution replays, and exhaustive search finds no shorter one',
    (seed, width, height, boxes) => {
      const generated = generateLevel({ width, height, boxes }, seed);
      const text = formatLevel(generated.level);
      expect(generated.level.width).toBe(width + 2);
      expect(generated.level.height).toBe(height + 2);
      expect((text.match(/\$/g) ?? []).length).toBe(boxes);
      expect(replay(text, generated.path)).toEqual({
        solved: true,
        moves: generated.moves,
        pushes: generated.pushes,
      });
      expect(exhaustiveSolve(text)).toEqual({ moves: generated.moves, pushes: generated.pushes });
    },
  );

  test.prop([fc.integer()], { numRuns: 4 })('certifies 10 × 10 levels with four boxes (replayed)', (seed) => {
    const generated = generateLevel({ width: 10, height: 10, boxes: 4 }, seed);
    const text = formatLevel(generated.level);
    expect((text.match(/\$/g) ?? []).length).toBe(4);
    expect(replay(text, generated.path)).toEqual({
      solved: true,
      moves: generated.moves,
      pushes: generated.pushes,
    });
  });

  test.prop([fc.integer(), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 10 })], {
    numRuns: 40,
  })('keeps the optimal length inside the difficulty range', (seed, minMoves, extra) => {
    const generated = generateLevel({ width: 6, height: 6, minMoves, maxMoves: minMoves + extra }, seed);
    expect(generated.moves).toBeGreaterThanOrEqual(minMoves);
    expect(generated.moves).toBeLessThanOrEqual(minMoves + extra);
  });

  test.prop([fc.integer()], { numRuns: 10 })(
    'gives the same level for the same seed or the same stream',
    (seed) => {
      const a = generateLevel({ width: 7, height: 5, boxes: 2 }, seed);
      const b = generateLevel({ width: 7, height: 5, boxes: 2 }, seededUniform(seed));
      expect(b).toEqual(a);
    },
  );

  it('says clearly when no level meets the range', () => {
    const impossible = () => generateLevel({ width: 3, height: 3, minMoves: 500, maxAttempts: 5 }, 1);
    expect(impossible).toThrow(SokobanError);
    expect(impossible).toThrow(
      /GENERATION_FAILED: no 3×3 level with 1 box and an optimal solution of 500 to Infinity moves in 5 rooms/,
    );
  });

  it('rejects bad options and a bad random source', () => {
    expect(() => generateLevel({ width: 2 }, 1)).toThrow(
      /options.width must be an integer in \[3, 100\], got 2/,
    );
    expect(() => generateLevel({ boxes: 0 }, 1)).toThrow(RangeError);
    expect(() => generateLevel({ minMoves: 5, maxMoves: 4 }, 1)).toThrow(
      /options.maxMoves must be an integer >= 5, got 4/,
    );
    expect(() => generateLevel({ turnProbability: 1.5 }, 1)).toThrow(
      /turnProbability must be in \[0, 1\], got 1.5/,
    );
    expect(() => generateLevel({ width: '6' as never }, 1)).toThrow(TypeError);
    expect(() => generateLevel(null as never, 1)).toThrow(/options must be an object/);
    expect(() => generateLevel({}, 1.5)).toThrow(/seed must be a safe integer, got 1.5/);
    expect(() => generateLevel({}, () => 1)).toThrow(/random\(\) must return a number in \[0, 1\), got 1/);
    expect(() => generateLevel({}, 'x' as never)).toThrow(/random must be a function/);
  });
});
