import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { playerNormalizedText } from '../test/level-identity.js';
import { formatLevel } from './format-level.js';
import { generateLevel } from './generate-level.js';
import { levelKey } from './level-key.js';
import { parseLevel } from './parse-level.js';
import { SokobanError } from './sokoban-error.js';

describe('levelKey', () => {
  it('is the same wherever the player starts inside its region', () => {
    const a = parseLevel('######\n#@ $.#\n######');
    const b = parseLevel('######\n# @$.#\n######');
    expect(levelKey(a)).toBe('6x3:#######rr$.#######');
    expect(levelKey(b)).toBe(levelKey(a));
  });

  it('differs when the player is in another region, a box moved or a wall changed', () => {
    const base = '#######\n#@ $ .#\n#######';
    const key = levelKey(parseLevel(base));
    expect(levelKey(parseLevel('#######\n#  $@.#\n#######'))).not.toBe(key);
    expect(levelKey(parseLevel('#######\n#@  $.#\n#######'))).not.toBe(key);
    expect(levelKey(parseLevel('#######\n#@ $ .#\n##  ###\n#######'))).not.toBe(key);
  });

  test.prop([fc.integer(), fc.integer({ min: 3, max: 7 }), fc.integer({ min: 1, max: 3 }), fc.integer()], {
    numRuns: 60,
  })(
    'equals for two levels exactly when their player-normalized texts are equal',
    (seed, size, boxes, other) => {
      const a = generateLevel({ width: size, height: size, boxes }, seed).level;
      const b = generateLevel({ width: size, height: size, boxes }, other).level;
      const normalized = playerNormalizedText(formatLevel(a));
      // The level with its player moved to its region's first cell is the same puzzle.
      expect(levelKey(parseLevel(normalized))).toBe(levelKey(a));
      expect(levelKey(a) === levelKey(b)).toBe(normalized === playerNormalizedText(formatLevel(b)));
    },
  );

  it('rejects what is not a level', () => {
    expect(() => levelKey(null as never)).toThrow(/level must be a level/);
    const grid = parseLevel('#####\n#@$.#\n#####').grid.slice();
    grid[6] = 1;
    expect(() => levelKey({ width: 5, height: 3, grid })).toThrow(SokobanError);
  });
});
