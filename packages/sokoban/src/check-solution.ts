import type { Level } from './level.js';
import { Tile } from './tile.js';

/** What {@link checkSolution} found: the solution in canonical LURD notation, or why it fails. */
export type SolutionCheck =
  | { readonly valid: true; readonly path: string; readonly moves: number; readonly pushes: number }
  | { readonly valid: false; readonly reason: string };

const LETTERS = 'udlr';

/**
 * Replays a solution in LURD notation (`u`, `d`, `l`, `r`; capitals conventionally mark pushes, but case
 * is not trusted: every move is replayed on the board) with run lengths allowed (`3r` is `rrr`) and white
 * space ignored. Valid when every move is possible (no walking into a wall, no pushing a box into a wall
 * or another box) and every box ends on a target. Internal.
 *
 * @param level - a valid level
 * @param text - the moves
 * @returns `{ valid: true, path, moves, pushes }` with the path rewritten in canonical case (lower case
 *   moves, upper case pushes), or `{ valid: false, reason }` naming the first move that fails
 */
export function checkSolution(level: Level, text: string): SolutionCheck {
  const { width } = level;
  const grid = level.grid.slice();
  const offsets = [-width, width, -1, 1];
  let player = grid.findIndex((t) => t === Tile.Player || t === Tile.PlayerOnTarget);
  let path = '';
  let pushes = 0;
  let run = '';
  const moves = text.replace(/\s+/g, '');
  for (let i = 0; i < moves.length; i++) {
    const ch = moves[i]!;
    if (ch >= '0' && ch <= '9') {
      run += ch;
      continue;
    }
    const direction = LETTERS.indexOf(ch.toLowerCase());
    if (direction < 0) return { valid: false, reason: `${JSON.stringify(ch)} is not a move (u, d, l, r)` };
    const count = run === '' ? 1 : Number(run);
    if (count < 1 || count > grid.length) {
      return { valid: false, reason: `the run length ${run} must be in [1, ${grid.length}]` };
    }
    run = '';
    const o = offsets[direction]!;
    for (let n = 0; n < count; n++) {
      const move = path.length + 1;
      const next = player + o;
      const tile = grid[next]!;
      if (tile === Tile.Wall) {
        return { valid: false, reason: `move ${move} (${ch}) walks into a wall` };
      }
      let pushed = false;
      if (tile === Tile.Box || tile === Tile.BoxOnTarget) {
        const behind = grid[next + o]!;
        if (behind !== Tile.Floor && behind !== Tile.Target) {
          return { valid: false, reason: `move ${move} (${ch}) pushes a box into a wall or another box` };
        }
        grid[next + o] = behind === Tile.Target ? Tile.BoxOnTarget : Tile.Box;
        grid[next] = tile === Tile.BoxOnTarget ? Tile.Target : Tile.Floor;
        pushed = true;
        pushes++;
      }
      grid[player] = grid[player] === Tile.PlayerOnTarget ? Tile.Target : Tile.Floor;
      grid[next] = grid[next] === Tile.Target ? Tile.PlayerOnTarget : Tile.Player;
      player = next;
      path += pushed ? LETTERS[direction]!.toUpperCase() : LETTERS[direction]!;
    }
  }
  if (run !== '') return { valid: false, reason: `the run length ${run} is not followed by a move` };
  const left = grid.reduce((n, t) => n + (t === Tile.Box ? 1 : 0), 0);
  if (left > 0) {
    return {
      valid: false,
      reason: `after its ${path.length} move${path.length === 1 ? '' : 's'} ${left} box${left === 1 ? ' stands' : 'es stand'} off target`,
    };
  }
  return { valid: true, path, moves: path.length, pushes };
}
