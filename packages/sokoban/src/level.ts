/**
 * A Sokoban level: a rectangular grid of {@link Tile} codes, row-major (cell (x, y) at index
 * `y * width + x`), holding exactly one player, at least one box and as many targets as boxes. The
 * player's area (the cells it could reach if boxes were floor) must be enclosed by walls.
 *
 * Functions of this package validate a level when they receive one (a `SokobanError` with code
 * `MALFORMED_LEVEL` says what is wrong) and never modify it; treat a level as immutable once it is handed
 * to a {@link SokobanEnv}, which keeps per-level tables.
 *
 * @example
 * ```ts
 * const level = parseLevel('#####\n#@$.#\n#####');
 * console.log(level.width, level.height, Array.from(level.grid.subarray(5, 10)));
 * // 5 3 [ 0, 5, 4, 2, 0 ]
 * ```
 */
export interface Level {
  /** Number of columns, walls included. */
  readonly width: number;
  /** Number of rows, walls included. */
  readonly height: number;
  /** `width · height` tile codes, row-major. */
  readonly grid: Uint8Array;
}
