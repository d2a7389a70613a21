import type { Level } from './level.js';
import { Tile } from './tile.js';

/**
 * The board of a position of a level, rebuilt from the level and the position's key (`SokobanEnv`'s
 * observation key: the player's cell, then the box cells, one UTF-16 unit each), tile for tile what
 * `SokobanEnv` shows in that position. The level's walls and targets stay; its player and boxes are lifted
 * off and put back on the key's cells (on a target they become `PlayerOnTarget` and `BoxOnTarget`).
 *
 * An actor process sends the keys of the positions it played, and the learner rebuilds their boards to
 * compute their features (the learner numbers positions itself).
 *
 * @param level - the level (its start position gives the walls, targets and number of boxes)
 * @param key - the position's key
 * @returns a new grid, `width × height` tile codes row-major
 * @throws RangeError naming the key when it does not have one cell for the player and one per box of the
 *   level, or names a cell off the board, on a wall, or twice
 * @example
 * ```ts
 * const level = parseLevel('######\n#@ $.#\n######');
 * positionGrid(level, String.fromCharCode(8, 10)); // the player on 8, the box pushed onto the target, 10
 * ```
 */
export function positionGrid(level: Level, key: string): Uint8Array {
  const grid = level.grid.slice();
  let boxes = 0;
  for (const tile of grid) if (tile === Tile.Box || tile === Tile.BoxOnTarget) boxes++;
  if (key.length !== boxes + 1) {
    throw new RangeError(
      `key must have ${boxes + 1} cells (the player, then ${boxes} box${boxes === 1 ? '' : 'es'}), got ${JSON.stringify(key)} (${key.length})`,
    );
  }
  for (let cell = 0; cell < grid.length; cell++) {
    const tile = grid[cell]!;
    if (tile === Tile.Box || tile === Tile.Player) grid[cell] = Tile.Floor;
    else if (tile === Tile.BoxOnTarget || tile === Tile.PlayerOnTarget) grid[cell] = Tile.Target;
  }
  for (let i = 0; i < key.length; i++) {
    const cell = key.charCodeAt(i);
    const tile = cell < grid.length ? grid[cell]! : Tile.Wall;
    if (tile !== Tile.Floor && tile !== Tile.Target) {
      const why =
        cell >= grid.length ? 'off the board' : tile === Tile.Wall ? 'on a wall' : 'on a cell already taken';
      throw new RangeError(
        `key ${JSON.stringify(key)} puts ${i === 0 ? 'the player' : 'a box'} ${why}: cell ${cell}`,
      );
    }
    if (i === 0) grid[cell] = tile === Tile.Target ? Tile.PlayerOnTarget : Tile.Player;
    else grid[cell] = tile === Tile.Target ? Tile.BoxOnTarget : Tile.Box;
  }
  return grid;
}
