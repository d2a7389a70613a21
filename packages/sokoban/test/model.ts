/**
 * An independent small model of Sokoban, written from the rules on a matrix of XSB characters (no code
 * of the package): the player moves up, down, left or right; moving into a box pushes it when the cell
 * behind it is floor or target. Used to check the environment's dynamics and the solver's optimality.
 */

const DELTAS: ReadonlyArray<readonly [number, number]> = [
  [-1, 0],
  [1, 0],
  [0, -1],
  [0, 1],
];

export class ModelBoard {
  rows: string[][];
  r = 0;
  c = 0;

  constructor(text: string) {
    this.rows = text.split('\n').map((line) => [...line]);
    for (let r = 0; r < this.rows.length; r++) {
      const c = this.rows[r]!.findIndex((ch) => ch === '@' || ch === '+');
      if (c >= 0) {
        this.r = r;
        this.c = c;
      }
    }
  }

  at(r: number, c: number): string {
    return this.rows[r]?.[c] ?? '#';
  }

  /** @returns whether the player moved and whether a box was pushed */
  step(action: number): { moved: boolean; pushed: boolean } {
    const [dr, dc] = DELTAS[action]!;
    const r1 = this.r + dr;
    const c1 = this.c + dc;
    const target = this.at(r1, c1);
    if (target === '#') return { moved: false, pushed: false };
    let pushed = false;
    if (target === '$' || target === '*') {
      const r2 = r1 + dr;
      const c2 = c1 + dc;
      const beyond = this.at(r2, c2);
      if (beyond !== ' ' && beyond !== '.') return { moved: false, pushed: false };
      this.rows[r2]![c2] = beyond === '.' ? '*' : '$';
      this.rows[r1]![c1] = target === '*' ? '.' : ' ';
      pushed = true;
    }
    const here = this.rows[this.r]![this.c]!;
    this.rows[this.r]![this.c] = here === '+' ? '.' : ' ';
    const dest = this.rows[r1]![c1]!;
    this.rows[r1]![c1] = dest === '.' ? '+' : '@';
    this.r = r1;
    this.c = c1;
    return { moved: true, pushed };
  }

  count(ch: string): number {
    return this.rows.reduce((n, row) => n + row.filter((x) => x === ch).length, 0);
  }

  solved(): boolean {
    return this.count('$') === 0;
  }

  text(): string {
    return this.rows.map((row) => row.join('')).join('\n');
  }
}

/**
 * Exhaustive breadth-first search over every position (player cell and box cells) reachable by single
 * moves, layer by layer: the first layer holding a solved position gives the fewest moves, and the
 * fewest pushes among paths of that length is carried along each layer (min over predecessors).
 *
 * @param text - an XSB level
 * @param maxPositions - give up (return undefined) beyond this many positions
 * @returns `{ moves, pushes }` of an optimal solution, `null` when there is none, `undefined` on the cap
 */
export function exhaustiveSolve(
  text: string,
  maxPositions = 2_000_000,
): { moves: number; pushes: number } | null | undefined {
  const start = new ModelBoard(text);
  let layer = new Map<string, { board: string; pushes: number }>([
    [start.text(), { board: start.text(), pushes: 0 }],
  ]);
  const seen = new Set<string>(layer.keys());
  for (let moves = 0; layer.size > 0; moves++) {
    let best = Number.POSITIVE_INFINITY;
    for (const { board, pushes } of layer.values()) {
      if (!board.includes('$')) best = Math.min(best, pushes);
    }
    if (best < Number.POSITIVE_INFINITY) return { moves, pushes: best };
    const next = new Map<string, { board: string; pushes: number }>();
    for (const { board, pushes } of layer.values()) {
      for (let a = 0; a < 4; a++) {
        const model = new ModelBoard(board);
        const { moved, pushed } = model.step(a);
        if (!moved) continue;
        const key = model.text();
        if (seen.has(key) && !next.has(key)) continue;
        const p = pushes + (pushed ? 1 : 0);
        const known = next.get(key);
        if (known === undefined) {
          seen.add(key);
          next.set(key, { board: key, pushes: p });
        } else if (p < known.pushes) {
          known.pushes = p;
        }
      }
    }
    if (seen.size > maxPositions) return undefined;
    layer = next;
  }
  return null;
}

/**
 * The fewest pushes of any solution (moves cost nothing): a 0-1 breadth-first search over every position
 * reachable by single moves.
 *
 * @param text - an XSB level
 * @returns the fewest pushes, or `null` when the level has no solution
 */
export function exhaustiveMinPushes(text: string): number | null {
  const start = new ModelBoard(text).text();
  const best = new Map<string, number>([[start, 0]]);
  const deque: Array<[string, number]> = [[start, 0]];
  const done = new Set<string>();
  while (deque.length > 0) {
    const [board, pushes] = deque.shift()!;
    if (done.has(board)) continue;
    done.add(board);
    if (!board.includes('$')) return pushes;
    for (let a = 0; a < 4; a++) {
      const model = new ModelBoard(board);
      const { moved, pushed } = model.step(a);
      if (!moved) continue;
      const key = model.text();
      const p = pushes + (pushed ? 1 : 0);
      if ((best.get(key) ?? Number.POSITIVE_INFINITY) <= p) continue;
      best.set(key, p);
      if (pushed) deque.push([key, p]);
      else deque.unshift([key, p]);
    }
  }
  return null;
}
