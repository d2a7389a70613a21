import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { playerNormalizedText } from '../test/level-identity.js';
import { formatLevel } from './format-level.js';
import { levelSplit } from './level-split.js';
import { SokobanError } from './sokoban-error.js';

describe('levelSplit', () => {
  it('gives 10^4 training and 500 held-out 6 × 6 levels, none held out ever trained on', () => {
    const split = levelSplit({ width: 6, height: 6, boxes: 1, seed: 0, training: 10_000, heldOut: 500 });
    expect([split.training.length, split.heldOut.length]).toEqual([10_000, 500]);
    // The reference identity: the level's text with its player moved to the first cell of its region
    // (written without levelKey), so a key that kept the player's cell would let repeats through.
    const held = new Set(split.heldOut.map((l) => playerNormalizedText(formatLevel(l.level))));
    const trained = new Set(split.training.map((l) => playerNormalizedText(formatLevel(l.level))));
    expect([held.size, trained.size]).toEqual([500, 10_000]);
    for (const text of trained) expect(held.has(text)).toBe(false);
    // The stream does repeat itself at this size: the split had to skip levels.
    expect(split.drawn).toBeGreaterThan(10_500);
  });

  test.prop(
    [
      fc.integer(),
      fc.integer({ min: 3, max: 5 }),
      fc.integer({ min: 1, max: 2 }),
      fc.integer({ min: 1, max: 60 }),
      fc.integer({ min: 1, max: 30 }),
    ],
    {
      numRuns: 25,
    },
  )(
    'keeps the sets disjoint and the held-out set independent of the training size',
    (seed, size, boxes, training, heldOut) => {
      const options = { width: size, height: size, boxes, seed, heldOut, maxRepeats: 100_000 };
      const split = levelSplit({ ...options, training });
      const keys = [...split.heldOut, ...split.training].map((l) =>
        playerNormalizedText(formatLevel(l.level)),
      );
      expect(new Set(keys).size).toBe(training + heldOut);
      const smaller = levelSplit({ ...options, training: Math.floor(training / 2) });
      expect(smaller.heldOut).toEqual(split.heldOut);
      expect(smaller.training).toEqual(split.training.slice(0, Math.floor(training / 2)));
      expect(levelSplit({ ...options, training })).toEqual(split);
    },
  );

  it('says the setting is exhausted instead of drawing for ever', () => {
    const tiny = () =>
      levelSplit({ width: 3, height: 3, boxes: 1, seed: 0, training: 10_000, heldOut: 10, maxRepeats: 200 });
    expect(tiny).toThrow(SokobanError);
    expect(tiny).toThrow(
      /LEVELS_EXHAUSTED: only \d+ distinct 3×3 levels with 1 box found in \d+ draws \(the last 200 all repeats\)/,
    );
  });

  it('names the option and the value it refuses', () => {
    const base = { seed: 0, training: 10, heldOut: 10 };
    expect(() => levelSplit({ ...base, training: -1 })).toThrow(
      /options.training must be an integer in \[0, 10000000\], got -1/,
    );
    expect(() => levelSplit({ ...base, heldOut: 1.5 })).toThrow(/options.heldOut must be an integer/);
    expect(() => levelSplit({ ...base, maxRepeats: 0 })).toThrow(/options.maxRepeats must be an integer/);
    expect(() => levelSplit({ ...base, width: 101 })).toThrow(
      /setting.width must be an integer in \[3, 100\], got 101/,
    );
    expect(() => levelSplit({ ...base, seed: Number.NaN })).toThrow(/seed must be a safe integer, got NaN/);
    expect(() => levelSplit(undefined as never)).toThrow(/options must be an object/);
  });
});
