import { test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { exhaustiveSolve, ModelBoard } from '../test/model.js';
import { nicheLevel, nicheLevelArb } from '../test/niche-levels.js';
import { smallLevelArb } from '../test/random-levels.js';
import { parseLevel } from './parse-level.js';
import { SokobanError } from './sokoban-error.js';
import { solve } from './solve.js';

/** Replays a solution in the independent model; returns its final board and counts. */
function replay(
  text: string,
  actions: readonly number[],
): { solved: boolean; moves: number; pushes: number } {
  const model = new ModelBoard(text);
  let moves = 0;
  let pushes = 0;
  for (const a of actions) {
    const { moved, pushed } = model.step(a);
    if (moved) moves++;
    if (pushed) pushes++;
  }
  return { solved: model.solved(), moves, pushes };
}

describe('solve', () => {
  it('solves a one-push level', () => {
    const result = solve(parseLevel('######\n#@ $.#\n######'));
    expect(result).toEqual({ status: 'solved', moves: 2, pushes: 1, path: 'rR', actions: [3, 3], states: 2 });
  });

  it('returns 0 moves for a level already solved', () => {
    const result = solve(parseLevel('#####\n#@*##\n#####'));
    expect(result).toMatchObject({ status: 'solved', moves: 0, pushes: 0, path: '' });
  });

  it('is optimal beyond six boxes, where the bound is the sum of nearest-target distances', () => {
    // Two niche levels with seven boxes on which an inflated bound (twice the distances) returns a
    // longer path: 39 moves instead of 38, 32 instead of 31. The optima come from exhaustive search.
    const levels = [
      nicheLevel([1, 1, 2, 1, 2, 2, 2], [false, false, false, false, false, false, false], 7),
      nicheLevel([2, 2, 1, 1, 2, 2, 1], [true, false, false, false, false, false, false], 8),
    ];
    const optima = [
      { moves: 38, pushes: 11 },
      { moves: 31, pushes: 9 },
    ];
    for (const [i, text] of levels.entries()) {
      expect(exhaustiveSolve(text)).toEqual(optima[i]);
      const result = solve(parseLevel(text));
      expect(result).toMatchObject({ status: 'solved', ...optima[i] });
      if (result.status === 'solved') {
        expect(replay(text, result.actions)).toEqual({ solved: true, ...optima[i] });
      }
    }
  });

  test.prop([nicheLevelArb(7, 8).filter(({ pushes }) => pushes <= 9)], { numRuns: 8 })(
    'is optimal in moves, then pushes, against exhaustive search on niche levels of seven or eight boxes',
    ({ text }) => {
      const result = solve(parseLevel(text));
      expect(result.status === 'solved' && { moves: result.moves, pushes: result.pushes }).toEqual(
        exhaustiveSolve(text),
      );
    },
  );

  it('proves a box in a corner unsolvable, and a box walled off from its target', () => {
    expect(solve(parseLevel('#####\n#$ .#\n#  @#\n#####')).status).toBe('unsolvable');
    expect(solve(parseLevel('#######\n#@$#. #\n#######')).status).toBe('unsolvable');
  });

  test.prop([smallLevelArb(3)], { numRuns: 150 })(
    'is optimal in moves, then pushes, against exhaustive search of every move on small levels',
    (text) => {
      const expected = exhaustiveSolve(text);
      const result = solve(parseLevel(text));
      if (expected === null) {
        expect(result.status).toBe('unsolvable');
        return;
      }
      expect(expected).toBeDefined();
      expect(result.status).toBe('solved');
      if (result.status !== 'solved') return;
      expect({ moves: result.moves, pushes: result.pushes }).toEqual(expected);
      expect(replay(text, result.actions)).toEqual({
        solved: true,
        moves: result.moves,
        pushes: result.pushes,
      });
      expect(result.path.length).toBe(result.moves);
      expect([...result.path].filter((c) => c === c.toUpperCase()).length).toBe(result.pushes);
    },
  );

  it('gives up clearly at the state limit', () => {
    const text = ['########', '#  .   #', '# $$$  #', '#.   . #', '#@  $ .#', '########'].join('\n');
    const limited = solve(parseLevel(text), { maxStates: 5 });
    expect(limited).toEqual({ status: 'limit', states: 5 });
    expect(solve(parseLevel(text)).status).toBe('solved');
  });

  it('rejects bad limits and bad levels with clear errors', () => {
    const level = parseLevel('######\n#@ $.#\n######');
    expect(() => solve(level, { maxStates: 0 })).toThrow(RangeError);
    expect(() => solve(level, { maxStates: 0 })).toThrow(/limits\.maxStates.*got 0/);
    expect(() => solve(level, 5 as never)).toThrow(/limits must be an object/);
    expect(() => solve(null as never)).toThrow(/level must be a level/);
    expect(() => solve({ width: 3, height: 3, grid: new Uint8Array(8) })).toThrow(
      /grid must be a Uint8Array of length/,
    );
    const twoPlayers = {
      width: 5,
      height: 3,
      grid: Uint8Array.from([0, 0, 0, 0, 0, 0, 5, 4, 6, 0, 0, 0, 0, 0, 0]),
    };
    expect(() => solve(twoPlayers)).toThrow(SokobanError);
    expect(() => solve(twoPlayers)).toThrow(/exactly one player, found 2/);
    const open = { width: 4, height: 3, grid: Uint8Array.from([0, 0, 0, 0, 0, 5, 4, 2, 0, 0, 0, 0]) };
    expect(() => solve(open)).toThrow(/edge of the board at row 2, column 4/);
    const badTile = { width: 3, height: 3, grid: Uint8Array.from([0, 0, 0, 0, 5, 9, 0, 0, 0]) };
    expect(() => solve(badTile)).toThrow(/grid\[5\] is 9/);
  });

  it('keys states by string on boards too large for numeric keys', () => {
    // 5 boxes on a 40 × 12 board: 480^6 > 2^53.
    const rows = ['#'.repeat(40), `#@${' '.repeat(37)}#`];
    for (let y = 0; y < 5; y++) rows.push(`# $.${' '.repeat(35)}#`);
    for (let y = 0; y < 4; y++) rows.push(`#${' '.repeat(38)}#`);
    rows.push('#'.repeat(40));
    expect(480 ** 6).toBeGreaterThan(Number.MAX_SAFE_INTEGER);
    const text = rows.join('\n');
    const result = solve(parseLevel(text));
    // Down and push the first box (2 moves), then left, down and push each of the other four (3 each).
    expect(result).toMatchObject({ status: 'solved', moves: 14, pushes: 5 });
    if (result.status === 'solved') expect(replay(text, result.actions).solved).toBe(true);
  });
});
