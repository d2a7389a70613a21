import { describeValue } from '@ftw/internal';
import { Board } from './board.js';
import type { Level } from './level.js';
import { searchOptimal } from './optimal-search.js';
import { reverseSearch } from './reverse-search.js';
import { roomTopology } from './room-topology.js';
import { seededUniform, type UniformRandom } from './seeded-uniform.js';
import { SokobanError } from './sokoban-error.js';
import { Tile } from './tile.js';
import { checkedUniform, checkFinite, checkInteger, checkObject } from './validate.js';

/** Options of {@link generateLevel}. */
export interface GenerateLevelOptions {
  /**
   * Interior columns; a wall border is added around, so the level is `width + 2` wide.
   * @defaultValue 6
   */
  readonly width?: number | undefined;
  /**
   * Interior rows; the level is `height + 2` high.
   * @defaultValue 6
   */
  readonly height?: number | undefined;
  /**
   * Number of boxes (and targets), 1 to 10.
   * @defaultValue 1
   */
  readonly boxes?: number | undefined;
  /**
   * Fewest moves of the level's optimal solution.
   * @defaultValue 1
   */
  readonly minMoves?: number | undefined;
  /**
   * Most moves of the level's optimal solution (`Infinity` for no bound). A finite bound also caps the
   * reverse search at that many pulls.
   * @defaultValue Infinity
   */
  readonly maxMoves?: number | undefined;
  /**
   * Probability that the room-carving walk draws a new direction at a step (gym-sokoban's
   * `p_change_directions`).
   * @defaultValue 0.35
   */
  readonly turnProbability?: number | undefined;
  /**
   * Steps of the room-carving walk; gym-sokoban's ⌊1.7 · (W + H)⌋ with W, H the level's outer size.
   * @defaultValue ⌊1.7 · (width + height + 4)⌋
   */
  readonly walkSteps?: number | undefined;
  /**
   * Rooms tried before giving up with `GENERATION_FAILED`.
   * @defaultValue 1000
   */
  readonly maxAttempts?: number | undefined;
  /**
   * States kept by the reverse search of one room (more states reach deeper, harder positions).
   * @defaultValue 600 for one box, 4000 otherwise
   */
  readonly reverseStates?: number | undefined;
  /**
   * State limit of each certifying solve; a candidate whose solve gives up is dropped.
   * @defaultValue 200_000
   */
  readonly solverStates?: number | undefined;
}

/** A level from {@link generateLevel}, with its certificate. */
export interface GeneratedLevel {
  /** The level, walls included. */
  readonly level: Level;
  /** Moves of an optimal solution, found by the forward solver. */
  readonly moves: number;
  /** Pushes of that solution (the fewest among move-optimal ones). */
  readonly pushes: number;
  /** The solution in LURD notation (`u d l r` moves, `U D L R` pushes). */
  readonly path: string;
  /** Rooms carved, this one included. */
  readonly attempts: number;
}

/** Certifying solves tried per room before a new room is carved. */
const CANDIDATES_PER_ROOM = 4;

/**
 * Generates a Sokoban level from a seed, certified solvable by an optimal solver, with an optimal
 * solution length in [minMoves, maxMoves].
 *
 * Method (after gym-sokoban). (1) Carve a room by a random walk of ⌊1.7 · (W + H)⌋ steps that turns with
 * probability 0.35 and carves a random 3 × 3 mask at each step. (2) Put the player and the boxes on
 * random distinct floor cells; the box cells are the targets. (3) Play backwards: a breadth-first search
 * of pulls from this solved position over (boxes, player region) states, up to `reverseStates` states;
 * every state it finds is solvable. (4) Take a random state of the deepest layer with every box off its
 * target, put the player on a random cell of its region, and solve it forward with the optimal solver
 * (A*, see {@link solve}); a solution length in range makes the level, one too long moves to a
 * shallower layer, one too short (or no candidate) carves a new room. gym-sokoban instead scores states
 * of a depth-first reverse search by box swaps × box displacement; the deepest-layer rule aims at the
 * same thing (levels far from solved) at a fraction of the cost.
 *
 * Same seed (or same stream of uniforms) and options ⇒ same level, bit for bit, on every platform:
 * integers are drawn as ⌊u · n⌋ from 53-bit uniforms and no step depends on hash iteration order.
 *
 * @param options - size, boxes, difficulty range and search tunables (all optional)
 * @param random - a seed (any safe integer, for {@link seededUniform}) or a uniform generator on [0, 1)
 * @returns the level with its optimal moves, pushes and solution path
 * @throws TypeError/RangeError on a bad option or `random`; SokobanError `GENERATION_FAILED` when no
 *   room in `maxAttempts` gives a level in the difficulty range
 *
 * @example
 * ```ts
 * const { level, moves, pushes, path } = generateLevel({ width: 6, height: 6, boxes: 1 }, 0);
 * console.log(formatLevel(level));
 * // ########
 * // ##@    #
 * // ##   $ #
 * // ####   #
 * // ####   #
 * // ####   #
 * // ####.  #
 * // ########
 * console.log(moves, pushes, path);
 * // 10 5 rrrDDDDrdL
 * ```
 */
export function generateLevel(options: GenerateLevelOptions, random: UniformRandom | number): GeneratedLevel {
  checkObject(options, 'options');
  const width = checkInteger(options.width ?? 6, 'options.width', 3, 100);
  const height = checkInteger(options.height ?? 6, 'options.height', 3, 100);
  const k = checkInteger(options.boxes ?? 1, 'options.boxes', 1, 10);
  const minMoves = checkInteger(options.minMoves ?? 1, 'options.minMoves', 1, Number.MAX_SAFE_INTEGER);
  const maxMoves = options.maxMoves ?? Number.POSITIVE_INFINITY;
  if (maxMoves !== Number.POSITIVE_INFINITY) {
    checkInteger(maxMoves, 'options.maxMoves', minMoves, Number.MAX_SAFE_INTEGER);
  }
  const turnProbability = checkFinite(options.turnProbability ?? 0.35, 'options.turnProbability');
  if (turnProbability < 0 || turnProbability > 1) {
    throw new RangeError(`options.turnProbability must be in [0, 1], got ${describeValue(turnProbability)}`);
  }
  const walkSteps = checkInteger(
    options.walkSteps ?? Math.floor(1.7 * (width + height + 4)),
    'options.walkSteps',
    1,
    1_000_000,
  );
  const maxAttempts = checkInteger(
    options.maxAttempts ?? 1000,
    'options.maxAttempts',
    1,
    Number.MAX_SAFE_INTEGER,
  );
  const reverseStates = checkInteger(
    options.reverseStates ?? (k === 1 ? 600 : 4000),
    'options.reverseStates',
    2,
    10_000_000,
  );
  const solverStates = checkInteger(options.solverStates ?? 200_000, 'options.solverStates', 1, 100_000_000);
  const uniform = typeof random === 'number' ? seededUniform(random) : checkedUniform(random, 'random');

  const w = width + 2;
  const size = w * (height + 2);
  const maxDepth = maxMoves === Number.POSITIVE_INFINITY ? Number.MAX_SAFE_INTEGER : maxMoves;
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const floor = roomTopology(width, height, walkSteps, turnProbability, uniform);
    const cells: number[] = [];
    for (let c = 0; c < size; c++) if (floor[c] === 1) cells.push(c);
    if (cells.length <= k + 1) continue;
    const player = takeRandom(cells, uniform);
    const boxList: number[] = [];
    for (let j = 0; j < k; j++) boxList.push(takeRandom(cells, uniform));
    const boxes = Uint16Array.from(boxList).sort();
    const wall = new Uint8Array(size);
    for (let c = 0; c < size; c++) wall[c] = 1 - floor[c]!;
    const target = new Uint8Array(size);
    for (const b of boxes) target[b] = 1;
    const board = new Board(w, height + 2, wall, target, boxes, player);
    const states = reverseSearch(board, boxes, player, reverseStates, maxDepth);
    const found = certifyCandidate(board, states, k, minMoves, maxMoves, solverStates, uniform);
    if (found === undefined) continue;
    const grid = new Uint8Array(size);
    for (let c = 0; c < size; c++) {
      grid[c] = wall[c] === 1 ? Tile.Wall : target[c] === 1 ? Tile.Target : Tile.Floor;
    }
    for (const b of found.boxes) grid[b] = target[b] === 1 ? Tile.BoxOnTarget : Tile.Box;
    grid[found.player] = target[found.player] === 1 ? Tile.PlayerOnTarget : Tile.Player;
    return {
      level: { width: w, height: height + 2, grid },
      moves: found.moves,
      pushes: found.pushes,
      path: found.path,
      attempts: attempt,
    };
  }
  throw new SokobanError(
    'GENERATION_FAILED',
    `no ${width}×${height} level with ${k} box${k === 1 ? '' : 'es'} and an optimal solution of ${minMoves} to ${maxMoves} moves in ${maxAttempts} rooms; widen the range or raise maxAttempts or reverseStates`,
  );
}

/** Removes and returns a uniformly drawn element. */
function takeRandom(cells: number[], uniform: () => number): number {
  const i = Math.floor(uniform() * cells.length);
  const cell = cells[i]!;
  cells[i] = cells[cells.length - 1]!;
  cells.pop();
  return cell;
}

interface Candidate {
  readonly boxes: Uint16Array;
  readonly player: number;
  readonly moves: number;
  readonly pushes: number;
  readonly path: string;
}

function certifyCandidate(
  board: Board,
  states: ReturnType<typeof reverseSearch>,
  k: number,
  minMoves: number,
  maxMoves: number,
  solverStates: number,
  uniform: () => number,
): Candidate | undefined {
  const { layerStart, boxes, region, first } = states;
  let layer = layerStart.length - 2;
  for (let tries = 0; tries < CANDIDATES_PER_ROOM && layer >= 1; ) {
    const eligible: number[] = [];
    for (let s = layerStart[layer]!; s < layerStart[layer + 1]!; s++) {
      let off = first[s] === 1;
      for (let j = 0; j < k && off; j++) off = board.target[boxes[s * k + j]!] === 0;
      if (off) eligible.push(s);
    }
    if (eligible.length === 0) {
      layer--;
      continue;
    }
    tries++;
    const s = eligible[Math.floor(uniform() * eligible.length)]!;
    const stateBoxes = boxes.slice(s * k, s * k + k);
    const player = randomRegionCell(board, stateBoxes, region[s]!, uniform);
    const outcome = searchOptimal(board, stateBoxes, player, solverStates);
    if (outcome.status !== 'solved') {
      layer--;
      continue;
    }
    if (outcome.moves < minMoves) return undefined;
    if (outcome.moves <= maxMoves) {
      return { boxes: stateBoxes, player, moves: outcome.moves, pushes: outcome.pushes, path: outcome.path };
    }
    layer = Math.min(layer - 1, Math.floor((layer * maxMoves) / outcome.moves));
  }
  return undefined;
}

/** A uniformly drawn cell of the player's region (cells in ascending order, so the draw is portable). */
function randomRegionCell(board: Board, boxes: Uint16Array, from: number, uniform: () => number): number {
  const { size, wall, offsets } = board;
  const blocked = new Uint8Array(size);
  for (const b of boxes) blocked[b] = 1;
  const seen = new Uint8Array(size);
  const queue = [from];
  seen[from] = 1;
  for (let head = 0; head < queue.length; head++) {
    const c = queue[head]!;
    for (let d = 0; d < 4; d++) {
      const n = c + offsets[d]!;
      if (wall[n] === 0 && blocked[n] === 0 && seen[n] === 0) {
        seen[n] = 1;
        queue.push(n);
      }
    }
  }
  queue.sort((a, b) => a - b);
  return queue[Math.floor(uniform() * queue.length)]!;
}
