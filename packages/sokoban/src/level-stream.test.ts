import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { replayPath } from '../test/level-identity.js';
import { exhaustiveSolve } from '../test/model.js';
import { formatLevel } from './format-level.js';
import { LevelStream } from './level-stream.js';
import { parseLevel } from './parse-level.js';
import { SokobanError } from './sokoban-error.js';

const take = (stream: LevelStream, n: number) => Array.from({ length: n }, () => stream.next());

describe('LevelStream', () => {
  it('starts with the level the README shows', () => {
    const stream = new LevelStream({ width: 6, height: 6, boxes: 1 }, 0);
    const first = stream.next();
    expect([first.index, first.moves, first.path, stream.drawn]).toEqual([0, 10, 'rrrDDDDrdL', 1]);
  });

  test.prop(
    [
      fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
      fc.integer({ min: 3, max: 7 }),
      fc.integer({ min: 1, max: 2 }),
    ],
    {
      numRuns: 20,
    },
  )('gives the same sequence for the same seed, and another for the next seed', (seed, size, boxes) => {
    const setting = { width: size, height: size + 1, boxes };
    const a = take(new LevelStream(setting, seed), 8);
    const b = take(new LevelStream(setting, seed), 8);
    expect(b).toEqual(a);
    const c = take(new LevelStream(setting, seed + 1), 8);
    expect(c.map((l) => l.key)).not.toEqual(a.map((l) => l.key));
  });

  test.prop([fc.integer(), fc.integer({ min: 3, max: 6 }), fc.integer({ min: 1, max: 2 })], { numRuns: 15 })(
    'certifies every level: it parses back, its solution replays to solved, no shorter one exists',
    (seed, size, boxes) => {
      for (const l of take(new LevelStream({ width: size, height: size, boxes, maxMoves: 30 }, seed), 4)) {
        const text = formatLevel(l.level);
        expect(parseLevel(text)).toEqual(l.level);
        expect(replayPath(text, l.path)).toEqual({ solved: true, moves: l.moves, pushes: l.pushes });
        expect(l.moves).toBeLessThanOrEqual(30);
        expect(exhaustiveSolve(text)).toEqual({ moves: l.moves, pushes: l.pushes });
      }
    },
  );

  it('names the setting field and the value it refuses', () => {
    expect(() => new LevelStream({ width: 2 }, 0)).toThrow(
      /setting.width must be an integer in \[3, 100\], got 2/,
    );
    expect(() => new LevelStream({ height: 101 }, 0)).toThrow(
      /setting.height must be an integer in \[3, 100\], got 101/,
    );
    expect(() => new LevelStream({ boxes: 11 }, 0)).toThrow(
      /setting.boxes must be an integer in \[1, 10\], got 11/,
    );
    expect(() => new LevelStream({ boxes: 0 }, 0)).toThrow(RangeError);
    expect(() => new LevelStream({ minMoves: 9, maxMoves: 8 }, 0)).toThrow(
      /setting.maxMoves must be an integer/,
    );
    expect(() => new LevelStream({ width: '6' as never }, 0)).toThrow(TypeError);
    expect(() => new LevelStream(null as never, 0)).toThrow(/setting must be an object/);
    expect(() => new LevelStream({}, 0.5)).toThrow(/seed must be a safe integer, got 0.5/);
  });

  it('says so when no level of the setting can be generated, instead of drawing for ever', () => {
    // A 3 × 3 room holds at most 9 floor cells: no room fits 8 boxes, their targets and a player.
    const stream = new LevelStream({ width: 3, height: 3, boxes: 8 }, 0);
    expect(() => stream.next()).toThrow(SokobanError);
    expect(() => stream.next()).toThrow(/GENERATION_FAILED: no 3×3 level with 8 boxes/);
  });
});
