import { boardFromLevel } from './board.js';
import type { Level } from './level.js';
import { searchOptimal } from './optimal-search.js';
import { checkInteger, checkObject } from './validate.js';

/** Options of {@link solve}. */
export interface SolveLimits {
  /**
   * The most search states (box positions with a player cell) the solver may create; past it, it gives
   * up with status `limit`. Memory is about 40 bytes per state plus the key map.
   * @defaultValue 1_000_000
   */
  readonly maxStates?: number | undefined;
}

/** What {@link solve} returns. */
export type SolveResult =
  | {
      /** An optimal solution was found. */
      readonly status: 'solved';
      /** Its length in moves (pushes included): the fewest possible. */
      readonly moves: number;
      /** Its pushes: the fewest among solutions of `moves` moves. */
      readonly pushes: number;
      /** The solution in LURD notation: `u d l r` for moves, `U D L R` for pushes. */
      readonly path: string;
      /** The solution as {@link Action} codes, one per move. */
      readonly actions: readonly number[];
      /** Search states created. */
      readonly states: number;
    }
  | {
      /**
       * `unsolvable`: the search space was exhausted, so the level has no solution. `limit`: the solver
       * gave up at `maxStates` and says nothing about solvability.
       */
      readonly status: 'unsolvable' | 'limit';
      /** Search states created. */
      readonly states: number;
    };

const DEFAULT_MAX_STATES = 1_000_000;
const ACTION_OF_LETTER: Readonly<Record<string, number>> = { u: 0, d: 1, l: 2, r: 3 };

/**
 * Solves a level optimally in moves, and among move-optimal solutions in pushes, or proves it has no
 * solution, or gives up at a state limit.
 *
 * Method: A* over the push graph (a state is the set of box cells with the player cell right after a
 * push; an edge is a push preceded by the player's shortest walk to it), costs compared as (moves,
 * pushes), with the consistent heuristic Σ_boxes (fewest pushes from the box's cell to any target,
 * other boxes ignored). Pushes onto dead cells (no target reachable by pushing) and pushes that close a
 * 2 × 2 block of walls and boxes with a box off target are pruned; both are states from which no
 * solution exists, so optimality is kept. The player's reachable region is recomputed by a breadth-first
 * walk at every expansion.
 *
 * @param level - a valid level (see {@link Level})
 * @param limits - optional `{ maxStates }`
 * @returns `{ status: 'solved', moves, pushes, path, actions, states }`, `{ status: 'unsolvable', states }`
 *   or `{ status: 'limit', states }`
 * @throws TypeError/RangeError on a value that is not a level or a bad limit; SokobanError
 *   `MALFORMED_LEVEL` when the level breaks a rule
 *
 * @example
 * ```ts
 * const level = parseLevel(['######', '#@ $.#', '######'].join('\n'));
 * console.log(solve(level));
 * // { status: 'solved', moves: 2, pushes: 1, path: 'rR', actions: [ 3, 3 ], states: 2 }
 * ```
 */
export function solve(level: Level, limits?: SolveLimits): SolveResult {
  let maxStates = DEFAULT_MAX_STATES;
  if (limits !== undefined) {
    checkObject(limits, 'limits');
    if (limits.maxStates !== undefined) {
      maxStates = checkInteger(limits.maxStates, 'limits.maxStates', 1, Number.MAX_SAFE_INTEGER);
    }
  }
  const board = boardFromLevel(level, 'level');
  const outcome = searchOptimal(board, board.boxes, board.player, maxStates);
  if (outcome.status !== 'solved') return { status: outcome.status, states: outcome.states };
  const actions = Array.from(outcome.path, (letter) => ACTION_OF_LETTER[letter.toLowerCase()]!);
  return {
    status: 'solved',
    moves: outcome.moves,
    pushes: outcome.pushes,
    path: outcome.path,
    actions,
    states: outcome.states,
  };
}
