import { describe, expect, it } from 'vitest';
import { COMMON_GRID_POINTS, commonStepGrid, lastAtOrBefore, sameSteps } from './common-step-grid.js';

describe('sameSteps', () => {
  it('is true only when every grid equals the first, element by element', () => {
    expect(sameSteps([[1, 2, 3]])).toBe(true);
    expect(
      sameSteps([
        [1, 2, 3],
        [1, 2, 3],
      ]),
    ).toBe(true);
    expect(
      sameSteps([
        [1, 2, 3],
        [1, 2],
      ]),
    ).toBe(false);
    expect(
      sameSteps([
        [1, 2],
        [1, 2, 3],
      ]),
    ).toBe(false);
    expect(
      sameSteps([
        [1, 2, 3],
        [1, 2, 4],
      ]),
    ).toBe(false);
  });
});

describe('commonStepGrid', () => {
  it('spans from the latest first step to the earliest last step, evenly', () => {
    const grid = commonStepGrid([
      [3, 5, 9, 12],
      [2, 6, 10],
    ]);
    expect(grid).toHaveLength(COMMON_GRID_POINTS);
    expect(grid[0]).toBe(3);
    expect(grid[COMMON_GRID_POINTS - 1]).toBe(10);
    // Step (10 − 3) / 999 between neighbours.
    for (let i = 1; i < grid.length; i++) expect(grid[i]! - grid[i - 1]!).toBeCloseTo(7 / 999, 12);
  });

  it('is one point when the seeds share no range', () => {
    expect(
      commonStepGrid([
        [5, 8],
        [1, 5],
      ]),
    ).toEqual([5]);
  });
});

describe('lastAtOrBefore', () => {
  it('gives, per grid step, the last iteration ended at or before it, −1 before the first', () => {
    expect([...lastAtOrBefore([3, 5, 9], [2, 3, 4, 5, 8, 9, 12])]).toEqual([-1, 0, 0, 1, 1, 2, 2]);
    expect([...lastAtOrBefore([], [1, 2])]).toEqual([-1, -1]);
  });
});

describe('commonStepGrid on bad input', () => {
  it('rejects no grid and an empty grid', () => {
    expect(() => commonStepGrid([])).toThrow(
      new RangeError('grids must be one or more non-empty arrays, got none'),
    );
    expect(() => commonStepGrid([[1, 2], []])).toThrow(
      new RangeError('grids must be one or more non-empty arrays, got lengths 2, 0'),
    );
  });
});
