import { boardFromLevel } from './board.js';
import type { Level } from './level.js';
import { Tile } from './tile.js';

/**
 * The canonical key of a level: two levels have the same key exactly when they have the same size, walls,
 * targets and boxes and the player can reach the same cells, so they are the same puzzle (the player may
 * stand anywhere in its region: it walks there first). This is the identity that keeps a held-out set
 * apart from a training set ({@link levelSplit}): levels that differ only in where the player starts
 * inside its region are one level. Rotations and reflections are different levels (a policy sees a
 * different grid).
 *
 * Format: `<width>x<height>:` then one character per cell, row-major: `#` wall, `$` box, `*` box on a
 * target, `r` / `R` a floor / target cell the player can reach, ` ` / `.` one it cannot.
 *
 * @param level - a valid level (see {@link Level})
 * @returns the key, `width · height` characters after its size prefix
 * @throws TypeError/RangeError when `level` is not level-shaped; SokobanError `MALFORMED_LEVEL` when it
 *   breaks a rule of {@link Level}
 *
 * @example
 * ```ts
 * const a = parseLevel('######\n#@ $.#\n######');
 * const b = parseLevel('######\n# @$.#\n######');
 * console.log(levelKey(a), levelKey(a) === levelKey(b));
 * // 6x3:#####r#rr$.######## true
 * ```
 */
export function levelKey(level: Level): string {
  const board = boardFromLevel(level, 'level');
  const { size, wall, target, offsets } = board;
  const grid = level.grid;
  const reach = new Uint8Array(size);
  const queue = [board.player];
  reach[board.player] = 1;
  for (let head = 0; head < queue.length; head++) {
    const c = queue[head]!;
    for (let d = 0; d < 4; d++) {
      const n = c + offsets[d]!;
      const tile = grid[n]!;
      if (wall[n] === 0 && tile !== Tile.Box && tile !== Tile.BoxOnTarget && reach[n] === 0) {
        reach[n] = 1;
        queue.push(n);
      }
    }
  }
  let key = `${level.width}x${level.height}:`;
  for (let c = 0; c < size; c++) {
    const tile = grid[c]!;
    if (wall[c] === 1) key += '#';
    else if (tile === Tile.Box) key += '$';
    else if (tile === Tile.BoxOnTarget) key += '*';
    else if (reach[c] === 1) key += target[c] === 1 ? 'R' : 'r';
    else key += target[c] === 1 ? '.' : ' ';
  }
  return key;
}
