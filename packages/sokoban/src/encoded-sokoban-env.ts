import { GRID_CHANNELS, gridChannels } from './grid-channels.js';
import type { Level } from './level.js';
import { SokobanEnv } from './sokoban-env.js';
import { SOKOBAN_FEATURE_COUNT, sokobanFeatures } from './sokoban-features.js';
import { checkChoice } from './validate.js';

/** How {@link EncodedSokobanEnv} shows a position to a policy. */
export type SokobanEncoding = 'grid' | 'features';

/** A batched policy as {@link EncodedSokobanEnv.evaluate} reads it (`@ftw/trainer`'s `Policy` fits). */
export interface BatchLogits {
  /**
   * @param observations - `rows × observationSize` numbers, row-major
   * @param rows - number of rows
   * @param out - receives 4 logits per row
   */
  logits(observations: Float32Array, rows: number, out: Float64Array): unknown;
}

/** Options of {@link EncodedSokobanEnv}. */
export interface EncodedSokobanEnvOptions {
  /** The training levels, certified solvable (episodes draw one uniformly). */
  readonly levels: readonly Level[];
  /** Levels never trained on, played by {@link EncodedSokobanEnv.evaluate}. @defaultValue [] */
  readonly heldOut?: readonly Level[];
  /** `grid`: {@link gridChannels} planes; `features`: {@link sokobanFeatures}. */
  readonly encoding: SokobanEncoding;
  /** Steps after which an episode is truncated, an integer ≥ 1. */
  readonly maxSteps: number;
  /** See `SokobanEnvOptions.reward`. @defaultValue 'binary' */
  readonly reward?: 'binary' | 'shaped';
  /** Subtracted from every step's reward (a per-step cost). @defaultValue 0 */
  readonly stepCost?: number;
  /** Uniform on [0, 1): draws each episode's level. */
  readonly random: () => number;
  /**
   * Training levels played by each evaluation: the first this many (all when fewer). @defaultValue 100
   */
  readonly evaluationLevels?: number;
  /** Greedy plays run side by side in one evaluation batch. @defaultValue 64 */
  readonly evaluationBatch?: number;
}

/**
 * Sokoban as an environment with numeric observations, for a network (an MLP or a convolutional policy),
 * shaped as `@ftw/trainer`'s `Environment`: `reset()` plays a training level drawn uniformly from
 * `random`, each observation is the position encoded ({@link SokobanEncoding}; one array, reused: copy
 * what you keep), and an episode ends when the level is solved (terminated) or after `maxSteps` steps
 * (truncated). Grids are padded with wall to the largest level of both sets, so one network reads them all.
 *
 * `evaluate(policy)` plays levels with the greedy policy (the largest logit, the lowest action among ties),
 * many side by side with one batched `logits` call per step: the score is the share of the first
 * `evaluationLevels` training levels solved, `heldOutSuccess` that of every held-out level.
 *
 * @example
 * ```ts
 * const env = new EncodedSokobanEnv({ levels, heldOut, encoding: 'grid', maxSteps: 60, random });
 * env.observationSize; // 5 · 8 · 8 = 320 for 8 × 8 boards
 * const observation = env.reset(); // Float32Array of 320 planes' cells
 * env.evaluate(policy); // { score: 0.4, details: { heldOutSuccess: 0.3 } }
 * ```
 */
export class EncodedSokobanEnv {
  readonly numActions = 4;
  /** Numbers per observation. */
  readonly observationSize: number;
  /** Rows and columns of the grid planes (the largest level's). */
  readonly height: number;
  readonly width: number;
  readonly encoding: SokobanEncoding;
  readonly #levels: readonly Level[];
  readonly #heldOut: readonly Level[];
  readonly #env: SokobanEnv;
  readonly #random: () => number;
  readonly #stepCost: number;
  readonly #maxSteps: number;
  readonly #reward: 'binary' | 'shaped';
  readonly #evaluationLevels: number;
  readonly #batch: number;
  readonly #observation: Float32Array;
  readonly #features = new Float64Array(SOKOBAN_FEATURE_COUNT);
  readonly #step: { observation: Float32Array; reward: number; terminated: boolean; truncated: boolean };
  #evalEnvs: SokobanEnv[] = [];

  /**
   * @param options - see {@link EncodedSokobanEnvOptions}
   * @throws RangeError naming an option out of range (no training level, `maxSteps` < 1, an unknown
   *   encoding, `random` not a function)
   */
  constructor(options: EncodedSokobanEnvOptions) {
    this.encoding = checkChoice(options.encoding, 'encoding', ['grid', 'features'] as const);
    if (!Array.isArray(options.levels) || options.levels.length === 0) {
      throw new RangeError(`levels must hold at least one level, got ${String(options.levels?.length)}`);
    }
    if (!Number.isInteger(options.maxSteps) || options.maxSteps < 1) {
      throw new RangeError(`maxSteps must be an integer >= 1, got ${String(options.maxSteps)}`);
    }
    if (typeof options.random !== 'function') {
      throw new RangeError(`random must be a function () => number, got ${typeof options.random}`);
    }
    const positive = (name: string, value: number | undefined, fallback: number): number => {
      const v = value ?? fallback;
      if (!Number.isInteger(v) || v < 1) throw new RangeError(`${name} must be an integer >= 1, got ${v}`);
      return v;
    };
    this.#evaluationLevels = positive('evaluationLevels', options.evaluationLevels, 100);
    this.#batch = positive('evaluationBatch', options.evaluationBatch, 64);
    this.#levels = options.levels;
    this.#heldOut = options.heldOut ?? [];
    this.#random = options.random;
    this.#stepCost = options.stepCost ?? 0;
    this.#maxSteps = options.maxSteps;
    this.#reward = options.reward ?? 'binary';
    let height = 0;
    let width = 0;
    for (const level of [...this.#levels, ...this.#heldOut]) {
      height = Math.max(height, level.height);
      width = Math.max(width, level.width);
    }
    this.height = height;
    this.width = width;
    this.observationSize =
      this.encoding === 'grid' ? GRID_CHANNELS.length * height * width : SOKOBAN_FEATURE_COUNT;
    this.#observation = new Float32Array(this.observationSize);
    this.#step = { observation: this.#observation, reward: 0, terminated: false, truncated: false };
    this.#env = this.#newEnv();
  }

  /**
   * Whether the episode that ended last solved its level (false while one is running): with
   * `taskCount` and `resetTask`, what makes this environment a task environment for `@ftw/trainer`'s
   * difficulty probes.
   */
  succeeded = false;

  /** The tasks are the training levels. */
  get taskCount(): number {
    return this.#levels.length;
  }

  /** @returns the first observation of an episode on a training level drawn uniformly */
  reset(): Float32Array {
    return this.resetTask(Math.floor(this.#random() * this.#levels.length));
  }

  /**
   * @param task - the training level to play, an integer in [0, taskCount)
   * @returns the first observation of an episode on it
   * @throws RangeError naming `task` and the value when it is not such an integer
   */
  resetTask(task: number): Float32Array {
    if (!Number.isInteger(task) || task < 0 || task >= this.#levels.length) {
      throw new RangeError(`task must be an integer in [0, ${this.#levels.length - 1}], got ${String(task)}`);
    }
    const { observation } = this.#env.reset({ options: { level: this.#levels[task]! } });
    this.succeeded = false;
    this.#encode(observation.grid, observation.width, observation.height, this.#observation, 0);
    return this.#observation;
  }

  step(action: number): {
    observation: Float32Array;
    reward: number;
    terminated: boolean;
    truncated: boolean;
  } {
    const result = this.#env.step(action);
    const step = this.#step;
    step.reward = result.reward - this.#stepCost;
    step.terminated = result.terminated;
    step.truncated = result.truncated;
    this.succeeded = result.info.solved;
    const { grid, width, height } = result.observation;
    this.#encode(grid, width, height, this.#observation, 0);
    return step;
  }

  /**
   * Greedy success on the first `evaluationLevels` training levels (the score) and on every held-out level.
   * @param policy - the policy (batched logits)
   * @returns `{ score, details: { heldOutSuccess } }`
   */
  evaluate(policy: BatchLogits): { score: number; details: { heldOutSuccess: number } } {
    const training = this.#levels.slice(0, this.#evaluationLevels);
    const heldOutSuccess = this.#heldOut.length === 0 ? 0 : this.greedySuccess(policy, this.#heldOut);
    return { score: this.greedySuccess(policy, training), details: { heldOutSuccess } };
  }

  /**
   * The share of `levels` the greedy policy solves, `evaluationBatch` plays side by side.
   * @param policy - the policy
   * @param levels - levels no larger than the planes
   * @returns solved / levels.length
   */
  greedySuccess(policy: BatchLogits, levels: readonly Level[]): number {
    const batch = Math.min(this.#batch, levels.length);
    while (this.#evalEnvs.length < batch) this.#evalEnvs.push(this.#newEnv());
    const d = this.observationSize;
    const rows = new Float32Array(batch * d);
    const logits = new Float64Array(batch * 4);
    const slot = new Int32Array(batch);
    let solved = 0;
    for (let from = 0; from < levels.length; from += batch) {
      const count = Math.min(batch, levels.length - from);
      const live: number[] = [];
      for (let i = 0; i < count; i++) {
        const { observation } = this.#evalEnvs[i]!.reset({ options: { level: levels[from + i]! } });
        this.#encode(observation.grid, observation.width, observation.height, rows, i * d);
        live.push(i);
      }
      while (live.length > 0) {
        for (let r = 0; r < live.length; r++) slot[r] = live[r]!;
        policy.logits(rows, live.length, logits);
        const next: number[] = [];
        for (let r = 0; r < live.length; r++) {
          let best = 0;
          for (let a = 1; a < 4; a++) if (logits[r * 4 + a]! > logits[r * 4 + best]!) best = a;
          const result = this.#evalEnvs[slot[r]!]!.step(best);
          if (result.terminated || result.truncated) {
            if (result.info.solved) solved++;
            continue;
          }
          const { grid, width, height } = result.observation;
          // Live rows are packed to the front: the row moves up as finished plays drop out.
          this.#encode(grid, width, height, rows, next.length * d);
          next.push(slot[r]!);
        }
        live.length = 0;
        live.push(...next);
      }
    }
    return solved / levels.length;
  }

  #newEnv(): SokobanEnv {
    // The levels come certified; the environment's own tables then cost no solver run.
    return new SokobanEnv({
      maxSteps: this.#maxSteps,
      reward: this.#reward,
      level: this.#levels[0]!,
      certify: false,
      observationGrid: 'live',
    });
  }

  #encode(grid: Uint8Array, width: number, height: number, out: Float32Array, offset: number): void {
    if (this.encoding === 'grid') {
      gridChannels(grid, width, height, out, offset, this.height, this.width);
    } else {
      sokobanFeatures(grid, width, height, this.#features);
      for (let k = 0; k < SOKOBAN_FEATURE_COUNT; k++) out[offset + k] = this.#features[k]!;
    }
  }
}
