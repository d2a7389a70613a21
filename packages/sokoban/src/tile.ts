/**
 * The tile codes of a Sokoban grid, the same integers as gym-sokoban's room state (so observations can be
 * compared with Python code): a cell holds exactly one of them, row-major in {@link Level.grid}.
 *
 * @example
 * ```ts
 * console.log(Tile.Wall, Tile.Box, Tile.PlayerOnTarget);
 * // 0 4 6
 * ```
 */
export const Tile = {
  /** `#`: a wall. */
  Wall: 0,
  /** ` ` (XSB) or `_` (LLM vocabulary): an empty floor cell. */
  Floor: 1,
  /** `.` or `O`: an empty target. */
  Target: 2,
  /** `*` or `√`: a box on a target. */
  BoxOnTarget: 3,
  /** `$` or `X`: a box on a floor cell. */
  Box: 4,
  /** `@` or `P`: the player on a floor cell. */
  Player: 5,
  /** `+` or `S`: the player on a target. */
  PlayerOnTarget: 6,
} as const;

/** One of the seven {@link Tile} codes. */
export type TileCode = (typeof Tile)[keyof typeof Tile];
