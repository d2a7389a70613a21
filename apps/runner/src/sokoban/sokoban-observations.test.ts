import { parseLevel } from '@ftw/sokoban';
import { describe, expect, it } from 'vitest';
import { FEATURE_COUNT, sokobanFeatures } from './sokoban-features.js';
import { SokobanObservations } from './sokoban-observations.js';

describe('SokobanObservations', () => {
  it('numbers (level, key) pairs in order of discovery, one id per pair, and finds them without creating any', () => {
    const a = parseLevel('######\n#@ $.#\n######');
    const b = parseLevel('######\n# @$.#\n######');
    const ids = new SokobanObservations();
    expect(ids.find(0, 'k')).toBeUndefined();
    expect(ids.idOf(0, 'k', a.grid, 6, 3)).toBe(0);
    // The same key on another level is another position.
    expect(ids.idOf(1, 'k', b.grid, 6, 3)).toBe(1);
    expect(ids.idOf(0, 'j', b.grid, 6, 3)).toBe(2);
    expect(ids.idOf(1, 'k', a.grid, 6, 3)).toBe(1);
    expect([
      ids.find(0, 'k'),
      ids.find(1, 'k'),
      ids.find(0, 'j'),
      ids.find(1, 'j'),
      ids.find(2, 'k'),
    ]).toEqual([0, 1, 2, undefined, undefined]);
    expect(ids.count).toBe(3);
    expect([0, 1, 2].map((id) => ids.nameOf(id))).toEqual(['0|k', '1|k', '0|j']);
    expect(() => ids.nameOf(3)).toThrow(/id must be an id handed out \(0 … 2\), got 3/);
    expect([0, 1, 2, 3].map((id) => ids.levelOf(id))).toEqual([0, 1, 0, -1]);
    // Each id keeps the features of the grid it was created with (a later idOf does not replace them).
    const expected = new Float32Array(FEATURE_COUNT);
    for (const [id, grid] of [
      [0, a.grid],
      [1, b.grid],
      [2, b.grid],
    ] as const) {
      sokobanFeatures(grid, 6, 3, expected);
      expect(ids.featureData.subarray(id * FEATURE_COUNT, (id + 1) * FEATURE_COUNT)).toEqual(expected);
    }
  });
});
