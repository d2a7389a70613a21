import { describe, expect, it } from 'vitest';
import { parseLevel } from './parse-level.js';
import { PositionFeatures } from './position-features.js';
import { SokobanEnv } from './sokoban-env.js';
import { SOKOBAN_FEATURE_COUNT as FEATURE_COUNT, sokobanFeatures } from './sokoban-features.js';

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
    const own = (grid: Uint8Array) =>
      Array.from(sokobanFeatures(grid, 7, 4, new Float64Array(FEATURE_COUNT)));
    const dense = (row: number) => {
      const { rowStart, columns, values } = features.sparse;
      const out = new Array<number>(FEATURE_COUNT).fill(0);
      for (let k = rowStart[row]!; k < rowStart[row + 1]!; k++) out[columns[k]!] = values[k]!;
      return out;
    };
    const ra = features.of(0, a);
    const rb = features.of(1, b);
    expect(rb).not.toBe(ra);
    expect(dense(ra)).toEqual(own(a.grid));
    expect(dense(rb)).toEqual(own(b.grid));
    expect(dense(rb)).not.toEqual(dense(ra));
    // Computed once: later visits give the same row, even given another grid under the same name.
    expect(features.of(0, b)).toBe(ra);
    expect(features.of(1, b)).toBe(rb);
    // Its nonzero features only, columns increasing.
    const { rowStart, columns, values } = features.sparse;
    for (const row of [ra, rb]) {
      const kept = Array.from(columns.subarray(rowStart[row]!, rowStart[row + 1]!));
      expect(kept).toEqual([...kept].sort((x, y) => x - y));
      expect(Array.from(values.subarray(rowStart[row]!, rowStart[row + 1]!)).includes(0)).toBe(false);
    }
  });
});
