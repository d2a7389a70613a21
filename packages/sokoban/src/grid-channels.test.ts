import { describe, expect, it } from 'vitest';
import { GRID_CHANNELS, gridChannels } from './grid-channels.js';
import { parseLevel } from './parse-level.js';

describe('gridChannels', () => {
  it('sets one plane per feature, channel-major, with boxes and the player on targets in two planes', () => {
    const level = parseLevel('#####\n#+$*#\n#   #\n#####');
    const H = level.height;
    const W = level.width;
    const planes = gridChannels(level.grid, W, H, new Float64Array(5 * H * W));
    const on = (name: (typeof GRID_CHANNELS)[number]) => {
      const c = GRID_CHANNELS.indexOf(name);
      const cells: string[] = [];
      for (let y = 0; y < H; y++)
        for (let x = 0; x < W; x++) if (planes[c * H * W + y * W + x] === 1) cells.push(`${y},${x}`);
      return cells;
    };
    expect(on('player')).toEqual(['1,1']);
    expect(on('box')).toEqual(['1,2', '1,3']);
    expect(on('target')).toEqual(['1,1', '1,3']);
    expect(on('floor')).toEqual(['1,1', '1,2', '1,3', '2,1', '2,2', '2,3']);
    expect(on('wall')).toHaveLength(H * W - 6);
    for (const v of planes) expect(v === 0 || v === 1).toBe(true);
  });

  it('pads a smaller board with wall, and refuses planes too small for it', () => {
    const level = parseLevel('#####\n#@$.#\n#####');
    const planes = gridChannels(level.grid, 5, 3, new Float32Array(1 + 5 * 24).fill(7), 1, 4, 6);
    expect(planes[0]).toBe(7); // before the offset: untouched
    const wall = Array.from(planes.subarray(1, 25));
    // Row 3 and column 5 lie off the board: wall.
    for (let x = 0; x < 6; x++) expect(wall[3 * 6 + x]).toBe(1);
    for (let y = 0; y < 4; y++) expect(wall[y * 6 + 5]).toBe(1);
    expect(planes[1 + 24 + 1 * 6 + 1]).toBe(1); // floor under the player at (1, 1)
    expect(() => gridChannels(level.grid, 5, 3, new Float32Array(5 * 16), 0, 4, 4)).toThrow(RangeError);
    expect(() => gridChannels(level.grid, 5, 3, new Float32Array(10))).toThrow(
      'a 5×3 board needs planes of at least that size and out of 75 numbers; got 5×3 planes and 10 numbers',
    );
  });
});
