import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateLevel } from './generate-level.js';
import { parseLevel } from './parse-level.js';
import { positionGrid } from './position-grid.js';
import { seededUniform } from './seeded-uniform.js';
import { SokobanEnv } from './sokoban-env.js';
import { Tile } from './tile.js';

describe('positionGrid', () => {
  it('rebuilds the board SokobanEnv shows, in every position of random play (1–3 boxes)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer({ min: 1, max: 3 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 60 }),
        (seed, boxes, actions) => {
          const { level } = generateLevel({ width: 7, height: 7, boxes, maxMoves: 10 }, seededUniform(seed));
          const env = new SokobanEnv({ level, maxSteps: 1000 });
          let { observation } = env.reset();
          expect(positionGrid(level, observation.key)).toEqual(observation.grid);
          for (const action of actions) {
            const result = env.step(action);
            expect(positionGrid(level, result.observation.key)).toEqual(result.observation.grid);
            if (result.terminated || result.truncated) break;
            observation = result.observation;
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('puts the player and the boxes on targets as PlayerOnTarget and BoxOnTarget', () => {
    // Cells of '#@ $.#' inside a 6 × 3 board: player 7, box 9, target 10.
    const level = parseLevel('######\n#@ $.#\n######');
    const grid = positionGrid(level, String.fromCharCode(10, 8));
    expect(Array.from(grid.subarray(6, 12))).toEqual([
      Tile.Wall,
      Tile.Floor,
      Tile.Box,
      Tile.Floor,
      Tile.PlayerOnTarget,
      Tile.Wall,
    ]);
    expect(Array.from(positionGrid(level, String.fromCharCode(9, 10)).subarray(6, 12))).toEqual([
      Tile.Wall,
      Tile.Floor,
      Tile.Floor,
      Tile.Player,
      Tile.BoxOnTarget,
      Tile.Wall,
    ]);
    // The level's own grid is left as it was.
    expect(level.grid[7]).toBe(Tile.Player);
  });

  it('refuses a key that does not fit the level, naming it', () => {
    const level = parseLevel('######\n#@ $.#\n######');
    expect(() => positionGrid(level, String.fromCharCode(8))).toThrow(
      'key must have 2 cells (the player, then 1 box), got "\\b" (1)',
    );
    expect(() => positionGrid(level, String.fromCharCode(8, 9, 10))).toThrow(/must have 2 cells/);
    expect(() => positionGrid(level, String.fromCharCode(0, 9))).toThrow(
      'key "\\u0000\\t" puts the player on a wall: cell 0',
    );
    expect(() => positionGrid(level, String.fromCharCode(8, 18))).toThrow(
      'key "\\b\\u0012" puts a box off the board: cell 18',
    );
    expect(() => positionGrid(level, String.fromCharCode(8, 8))).toThrow(
      'key "\\b\\b" puts a box on a cell already taken: cell 8',
    );
  });
});
