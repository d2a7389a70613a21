import { describeValue } from '@ftw/internal';
import { type Board, boardFromLevel, UNREACHABLE } from './board.js';
import { formatGrid, vocabularyOf } from './format-level.js';
import { type GenerateLevelOptions, generateLevel } from './generate-level.js';
import type { Level } from './level.js';
import { searchOptimal } from './optimal-search.js';
import { parseActions } from './parse-actions.js';
import { seededUniform, type UniformRandom } from './seeded-uniform.js';
import { SokobanError } from './sokoban-error.js';
import type { SokobanWarning } from './sokoban-warning.js';
import { Tile } from './tile.js';
import {
  checkChoice,
  checkedUniform,
  checkFinite,
  checkInteger,
  checkObject,
  checkSeed,
} from './validate.js';
import { TILE_CHARACTERS, type Vocabulary } from './vocabulary.js';

/** Options of {@link SokobanEnv}. */
export interface SokobanEnvOptions {
  /**
   * The level `reset()` starts from when it is given none. Without it, every `reset()` without a level
   * generates one from the environment's random stream (with `generate`), as gym-sokoban does.
   * @defaultValue undefined
   */
  readonly level?: Level | undefined;
  /**
   * Options of {@link generateLevel} for the levels `reset()` generates.
   * @defaultValue {} (6 × 6 interior, one box)
   */
  readonly generate?: GenerateLevelOptions | undefined;
  /**
   * Steps after which an episode that has not ended is truncated: an integer ≥ 1, or `auto`, per level:
   * max(100, 3 · m) with m its certified optimal length in moves (every level is certified unless
   * `certify` is false), else max(100, 4 · F · B) with F the cells of the player's area and B the boxes.
   * An explicit limit below a level's certified optimum is reported to `onWarning`.
   * @defaultValue 'auto'
   */
  readonly maxSteps?: number | 'auto' | undefined;
  /**
   * Receives the warnings of the environment (see {@link SokobanWarning}), each once per level. The
   * package never prints.
   * @defaultValue undefined (warnings are dropped)
   */
  readonly onWarning?: ((warning: SokobanWarning) => void) | undefined;
  /**
   * `binary`: 1 on the step that solves the level, else 0. `shaped`: gym-sokoban's −0.1 per step, +1 for
   * a box pushed onto a target, −1 for a box pushed off one, +10 on solving.
   * @defaultValue 'binary'
   */
  readonly reward?: 'binary' | 'shaped' | undefined;
  /**
   * Whether an episode terminates (unsolved) when a box is pushed onto a dead square, from which it can
   * never reach a target.
   * @defaultValue false
   */
  readonly endOnDeadlock?: boolean | undefined;
  /**
   * What {@link SokobanEnv.stepText} does with a text that holds no valid action: `throw` a
   * `SokobanError` `INVALID_ACTION`, or `penalize`: take a step that leaves the board unchanged and
   * pays `invalidActionPenalty`.
   * @defaultValue 'throw'
   */
  readonly invalidAction?: 'throw' | 'penalize' | undefined;
  /**
   * The reward of an invalid text action under `invalidAction: 'penalize'` (in both reward modes).
   * @defaultValue 0
   */
  readonly invalidActionPenalty?: number | undefined;
  /**
   * Whether `reset` solves every new level handed to it (once per level object) and rejects the
   * unsolvable ones. Generated levels are always certified.
   * @defaultValue true
   */
  readonly certify?: boolean | undefined;
  /**
   * State limit of those certifying solves.
   * @defaultValue 1_000_000
   */
  readonly certifyStates?: number | undefined;
  /**
   * Seed of the default generator (any safe integer). Not allowed with `random`.
   * @defaultValue 0
   */
  readonly seed?: number | undefined;
  /**
   * An injected uniform generator on [0, 1) used instead of the default one.
   * @defaultValue undefined
   */
  readonly random?: UniformRandom | undefined;
  /**
   * What an observation's `grid` is. `copy`: a fresh copy of the board at every step, the caller's to keep.
   * `live`: the environment's own board, no copy (a copy is most of a step's cost): valid until the next
   * `step`, `stepText` or `reset`, and never to be written. For a learner that reads the grid at once (to
   * compute features) and keeps only the key.
   * @defaultValue 'copy'
   */
  readonly observationGrid?: 'copy' | 'live' | undefined;
}

/** Options of {@link SokobanEnv.reset}, Gymnasium's `reset(seed=…, options=…)`. */
export interface SokobanResetOptions {
  /** Re-seeds the environment's generator first (the level drawn next is then reproducible). */
  readonly seed?: number | undefined;
  /** `{ level }`: the level of this episode, instead of the default or a generated one. */
  readonly options?: { readonly level?: Level | undefined } | undefined;
}

/** What the agent sees. */
export interface SokobanObservation {
  /**
   * The board as tile codes, row-major: a fresh copy at every step, or the environment's own board with
   * `observationGrid: 'live'` (valid until the next step or reset; not to be written).
   */
  readonly grid: Uint8Array;
  /** Columns of `grid`. */
  readonly width: number;
  /** Rows of `grid`. */
  readonly height: number;
  /**
   * A compact key of the dynamic state (player cell, then the box cells ascending, one UTF-16 unit
   * each): two observations of one level are equal exactly when their keys are. Tabular policies over
   * several levels should prefix it with the level's identity.
   */
  readonly key: string;
}

/** Diagnostics of a reset or a step. */
export interface SokobanInfo {
  /** Steps taken in the episode (invalid text actions included). */
  readonly steps: number;
  /** Boxes standing on targets. */
  readonly boxesOnTarget: number;
  /** Whether every box stands on a target. */
  readonly solved: boolean;
  /** Whether some box stands on a dead square (off target, no target reachable from it by pushing). */
  readonly deadlocked: boolean;
  /** Whether the last step moved the player (false at reset, for bumps into walls or stuck boxes). */
  readonly moved: boolean;
  /** Whether the last step pushed a box. */
  readonly pushed: boolean;
  /** False when the last step was an invalid text action under `invalidAction: 'penalize'`. */
  readonly validAction: boolean;
  /** Actions carried out by the last call (several for a multi-action text; 0 at reset). */
  readonly actions: number;
  /** Moves of an optimal solution from the episode's start, when the level was certified; else -1. */
  readonly optimalMoves: number;
  /** The episode's step limit (`maxSteps`, or what `auto` gives for this level). */
  readonly maxSteps: number;
}

/** What {@link SokobanEnv.reset} returns. */
export interface SokobanResetResult {
  readonly observation: SokobanObservation;
  readonly info: SokobanInfo;
}

/** What {@link SokobanEnv.step} returns: Gymnasium's five-tuple as an object. */
export interface SokobanStepResult {
  readonly observation: SokobanObservation;
  /** The step's reward (summed over the actions of a multi-action text). */
  readonly reward: number;
  /** The level is solved, or (with `endOnDeadlock`) a box stands on a dead square. */
  readonly terminated: boolean;
  /** The episode's step limit (`info.maxSteps`) was reached without it terminating. */
  readonly truncated: boolean;
  readonly info: SokobanInfo;
}

interface LevelTables {
  readonly board: Board;
  readonly optimalMoves: number;
  readonly maxSteps: number;
}

/** The `auto` step limit never goes below the fixed default that earlier versions used. */
const AUTO_MIN_STEPS = 100;
/** Room for detours: `auto` allows this many times the optimal length of a certified level. */
const AUTO_OPTIMUM_FACTOR = 3;
/** Without a certified optimum, `auto` allows this many steps per (area cell × box). */
const AUTO_CELL_BOX_FACTOR = 4;

const STEP_PENALTY = -0.1;
const BOX_ON_TARGET = 1;
const BOX_OFF_TARGET = -1;
const SOLVED_BONUS = 10;

/**
 * Sokoban as a Gymnasium-shaped environment: `reset` starts an episode on a given, default or generated
 * level; `step(action)` moves the player up, down, left or right (0–3, see {@link Action}), pushing a box
 * when the cell behind it is free; the episode terminates when every box is on a target (or, with
 * `endOnDeadlock`, when a box is pushed onto a dead square) and is truncated after `maxSteps` steps
 * (by default enough for every level: see {@link SokobanEnvOptions.maxSteps}).
 * `stepText` reads an LLM's text action (see {@link parseActions}). Rewards are `binary` (the paper's
 * setting, where returns tie) or gym-sokoban's `shaped` ones.
 *
 * @example
 * ```ts
 * const env = new SokobanEnv({ level: parseLevel('######\n#@ $.#\n######') });
 * env.reset();
 * console.log(env.step(Action.Right).reward, env.step(Action.Right));
 * // 0 { observation: { grid: Uint8Array(18) [...], width: 6, height: 3, key: '\t\n' }, reward: 1,
 * //   terminated: true, truncated: false, info: { steps: 2, boxesOnTarget: 1, solved: true, ... } }
 * ```
 */
export class SokobanEnv {
  /** Number of actions: Up, Down, Left, Right. */
  readonly numActions = 4;
  private readonly defaultLevel: Level | undefined;
  private readonly generateOptions: GenerateLevelOptions;
  /** The explicit step limit; undefined for `auto`. */
  private readonly maxSteps: number | undefined;
  private readonly onWarning: ((warning: SokobanWarning) => void) | undefined;
  private limit = 0;
  private readonly shaped: boolean;
  private readonly endOnDeadlock: boolean;
  private readonly penalize: boolean;
  private readonly invalidPenalty: number;
  private readonly certify: boolean;
  private readonly certifyStates: number;
  private readonly liveGrid: boolean;
  private readonly injected: boolean;
  private uniform: UniformRandom;
  private readonly tables = new WeakMap<Level, LevelTables>();

  private board: Board | undefined;
  private level: Level | undefined;
  private grid = new Uint8Array(0);
  private boxes = new Uint16Array(0);
  private player = 0;
  private boxesOnTarget = 0;
  private boxesOnDead = 0;
  private steps = 0;
  private optimalMoves = -1;
  private open = false;
  private started = false;

  /**
   * @param options - level or generation options, episode limits, reward, error handling, randomness
   * @throws TypeError/RangeError on a bad option; SokobanError `MALFORMED_LEVEL` for a bad `level`
   */
  constructor(options: SokobanEnvOptions = {}) {
    checkObject(options, 'options');
    if (options.level !== undefined) boardFromLevel(options.level, 'options.level');
    this.defaultLevel = options.level;
    if (options.generate !== undefined) checkObject(options.generate, 'options.generate');
    this.generateOptions = options.generate ?? {};
    if (typeof options.maxSteps === 'string' && options.maxSteps !== 'auto') {
      throw new TypeError(
        `options.maxSteps must be an integer >= 1 or 'auto', got ${describeValue(options.maxSteps)}`,
      );
    }
    this.maxSteps =
      options.maxSteps === undefined || options.maxSteps === 'auto'
        ? undefined
        : checkInteger(options.maxSteps, 'options.maxSteps', 1, Number.MAX_SAFE_INTEGER);
    if (options.onWarning !== undefined && typeof options.onWarning !== 'function') {
      throw new TypeError(`options.onWarning must be a function, got ${describeValue(options.onWarning)}`);
    }
    this.onWarning = options.onWarning;
    this.shaped =
      checkChoice(options.reward ?? 'binary', 'options.reward', ['binary', 'shaped']) === 'shaped';
    this.endOnDeadlock = checkBoolean(options.endOnDeadlock ?? false, 'options.endOnDeadlock');
    this.penalize =
      checkChoice(options.invalidAction ?? 'throw', 'options.invalidAction', ['throw', 'penalize']) ===
      'penalize';
    this.invalidPenalty = checkFinite(options.invalidActionPenalty ?? 0, 'options.invalidActionPenalty');
    this.certify = checkBoolean(options.certify ?? true, 'options.certify');
    this.certifyStates = checkInteger(
      options.certifyStates ?? 1_000_000,
      'options.certifyStates',
      1,
      Number.MAX_SAFE_INTEGER,
    );
    this.liveGrid =
      checkChoice(options.observationGrid ?? 'copy', 'options.observationGrid', ['copy', 'live']) === 'live';
    if (options.seed !== undefined && options.random !== undefined) {
      throw new TypeError('options.seed and options.random cannot both be given');
    }
    this.injected = options.random !== undefined;
    this.uniform = this.injected
      ? checkedUniform(options.random, 'options.random')
      : seededUniform(checkSeed(options.seed ?? 0, 'options.seed'));
  }

  /**
   * Starts an episode: re-seeds when `seed` is given, then takes `options.level`, else the environment's
   * level, else generates one from the random stream. A level seen for the first time is validated and
   * (with `certify`) solved; its tables are kept for later episodes.
   *
   * @param options - optional `{ seed, options: { level } }`
   * @returns the first observation and `info` (steps 0, boxes on target, optimal moves)
   * @throws TypeError/RangeError on bad options; SokobanError `MALFORMED_LEVEL`, `UNSOLVABLE_LEVEL`,
   *   `SOLVER_LIMIT` for a level that cannot be played or certified, `NOT_RESEEDABLE` for a seed given
   *   to an environment built with `random`, `GENERATION_FAILED` from generation
   */
  reset(options?: SokobanResetOptions): SokobanResetResult {
    let level: Level | undefined;
    if (options !== undefined) {
      checkObject(options, 'options');
      if (options.seed !== undefined) {
        checkSeed(options.seed, 'options.seed');
        if (this.injected) {
          throw new SokobanError(
            'NOT_RESEEDABLE',
            `reset({ seed: ${options.seed} }) cannot re-seed an injected random function; build the environment with { seed } instead`,
          );
        }
        this.uniform = seededUniform(options.seed);
      }
      if (options.options !== undefined) {
        checkObject(options.options, 'options.options');
        level = options.options.level;
      }
    }
    let tables: LevelTables | undefined;
    level ??= this.defaultLevel;
    if (level === undefined) {
      const generated = generateLevel(this.generateOptions, this.uniform);
      level = generated.level;
      tables = this.newTables(boardFromLevel(level, 'level'), generated.moves);
    }
    tables ??= this.tables.get(level);
    let warning: SokobanWarning | undefined;
    if (tables === undefined || !this.tables.has(level)) {
      tables ??= this.tablesOf(level);
      this.tables.set(level, tables);
      warning = this.warningFor(tables);
    }
    const { board } = tables;
    this.board = board;
    this.level = level;
    this.grid = level.grid.slice();
    this.boxes = board.boxes.slice();
    this.player = board.player;
    this.boxesOnTarget = 0;
    this.boxesOnDead = 0;
    for (const b of this.boxes) {
      if (board.target[b] === 1) this.boxesOnTarget++;
      else if (board.pushDistance[b] === UNREACHABLE) this.boxesOnDead++;
    }
    this.steps = 0;
    this.optimalMoves = tables.optimalMoves;
    this.limit = tables.maxSteps;
    this.open = true;
    this.started = true;
    // Reported once the episode is set up, so a throwing callback leaves a usable environment.
    if (warning !== undefined) this.onWarning?.(warning);
    return { observation: this.observe(), info: this.info(false, false, true, 0) };
  }

  /**
   * Takes one action.
   *
   * @param action - 0 Up, 1 Down, 2 Left, 3 Right
   * @returns `{ observation, reward, terminated, truncated, info }`
   * @throws TypeError/RangeError when `action` is not an integer in [0, 3] (nothing changes);
   *   SokobanError `RESET_REQUIRED` before the first `reset` or after the episode ended
   */
  step(action: number): SokobanStepResult {
    checkInteger(action, 'action', 0, 3);
    this.checkOpen();
    const before = this.boxesOnTarget;
    const { moved, pushed } = this.move(action);
    return this.finish(this.stepReward(before), moved, pushed, true, 1);
  }

  /**
   * Takes the actions of an LLM's text reply (see {@link parseActions}) one after another, stopping
   * early when the episode ends; each counts as a step. A text without a valid action throws, or under
   * `invalidAction: 'penalize'` takes one step that changes nothing and pays `invalidActionPenalty`.
   *
   * @param text - the reply, e.g. `<answer>Right || Up</answer>`
   * @returns the last step's result with the rewards of every action summed
   * @throws TypeError when `text` is not a string; SokobanError `INVALID_ACTION` (unless penalized),
   *   `RESET_REQUIRED`
   */
  stepText(text: string): SokobanStepResult {
    if (typeof text !== 'string') throw new TypeError(`text must be a string, got ${describeValue(text)}`);
    this.checkOpen();
    let actions: number[];
    try {
      actions = parseActions(text);
    } catch (error) {
      if (!this.penalize || !(error instanceof SokobanError)) throw error;
      return this.finish(this.invalidPenalty, false, false, false, 0);
    }
    let total = 0;
    let result: SokobanStepResult | undefined;
    for (let i = 0; i < actions.length; i++) {
      const before = this.boxesOnTarget;
      const { moved, pushed } = this.move(actions[i]!);
      total += this.stepReward(before);
      result = this.finish(total, moved, pushed, true, i + 1);
      if (result.terminated || result.truncated) break;
    }
    return result!;
  }

  /**
   * @param vocabulary - `xsb` (default) or `ragen`
   * @returns the current board as text, one line per row (what an LLM agent is shown)
   * @throws TypeError on an unknown vocabulary; SokobanError `RESET_REQUIRED` before the first reset
   */
  render(vocabulary?: Vocabulary): string {
    const characters = TILE_CHARACTERS[vocabularyOf(vocabulary === undefined ? undefined : { vocabulary })];
    if (!this.started || this.level === undefined) {
      throw new SokobanError('RESET_REQUIRED', 'render() before reset(): there is no board yet');
    }
    return formatGrid(this.grid, this.level.width, this.level.height, characters);
  }

  private tablesOf(level: Level): LevelTables {
    const board = boardFromLevel(level, 'options.options.level');
    let optimalMoves = -1;
    if (this.certify) {
      const outcome = searchOptimal(board, board.boxes, board.player, this.certifyStates);
      if (outcome.status === 'unsolvable') {
        throw new SokobanError('UNSOLVABLE_LEVEL', 'the level has no solution (proved by exhaustive search)');
      }
      if (outcome.status === 'limit') {
        throw new SokobanError(
          'SOLVER_LIMIT',
          `the solver gave up after ${outcome.states} states without certifying the level; raise certifyStates or pass certify: false`,
        );
      }
      optimalMoves = outcome.moves;
    }
    let solved = true;
    for (const b of board.boxes) solved &&= board.target[b] === 1;
    if (solved) {
      throw new SokobanError('MALFORMED_LEVEL', 'every box already stands on a target: nothing to play');
    }
    return this.newTables(board, optimalMoves);
  }

  /** The level's tables with its step limit: the explicit one, else the `auto` rule of `maxSteps`. */
  private newTables(board: Board, optimalMoves: number): LevelTables {
    let maxSteps = this.maxSteps;
    if (maxSteps === undefined) {
      if (optimalMoves >= 0) {
        maxSteps = Math.max(AUTO_MIN_STEPS, AUTO_OPTIMUM_FACTOR * optimalMoves);
      } else {
        let cells = 0;
        for (let c = 0; c < board.size; c++) cells += board.area[c]!;
        maxSteps = Math.max(AUTO_MIN_STEPS, AUTO_CELL_BOX_FACTOR * cells * board.boxes.length);
      }
    }
    return { board, optimalMoves, maxSteps };
  }

  private warningFor(tables: LevelTables): SokobanWarning | undefined {
    const { maxSteps, optimalMoves } = tables;
    if (this.maxSteps === undefined || maxSteps >= optimalMoves) return undefined;
    return {
      code: 'MAX_STEPS_BELOW_OPTIMUM',
      message: `maxSteps ${maxSteps} is below the level's optimal solution length of ${optimalMoves} moves: no episode on it can be solved; raise maxSteps or use 'auto'`,
      maxSteps,
      optimalMoves,
    };
  }

  private checkOpen(): void {
    if (!this.open) {
      throw new SokobanError(
        'RESET_REQUIRED',
        this.started
          ? 'step after the episode ended (terminated or truncated): call reset() first'
          : 'step before reset(): call reset() to start an episode',
      );
    }
  }

  /** Applies one action to the board; returns what happened. */
  private move(action: number): { moved: boolean; pushed: boolean } {
    const board = this.board!;
    const grid = this.grid;
    const o = board.offsets[action]!;
    const next = this.player + o;
    const tile = grid[next]!;
    this.steps++;
    if (tile === Tile.Wall) return NOT_MOVED;
    let pushed = false;
    if (tile === Tile.Box || tile === Tile.BoxOnTarget) {
      const behind = next + o;
      const free = grid[behind]!;
      if (free !== Tile.Floor && free !== Tile.Target) return NOT_MOVED;
      grid[behind] = free === Tile.Target ? Tile.BoxOnTarget : Tile.Box;
      grid[next] = tile === Tile.BoxOnTarget ? Tile.Target : Tile.Floor;
      this.moveBox(next, behind);
      pushed = true;
    }
    grid[this.player] = grid[this.player] === Tile.PlayerOnTarget ? Tile.Target : Tile.Floor;
    grid[next] = grid[next] === Tile.Target ? Tile.PlayerOnTarget : Tile.Player;
    this.player = next;
    return pushed ? PUSHED : MOVED;
  }

  private moveBox(from: number, to: number): void {
    const board = this.board!;
    const boxes = this.boxes;
    if (board.target[from] === 1) this.boxesOnTarget--;
    else if (board.pushDistance[from] === UNREACHABLE) this.boxesOnDead--;
    if (board.target[to] === 1) this.boxesOnTarget++;
    else if (board.pushDistance[to] === UNREACHABLE) this.boxesOnDead++;
    let i = boxes.indexOf(from);
    boxes[i] = to;
    while (i > 0 && boxes[i - 1]! > to) {
      boxes[i] = boxes[i - 1]!;
      boxes[--i] = to;
    }
    while (i < boxes.length - 1 && boxes[i + 1]! < to) {
      boxes[i] = boxes[i + 1]!;
      boxes[++i] = to;
    }
  }

  private stepReward(boxesBefore: number): number {
    const solved = this.boxesOnTarget === this.boxes.length;
    if (!this.shaped) return solved ? 1 : 0;
    let reward = STEP_PENALTY;
    if (this.boxesOnTarget > boxesBefore) reward += BOX_ON_TARGET;
    else if (this.boxesOnTarget < boxesBefore) reward += BOX_OFF_TARGET;
    if (solved) reward += SOLVED_BONUS;
    return reward;
  }

  private finish(
    reward: number,
    moved: boolean,
    pushed: boolean,
    validAction: boolean,
    actions: number,
  ): SokobanStepResult {
    if (!validAction) this.steps++;
    const solved = this.boxesOnTarget === this.boxes.length;
    const terminated = solved || (this.endOnDeadlock && this.boxesOnDead > 0);
    const truncated = !terminated && this.steps >= this.limit;
    if (terminated || truncated) this.open = false;
    return {
      observation: this.observe(),
      reward,
      terminated,
      truncated,
      info: this.info(moved, pushed, validAction, actions),
    };
  }

  private observe(): SokobanObservation {
    const level = this.level!;
    return {
      grid: this.liveGrid ? this.grid : this.grid.slice(),
      width: level.width,
      height: level.height,
      key: this.key(),
    };
  }

  /**
   * The state key: the player's cell, then the box cells ascending, one UTF-16 unit each. Built by
   * concatenation: spreading the boxes into `String.fromCharCode` cost ten times as much (160–220 ns
   * against 11–28 ns for one to three boxes), the largest cost of a step.
   */
  private key(): string {
    const boxes = this.boxes;
    let key = String.fromCharCode(this.player);
    for (let i = 0; i < boxes.length; i++) key += String.fromCharCode(boxes[i]!);
    return key;
  }

  private info(moved: boolean, pushed: boolean, validAction: boolean, actions: number): SokobanInfo {
    return {
      steps: this.steps,
      boxesOnTarget: this.boxesOnTarget,
      solved: this.boxesOnTarget === this.boxes.length,
      deadlocked: this.boxesOnDead > 0,
      moved,
      pushed,
      validAction,
      actions,
      optimalMoves: this.optimalMoves,
      maxSteps: this.limit,
    };
  }
}

const NOT_MOVED = Object.freeze({ moved: false, pushed: false });
const MOVED = Object.freeze({ moved: true, pushed: false });
const PUSHED = Object.freeze({ moved: true, pushed: true });

function checkBoolean(value: unknown, name: string): boolean {
  if (typeof value !== 'boolean')
    throw new TypeError(`${name} must be a boolean, got ${describeValue(value)}`);
  return value;
}
