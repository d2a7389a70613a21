/**
 * Points of the common grid on which seeds that do not share their environment steps are averaged.
 *
 * @example
 * ```ts
 * commonStepGrid([[3, 5, 9], [2, 6, 10]]).length === COMMON_GRID_POINTS; // true
 * ```
 */
export const COMMON_GRID_POINTS = 1_000;

/**
 * Whether every seed's iterations end at the same environment steps (always so with one-step episodes;
 * seeds whose episodes differ in length, such as Sokoban's, do not share them).
 *
 * @param grids - each seed's step count after each iteration, ascending
 * @returns true when all grids are equal, element by element (true for no grid)
 * @throws never: any arrays are compared
 * @example
 * ```ts
 * sameSteps([[1, 2], [1, 2]]); // true
 * sameSteps([[3, 5], [2, 6]]); // false
 * ```
 */
export function sameSteps(grids: readonly (readonly number[])[]): boolean {
  const first = grids[0] ?? [];
  return grids.every((g) => g.length === first.length && g.every((x, t) => x === first[t]));
}

/**
 * The common grid of environment steps on which seeds that do not share their steps are averaged:
 * {@link COMMON_GRID_POINTS} evenly spaced steps from the latest first step to the earliest last step,
 * where every seed has a value (one point when that range is empty). Each seed then contributes, at each
 * step, the value of its last iteration ended at or before it.
 *
 * @param grids - each seed's step count after each iteration, ascending, none empty
 * @returns the grid, ascending
 * @throws RangeError when there is no grid or a grid is empty
 * @example
 * ```ts
 * const grid = commonStepGrid([[3, 5, 9], [2, 6, 10]]);
 * grid.length; // 1000
 * [grid[0], grid[999]]; // [3, 9]
 * ```
 */
export function commonStepGrid(grids: readonly (readonly number[])[]): number[] {
  if (grids.length === 0 || grids.some((g) => g.length === 0)) {
    throw new RangeError(
      `grids must be one or more non-empty arrays, got ${grids.length === 0 ? 'none' : `lengths ${grids.map((g) => g.length).join(', ')}`}`,
    );
  }
  const from = Math.max(...grids.map((g) => g[0]!));
  const to = Math.min(...grids.map((g) => g[g.length - 1]!));
  const points = to > from ? COMMON_GRID_POINTS : 1;
  return Array.from({ length: points }, (_, i) =>
    points === 1 ? from : from + ((to - from) * i) / (points - 1),
  );
}

/**
 * For each step of a grid, the last iteration ended at or before it: the value a seed contributes there.
 *
 * @param steps - the seed's step count after each iteration, ascending
 * @param grid - the grid's steps, ascending
 * @returns per grid point the index into `steps`, or −1 before the seed's first iteration
 * @throws never: the inputs are assumed ascending (unsorted ones give indices that mean nothing)
 * @example
 * ```ts
 * lastAtOrBefore([3, 5, 9], [2, 3, 4, 9, 12]); // Int32Array [-1, 0, 0, 2, 2]
 * ```
 */
export function lastAtOrBefore(steps: ArrayLike<number>, grid: readonly number[]): Int32Array {
  const at = new Int32Array(grid.length);
  let i = -1;
  for (let t = 0; t < grid.length; t++) {
    while (i + 1 < steps.length && steps[i + 1]! <= grid[t]!) i++;
    at[t] = i;
  }
  return at;
}
