import { Tile } from './tile.js';

/** Radius of the egocentric window: (2r + 1)² cells around the player. */
const RADIUS = 2;
const SIDE = 2 * RADIUS + 1;
/** Per window cell: wall, box, target. */
const CHANNELS = 3;
const WINDOW = SIDE * SIDE * CHANNELS;
/** Nearest box off target: its offset from the player, then the offset of the nearest free target from it. */
const OFFSETS = 8;

/** Number of features of {@link sokobanFeatures}: window, offsets and a bias. */
export const SOKOBAN_FEATURE_COUNT = WINDOW + OFFSETS + 1;

/**
 * The egocentric features of a Sokoban position for a linear softmax policy, the same for every level so
 * that what is learned on training levels can carry over to held-out ones:
 *
 * - a (2r + 1) × (2r + 1) window centred on the player (r = 2), three indicators per cell (wall, box,
 *   target; cells off the board read as wall);
 * - the offset (dx, dy) from the player to the nearest box off target, and from that box to the nearest
 *   free target, each scaled by 1 / max(width, height), followed by their signs (−1, 0, 1);
 * - a constant 1.
 *
 * @param grid - the board, tile codes row-major (see `@ftw/sokoban`'s `Tile`)
 * @param width - columns
 * @param height - rows
 * @param out - receives {@link SOKOBAN_FEATURE_COUNT} values from `offset`
 * @param offset - where they start
 * @returns `out`
 * @example
 * ```ts
 * const level = parseLevel('######\n#@ $.#\n######');
 * sokobanFeatures(level.grid, 6, 3, new Float64Array(SOKOBAN_FEATURE_COUNT)).at(-1); // 1 (the bias)
 * ```
 */
export function sokobanFeatures(
  grid: Uint8Array,
  width: number,
  height: number,
  out: Float64Array | Float32Array,
  offset = 0,
): Float64Array | Float32Array {
  let player = 0;
  for (let c = 0; c < grid.length; c++) {
    if (grid[c] === Tile.Player || grid[c] === Tile.PlayerOnTarget) player = c;
  }
  const px = player % width;
  const py = (player - px) / width;
  let i = offset;
  for (let dy = -RADIUS; dy <= RADIUS; dy++) {
    for (let dx = -RADIUS; dx <= RADIUS; dx++) {
      const x = px + dx;
      const y = py + dy;
      const tile = x < 0 || y < 0 || x >= width || y >= height ? Tile.Wall : grid[y * width + x]!;
      out[i++] = tile === Tile.Wall ? 1 : 0;
      out[i++] = tile === Tile.Box || tile === Tile.BoxOnTarget ? 1 : 0;
      out[i++] = tile === Tile.Target || tile === Tile.BoxOnTarget || tile === Tile.PlayerOnTarget ? 1 : 0;
    }
  }
  const box = nearest(grid, width, px, py, (t) => t === Tile.Box);
  const scale = 1 / Math.max(width, height);
  let bx = 0;
  let by = 0;
  let tx = 0;
  let ty = 0;
  if (box >= 0) {
    const x = box % width;
    const y = (box - x) / width;
    bx = x - px;
    by = y - py;
    const target = nearest(grid, width, x, y, (t) => t === Tile.Target || t === Tile.PlayerOnTarget);
    if (target >= 0) {
      tx = (target % width) - x;
      ty = Math.floor(target / width) - y;
    }
  }
  out[i++] = bx * scale;
  out[i++] = by * scale;
  out[i++] = tx * scale;
  out[i++] = ty * scale;
  out[i++] = Math.sign(bx);
  out[i++] = Math.sign(by);
  out[i++] = Math.sign(tx);
  out[i++] = Math.sign(ty);
  out[i] = 1;
  return out;
}

/** The cell matching `accept` nearest to (x, y) in Manhattan distance (lowest index among ties), or −1. */
function nearest(
  grid: Uint8Array,
  width: number,
  x: number,
  y: number,
  accept: (tile: number) => boolean,
): number {
  let best = -1;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (let c = 0; c < grid.length; c++) {
    if (!accept(grid[c]!)) continue;
    const cx = c % width;
    const d = Math.abs(cx - x) + Math.abs((c - cx) / width - y);
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  return best;
}
