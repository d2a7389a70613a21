import { mkdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunFault } from '@ftw/actors';
import type { EntryRange } from '@ftw/redis-pool';
import type { OptimizerState, UpdaterState } from '@ftw/trainer';
import { UsageError } from '../cli/usage-error.js';
import type { TrainConfig } from '../config/train-config.js';
import type { SavedPolicy } from '../train/saved-policy.js';
import type { AsyncOptions } from './async-options.js';

/** The file a learner's checkpoint lives in, inside the `--checkpoint` folder. */
export const CHECKPOINT_FILE = 'checkpoint.json';

/** `format` of a checkpoint file, with its version. */
export const CHECKPOINT_FORMAT = 'ftw-learner-checkpoint/1';
const FORMAT = CHECKPOINT_FORMAT;

/** An optimiser's state as JSON (`OptimizerState` with its arrays as numbers). */
export interface SavedOptimizer {
  readonly kind: 'sgd' | 'adam';
  readonly steps: number;
  readonly m: number[];
  readonly v: number[];
  readonly born: number[];
}

/**
 * Where the learner of one seed stood after an iteration: everything a new learner needs to go on from
 * the next iteration as if nothing had happened (the pool itself stays on the Redis server). `M` is the
 * type of its metric rows (`RedisIterationMetrics` of `redis-training.ts`, which writes and reads them).
 */
export interface SeedCheckpoint<M = object> {
  /** The seed, and its index in the run's seeds. */
  readonly seed: number;
  readonly index: number;
  /** Iterations done. */
  readonly iteration: number;
  /** Environment steps consumed. */
  readonly samples: number;
  /** Uniforms drawn from the seed's selection stream. */
  readonly selectionDraws: number;
  /** The mirror's range (`PoolMirror.range()`): what the learner had consumed. */
  readonly range: EntryRange;
  /** The server's update counter then: a restart's lost updates are the counter's growth since. */
  readonly updates: number;
  /** θ (with a Sokoban table's position names). */
  readonly policy: SavedPolicy;
  readonly optimizer: SavedOptimizer;
  /** FTW's references, or the baselines' running means (`Updater.state()`). */
  readonly updater: UpdaterState;
  /** The metric rows so far. */
  readonly metrics: readonly M[];
  /** Running figures of the learners so far (summed over restarts). */
  readonly steps: number;
  readonly maxLogProbGap: number;
  readonly published: { readonly snapshots: number; readonly deltas: number; readonly bytes: number };
  readonly waitedMs: number;
  /** Milliseconds from the first episode's arrival to the checkpoint, over the learners so far. */
  readonly elapsedMs: number;
  readonly malformed: number;
  readonly faults: readonly RunFault[];
}

/**
 * A run's checkpoint: the run itself, the seeds done and where the current one stands. `R` is the type of
 * a seed's result (`RedisSeedResult`), `M` of a metric row.
 */
export interface LearnerCheckpoint<R = object, M = object> {
  readonly format: typeof FORMAT;
  readonly config: TrainConfig;
  /** The asynchronous options, the Redis URL without its password. */
  readonly options: AsyncOptions;
  /** The run's folder and name (`--out`, `--name`). */
  readonly out: string;
  readonly name: string;
  /** Prefix of the run's pool names (`<prefix>-seed<n>`), also its run id. */
  readonly prefix: string;
  /** Learners that stopped and were resumed so far (each resume gives its actors fresh ids and streams). */
  readonly restarts: number;
  /** The seeds done. */
  readonly done: readonly R[];
  /** The seed in progress, or null between seeds. */
  readonly current: SeedCheckpoint<M> | null;
}

/**
 * An optimiser's state as JSON.
 *
 * @param state - from `Optimizer.state()`
 * @returns the same numbers in plain arrays (JSON keeps every float64 exactly)
 */
export function savedOptimizer(state: OptimizerState): SavedOptimizer {
  return {
    kind: state.kind,
    steps: state.steps,
    m: Array.from(state.m),
    v: Array.from(state.v),
    born: Array.from(state.born),
  };
}

/**
 * The optimiser state of a {@link SavedOptimizer}, for `createOptimizer(kind, lr, state)` (which checks it).
 *
 * @param saved - as read from a checkpoint
 * @returns the state
 */
export function optimizerState(saved: SavedOptimizer): OptimizerState {
  return {
    kind: saved.kind,
    steps: saved.steps,
    m: Float64Array.from(saved.m),
    v: Float64Array.from(saved.v),
    born: Float64Array.from(saved.born),
  };
}

/**
 * Writes a checkpoint atomically: to a temporary file in the folder, then renamed over `checkpoint.json`,
 * so that a learner killed while writing leaves the previous checkpoint whole.
 *
 * @param dir - the `--checkpoint` folder (created when missing)
 * @param checkpoint - the checkpoint
 */
export function writeCheckpoint(dir: string, checkpoint: LearnerCheckpoint): void {
  mkdirSync(dir, { recursive: true });
  const temporary = join(dir, `.${CHECKPOINT_FILE}.${process.pid}.tmp`);
  writeFileSync(temporary, JSON.stringify(checkpoint));
  renameSync(temporary, join(dir, CHECKPOINT_FILE));
}

/**
 * Reads the checkpoint a learner left in a folder.
 *
 * @param dir - the folder given to `--checkpoint`
 * @returns the checkpoint
 * @throws UsageError naming the file when it is missing, not JSON, or not a learner checkpoint
 */
export function readCheckpoint(dir: string): LearnerCheckpoint {
  const path = join(dir, CHECKPOINT_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(
      `--resume ${dir}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); give the folder of a run's --checkpoint`,
      { helpHint: false },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--resume ${dir}: ${path} is not JSON (${(error as Error).message})`, {
      helpHint: false,
    });
  }
  const c = value as Partial<LearnerCheckpoint> | null;
  if (c === null || typeof c !== 'object' || c.format !== FORMAT) {
    throw new UsageError(
      `--resume ${dir}: ${path} is not a learner checkpoint (format must be ${FORMAT}, got ${JSON.stringify((c as { format?: unknown } | null)?.format)})`,
      { helpHint: false },
    );
  }
  for (const field of [
    'config',
    'options',
    'out',
    'name',
    'prefix',
    'restarts',
    'done',
    'current',
  ] as const) {
    if (c[field] === undefined) {
      throw new UsageError(`--resume ${dir}: ${path} lacks the field ${field}`, { helpHint: false });
    }
  }
  return c as LearnerCheckpoint;
}

/**
 * Removes a checkpoint once its run is written (nothing is left to resume), and the folder when that
 * leaves it empty.
 *
 * @param dir - the folder
 */
export function removeCheckpoint(dir: string): void {
  rmSync(join(dir, CHECKPOINT_FILE), { force: true });
  try {
    rmdirSync(dir);
  } catch {
    // Not empty (the user's other files), or gone already: leave it.
  }
}
