import { describeValue } from '@ftw/internal';
import type { Level } from './level.js';
import { SokobanError } from './sokoban-error.js';
import { Tile } from './tile.js';

/** Push distance of a cell from which no target can be reached: larger than any real distance. */
export const UNREACHABLE = 0x3fff_ffff;
/** Cell indices are kept in `Uint16Array`s and string keys use one UTF-16 unit per cell. */
export const MAX_CELLS = 65_535;

/**
 * The static analysis of a level that the solver, the generator and the environment share: walls,
 * targets, the player's area, and for every cell the fewest pushes that bring a box from it to some
 * target when the other boxes are ignored (Junghanns and Schaeffer's "simple deadlock" table: a cell with
 * no such path is dead). Internal; not exported from the package.
 *
 * Method. The distances come from one breadth-first search over pulls started at every target at once:
 * a box at c + o can be pushed to c (the player standing at c + 2o) exactly when c + o and c + 2o are not
 * walls, so dist(c + o) ≤ dist(c) + 1. Reference: A. Junghanns and J. Schaeffer, "Sokoban: enhancing
 * general single-agent search methods using domain knowledge", Artificial Intelligence 129 (2001).
 */
export class Board {
  /** What error messages call the level. */
  readonly name: string;
  readonly width: number;
  readonly height: number;
  readonly size: number;
  /** 1 on walls. */
  readonly wall: Uint8Array;
  /** 1 on targets. */
  readonly target: Uint8Array;
  /** 1 on the cells the player could reach if every box were floor. */
  readonly area: Uint8Array;
  /** Fewest pushes from the cell to a target ignoring other boxes; {@link UNREACHABLE} when dead. */
  readonly pushDistance: Int32Array;
  /** Target cells, ascending. */
  readonly targets: Uint16Array;
  /**
   * `targetDistance[t · size + c]`: fewest pushes bringing a box from c to the t-th target, other boxes
   * ignored; {@link UNREACHABLE} when impossible.
   */
  readonly targetDistance: Int32Array;
  /** Cell offsets of Up, Down, Left, Right. */
  readonly offsets: Int32Array;
  /** The initial box cells, ascending. */
  readonly boxes: Uint16Array;
  /** The initial player cell. */
  readonly player: number;

  /**
   * @param width - columns
   * @param height - rows
   * @param wall - 1 on walls
   * @param target - 1 on targets
   * @param boxes - box cells, ascending
   * @param player - player cell; its area must not touch the edge of the grid
   * @param name - what to call the level in error messages
   */
  constructor(
    width: number,
    height: number,
    wall: Uint8Array,
    target: Uint8Array,
    boxes: Uint16Array,
    player: number,
    name = 'level',
  ) {
    this.name = name;
    this.width = width;
    this.height = height;
    this.size = width * height;
    this.wall = wall;
    this.target = target;
    this.boxes = boxes;
    this.player = player;
    const size = this.size;
    this.offsets = Int32Array.of(-width, width, -1, 1);
    this.area = new Uint8Array(size);
    const targets: number[] = [];
    for (let c = 0; c < size; c++) if (target[c] === 1) targets.push(c);
    this.targets = Uint16Array.from(targets);
    const n = targets.length;
    // One allocation for the queue, the per-target tables and (with several targets) their minimum.
    const buffer = new Int32Array(size * (n === 1 ? 2 : n + 2));
    const queue = buffer.subarray(0, size);
    floodArea(this, player, queue);
    buffer.fill(UNREACHABLE, size);
    this.targetDistance = buffer.subarray(size, size * (n + 1));
    for (let i = 0; i < n; i++) {
      pullDistances(
        this,
        targets.slice(i, i + 1),
        this.targetDistance.subarray(i * size, (i + 1) * size),
        queue,
      );
    }
    if (n === 1) {
      this.pushDistance = this.targetDistance;
    } else {
      this.pushDistance = buffer.subarray(size * (n + 1));
      pullDistances(this, targets, this.pushDistance, queue);
    }
  }
}

/**
 * Breadth-first search over pulls from `sources` at once, writing into `out` (pre-filled with
 * {@link UNREACHABLE}) the fewest pushes from each cell to the nearest source.
 */
function pullDistances(board: Board, sources: readonly number[], out: Int32Array, queue: Int32Array): void {
  const { wall, area, offsets } = board;
  let tail = 0;
  for (const c of sources) {
    out[c] = 0;
    // A target outside the player's area can only hold a box that never moves.
    if (area[c] === 1) queue[tail++] = c;
  }
  for (let head = 0; head < tail; head++) {
    const c = queue[head]!;
    const next = out[c]! + 1;
    for (let d = 0; d < 4; d++) {
      const o = offsets[d]!;
      const from = c + o;
      if (wall[from] === 1 || wall[from + o] === 1 || out[from]! <= next) continue;
      out[from] = next;
      queue[tail++] = from;
    }
  }
}

function floodArea(board: Board, player: number, queue: Int32Array): void {
  const { wall, area, offsets, width, height } = board;
  let tail = 0;
  area[player] = 1;
  queue[tail++] = player;
  for (let head = 0; head < tail; head++) {
    const c = queue[head]!;
    const x = c % width;
    const y = (c - x) / width;
    if (x === 0 || y === 0 || x === width - 1 || y === height - 1) {
      throw new SokobanError(
        'MALFORMED_LEVEL',
        `${board.name}: the player can walk to the edge of the board at row ${y + 1}, column ${x + 1}; a level must be enclosed by walls`,
      );
    }
    for (let d = 0; d < 4; d++) {
      const n = c + offsets[d]!;
      if (wall[n] === 0 && area[n] === 0) {
        area[n] = 1;
        queue[tail++] = n;
      }
    }
  }
}

/**
 * Validates a level and builds its {@link Board}.
 *
 * @param level - the received level
 * @param name - the parameter name for messages
 * @returns the board
 * @throws TypeError when `level` is not a level-shaped object; SokobanError `MALFORMED_LEVEL` when it
 *   breaks a rule of {@link Level}
 */
export function boardFromLevel(level: unknown, name: string): Board {
  if (typeof level !== 'object' || level === null) {
    throw new TypeError(`${name} must be a level { width, height, grid }, got ${describeValue(level)}`);
  }
  const { width, height, grid } = level as Partial<Level>;
  if (typeof width !== 'number' || !Number.isInteger(width) || width < 3) {
    throw new RangeError(`${name}.width must be an integer >= 3, got ${describeValue(width)}`);
  }
  if (typeof height !== 'number' || !Number.isInteger(height) || height < 3) {
    throw new RangeError(`${name}.height must be an integer >= 3, got ${describeValue(height)}`);
  }
  if (width * height > MAX_CELLS) {
    throw new RangeError(`${name} must have at most ${MAX_CELLS} cells, got ${width} × ${height}`);
  }
  if (!(grid instanceof Uint8Array) || grid.length !== width * height) {
    throw new TypeError(
      `${name}.grid must be a Uint8Array of length width · height = ${width * height}, got ${describeValue(grid)}`,
    );
  }
  const size = width * height;
  const wall = new Uint8Array(size);
  const target = new Uint8Array(size);
  const boxes: number[] = [];
  let player = -1;
  let players = 0;
  let targets = 0;
  for (let c = 0; c < size; c++) {
    const tile = grid[c]!;
    if (tile > Tile.PlayerOnTarget) {
      throw new SokobanError(
        'MALFORMED_LEVEL',
        `${name}.grid[${c}] is ${tile}, not a tile code (0 to 6, see Tile)`,
      );
    }
    if (tile === Tile.Wall) wall[c] = 1;
    if (tile === Tile.Target || tile === Tile.BoxOnTarget || tile === Tile.PlayerOnTarget) {
      target[c] = 1;
      targets++;
    }
    if (tile === Tile.Box || tile === Tile.BoxOnTarget) boxes.push(c);
    if (tile === Tile.Player || tile === Tile.PlayerOnTarget) {
      player = c;
      players++;
    }
  }
  if (players !== 1) {
    throw new SokobanError('MALFORMED_LEVEL', `${name} must hold exactly one player, found ${players}`);
  }
  if (boxes.length === 0) throw new SokobanError('MALFORMED_LEVEL', `${name} holds no box`);
  if (boxes.length !== targets) {
    throw new SokobanError(
      'MALFORMED_LEVEL',
      `${name} must hold as many targets as boxes, found ${boxes.length} boxes and ${targets} targets`,
    );
  }
  return new Board(width, height, wall, target, Uint16Array.from(boxes), player, name);
}
