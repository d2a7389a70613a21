import { Tile } from './tile.js';

/**
 * The planes of {@link gridChannels}, in order: a neural policy's view of a board (`@ftw/tfjs`'s
 * `SOKOBAN_CHANNELS` lists the same names).
 */
export const GRID_CHANNELS = ['wall', 'floor', 'target', 'box', 'player'] as const;

/**
 * A Sokoban board as channel planes for a convolutional (or any) network: `5 × height × width` numbers,
 * channel-major then row-major, cell (y, x) of channel c at `c·H·W + y·W + x`, 1 where the cell has the
 * feature and 0 elsewhere. Channels ({@link GRID_CHANNELS}): 0 wall; 1 floor (every cell that is not a
 * wall, whatever stands on it); 2 target; 3 box; 4 player. A box on a target sets 2 and 3, the player on a
 * target 2 and 4. A board smaller than `height × width` sits in the top-left corner and the rest reads as
 * wall, so levels of several sizes share one network input.
 *
 * @param grid - the board, tile codes row-major (see {@link Tile})
 * @param width - its columns
 * @param height - its rows
 * @param out - receives `5 · outHeight · outWidth` numbers from `offset`
 * @param offset - where they start
 * @param outHeight - rows of the planes (≥ height)
 * @param outWidth - columns of the planes (≥ width)
 * @returns `out`
 * @throws RangeError when the board does not fit the planes or `out` is too short
 * @example
 * ```ts
 * const level = parseLevel('#####\n#@$.#\n#####');
 * const planes = gridChannels(level.grid, 5, 3, new Float32Array(5 * 15));
 * planes[3 * 15 + 7]; // 1: channel 3 (box) at cell (1, 2)
 * ```
 */
export function gridChannels(
  grid: Uint8Array,
  width: number,
  height: number,
  out: Float32Array | Float64Array,
  offset = 0,
  outHeight = height,
  outWidth = width,
): Float32Array | Float64Array {
  const plane = outHeight * outWidth;
  if (width > outWidth || height > outHeight || offset + 5 * plane > out.length) {
    throw new RangeError(
      `a ${width}×${height} board needs planes of at least that size and out of ${offset + 5 * plane} numbers; got ${outWidth}×${outHeight} planes and ${out.length} numbers`,
    );
  }
  out.fill(0, offset, offset + 5 * plane);
  for (let y = 0; y < outHeight; y++) {
    for (let x = 0; x < outWidth; x++) {
      const at = offset + y * outWidth + x;
      const tile = x < width && y < height ? grid[y * width + x]! : Tile.Wall;
      if (tile === Tile.Wall) {
        out[at] = 1;
        continue;
      }
      out[at + plane] = 1;
      if (tile === Tile.Target || tile === Tile.BoxOnTarget || tile === Tile.PlayerOnTarget)
        out[at + 2 * plane] = 1;
      if (tile === Tile.Box || tile === Tile.BoxOnTarget) out[at + 3 * plane] = 1;
      if (tile === Tile.Player || tile === Tile.PlayerOnTarget) out[at + 4 * plane] = 1;
    }
  }
  return out;
}
