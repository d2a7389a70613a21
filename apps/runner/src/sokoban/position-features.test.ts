import { parseLevel, SokobanEnv } from '@ftw/sokoban';
import { describe, expect, it } from 'vitest';
import { PositionFeatures } from './position-features.js';
import { FEATURE_COUNT, sokobanFeatures } from './sokoban-features.js';

describe('PositionFeatures', () => {
  it("keeps each position's features by level and key: the same key on another level is another position", () => {
    // Two levels with the player and the box on the same cells (one key), their walls and targets apart.
    const first = parseLevel('#######\n#@ $ .#\n#     #\n#######');
    const second = parseLevel('#######\n#@ $  #\n#.  ###\n#######');
    const observe = (level: typeof first) => new SokobanEnv({ level, certify: false }).reset().observation;
    const a = observe(first);
    const b = observe(second);
    expect(a.key).toBe(b.key);
    const features = new PositionFeatures();
    const own = (grid: Uint8Array) => sokobanFeatures(grid, 7, 4, new Float64Array(FEATURE_COUNT));
    const fa = features.of(0, a);
    const fb = features.of(1, b);
    expect(fa).toEqual(own(a.grid));
    expect(fb).toEqual(own(b.grid));
    expect(fb).not.toEqual(fa);
    // Computed once: later visits return the same array, even given another grid under the same name.
    expect(features.of(0, b)).toBe(fa);
    expect(features.of(1, b)).toBe(fb);
  });
});
