import { ModelBoard } from './model.js';

const LETTERS = 'udlr';

/**
 * Plays a LURD path on the independent model.
 *
 * @returns whether it ends solved, its moves and pushes; throws when a letter's case disagrees with
 *   whether the move pushed
 */
export function replayPath(text: string, path: string): { solved: boolean; moves: number; pushes: number } {
  const model = new ModelBoard(text);
  let moves = 0;
  let pushes = 0;
  for (const letter of path) {
    const { moved, pushed } = model.step(LETTERS.indexOf(letter.toLowerCase()));
    if (moved) moves++;
    if (pushed !== (letter !== letter.toLowerCase())) throw new Error(`push mismatch at ${moves}`);
    if (pushed) pushes++;
  }
  return { solved: model.solved(), moves, pushes };
}

/**
 * The XSB text of a level with its player moved to the first cell (row-major) of its reachable region: two
 * levels are the same puzzle exactly when these texts are equal. Written on the character matrix, with no
 * code of the package, as the reference for `levelKey`.
 */
export function playerNormalizedText(text: string): string {
  const rows = text.split('\n').map((line) => [...line]);
  const start = rows.flatMap((row, r) =>
    row.flatMap((ch, c) => (ch === '@' || ch === '+' ? [[r, c]] : [])),
  )[0]!;
  const seen = new Set([`${start[0]},${start[1]}`]);
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const [r, c] = queue[head]!;
    for (const [dr, dc] of [
      [-1, 0],
      [1, 0],
      [0, -1],
      [0, 1],
    ] as const) {
      const ch = rows[r! + dr]?.[c! + dc] ?? '#';
      const id = `${r! + dr},${c! + dc}`;
      if (ch !== '#' && ch !== '$' && ch !== '*' && !seen.has(id)) {
        seen.add(id);
        queue.push([r! + dr, c! + dc]);
      }
    }
  }
  const [r0, c0] = queue.sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!)[0]!;
  rows[start[0]!]![start[1]!] = rows[start[0]!]![start[1]!] === '+' ? '.' : ' ';
  rows[r0!]![c0!] = rows[r0!]![c0!] === '.' ? '+' : '@';
  return rows.map((row) => row.join('')).join('\n');
}
