import type { IsWeighting } from '@ftw/trainer';
import { UsageError } from '../cli/usage-error.js';
import type { OptionSpec, RawOption } from '../config/option-spec.js';
import { readChoice, readInteger, readNumber } from '../config/read-value.js';

export type { IsWeighting };

/**
 * The options a baseline updater takes for a weighting: `truncation: c` for `truncate:c`, none otherwise.
 *
 * @param is - the weighting
 * @returns the `BaselineUpdater` options
 * @example
 * ```ts
 * baselineWeighting({ kind: 'truncate', cap: 2 }); // { truncation: 2 }
 * baselineWeighting({ kind: 'none' }); // {}
 * ```
 */
export function baselineWeighting(is: IsWeighting): { readonly truncation?: number } {
  return is.kind === 'truncate' ? { truncation: is.cap } : {};
}

/** The asynchronous-training options of `ftw train`. */
export interface AsyncOptions {
  /** Actor processes (with Redis) or simulated actors stepping in turn (without). */
  readonly actors: number;
  /** Redis URL, `private` (start a redis-server for the run), or null for the deterministic simulation. */
  readonly redis: string | null;
  /** Simulation: actors act with the policy this many versions behind the learner's. */
  readonly lag: number;
  /** When actors load the newest visible policy: between episodes, or before every step. */
  readonly hotLoad: 'episode' | 'step';
  /** Weighting by truncated importance weights: FTW's elite counts, or the baselines' episodes. */
  readonly is: IsWeighting;
  /** Steps per episode: each step is one decision of the bandit (1 = the bandit itself). */
  readonly horizon: number;
  /**
   * Over Redis: seconds the learner waits for a new episode before its run fails (actors may join late;
   * none may be left). Absent: {@link DEFAULT_WAIT_SECONDS}.
   */
  readonly wait?: number;
  /** Over Redis: replacements per actor process that exits (`ActorCrew`); absent: 3. */
  readonly restarts?: number;
  /**
   * Over a Redis server the learner does not own: the folder where the learner keeps its checkpoint,
   * rewritten every `every` iterations and after each seed, from which `ftw train --resume <dir>` goes on.
   */
  readonly checkpoint?: { readonly dir: string; readonly every: number };
}

/** Iterations between two checkpoints by default (`--checkpoint-every`). */
export const DEFAULT_CHECKPOINT_EVERY = 10;

/** How long a learner over Redis waits for a new episode by default, in seconds (as `ftw actor --wait`). */
export const DEFAULT_WAIT_SECONDS = 600;

const spec = (
  key: string,
  flag: string,
  placeholder: string,
  defaultValue: string,
  description: string,
): OptionSpec => ({
  key,
  flag,
  placeholder,
  defaultValue,
  description,
});

/** The flags of asynchronous training, added to `ftw train`. */
export const ASYNC_OPTIONS: readonly OptionSpec[] = [
  spec(
    'actors',
    '--actors',
    'A',
    '1',
    'asynchronous: actors (processes with --redis, else simulated in turn)',
  ),
  spec(
    'redis',
    '--redis',
    'url',
    'none',
    'asynchronous: Redis URL for the shared pool, or private (start one)',
  ),
  spec('lag', '--lag', 'L', '0', 'asynchronous simulation: actors act with the policy L versions old'),
  spec(
    'hotLoad',
    '--hot-load',
    'when',
    'episode',
    'asynchronous: actors load new weights per episode or step',
  ),
  spec(
    'is',
    '--is',
    'weighting',
    'none',
    'weight FTW elite counts or baseline episodes by importance weights: none or truncate:c',
  ),
  spec('horizon', '--horizon', 'H', '1', 'steps per episode, each one bandit decision (multi-step episodes)'),
  spec(
    'wait',
    '--wait',
    'seconds',
    String(DEFAULT_WAIT_SECONDS),
    'asynchronous over Redis: fail when no episode arrives for this long (actors may join late)',
  ),
  spec(
    'restarts',
    '--actor-restarts',
    'n',
    '3',
    'asynchronous over Redis: replace an actor process that dies n times',
  ),
  spec(
    'checkpoint',
    '--checkpoint',
    'dir',
    'none',
    'asynchronous over --redis URL: keep the learner checkpoint here (ftw train --resume dir goes on from it)',
  ),
  spec(
    'checkpointEvery',
    '--checkpoint-every',
    'n',
    String(DEFAULT_CHECKPOINT_EVERY),
    'with --checkpoint: iterations between two checkpoints',
  ),
];

/**
 * Reads the asynchronous-training options. Returns null when none was given, so that `ftw train` runs
 * its synchronous loop unchanged.
 *
 * @param raw - raw values by key (see `collectOptions`)
 * @param config - the training configuration's method and environment (`--horizon` is for bandits only)
 * @returns the options, or null
 * @throws UsageError naming the flag, the value and what is allowed
 */
export function resolveAsyncOptions(
  raw: Readonly<Record<string, RawOption>>,
  config: { readonly method: string; readonly environment: { readonly kind: string } },
): AsyncOptions | null {
  const o = (key: string): RawOption => raw[key]!;
  if (!ASYNC_OPTIONS.some((s) => o(s.key).explicit)) return null;
  const actors = readInteger(o('actors').value, o('actors').label, { min: 0, max: 64 });
  const redisValue = String(o('redis').value);
  // Actors without --redis run on a private redis-server, unless --lag asks for the simulation.
  const redis =
    redisValue !== 'none'
      ? redisValue
      : o('actors').explicit && !o('lag').explicit && !o('redis').explicit
        ? 'private'
        : null;
  if (redis !== null && redis !== 'private' && !/^rediss?(\+cluster)?:\/\//.test(redis)) {
    throw new UsageError(
      `${o('redis').label} must be a redis://, rediss:// or redis+cluster:// URL, private or none, got ${JSON.stringify(redisValue)}`,
    );
  }
  if (actors === 0 && (redis === null || redis === 'private')) {
    throw new UsageError(
      `${o('actors').label} 0 (actor processes that join from other machines with ftw actor) needs --redis with a URL they can reach, got ${redis === null ? 'the simulation' : '--redis private'}`,
    );
  }
  const lag = readInteger(o('lag').value, o('lag').label, { min: 0, max: 1_000_000 });
  if (redis !== null && o('lag').explicit) {
    throw new UsageError(
      `${o('lag').label} applies only to the simulation (without --redis); real actors have the lag they have`,
    );
  }
  const hotLoad = readChoice(o('hotLoad').value, o('hotLoad').label, ['episode', 'step'] as const);
  const isText = String(o('is').value);
  let is: IsWeighting = { kind: 'none' };
  if (isText !== 'none') {
    const match = /^truncate:(.+)$/.exec(isText);
    if (match === null) {
      throw new UsageError(
        `${o('is').label} must be none or truncate:c with a cap c > 0, got ${JSON.stringify(isText)}`,
      );
    }
    is = { kind: 'truncate', cap: readNumber(match[1], o('is').label, { min: 0, exclusiveMin: true }) };
  }
  const horizon = readInteger(o('horizon').value, o('horizon').label, { min: 1, max: 10_000 });
  if (config.environment.kind === 'sokoban' && horizon > 1) {
    throw new UsageError(`--horizon applies to bandits only, got --horizon ${horizon} with --env sokoban`);
  }
  const wait = readInteger(o('wait').value, o('wait').label, { min: 1, max: 86_400 });
  if (redis === null && o('wait').explicit) {
    throw new UsageError(
      `${o('wait').label} applies only to actor processes over Redis (--redis or --actors without --lag), got --wait ${wait} with the simulation`,
    );
  }
  const restarts = readInteger(o('restarts').value, o('restarts').label, { min: 0, max: 1000 });
  if (redis === null && o('restarts').explicit) {
    throw new UsageError(
      `${o('restarts').label} applies only to actor processes over Redis, got the simulation`,
    );
  }
  const every = readInteger(o('checkpointEvery').value, o('checkpointEvery').label, {
    min: 1,
    max: 1_000_000,
  });
  const dir = String(o('checkpoint').value);
  if (o('checkpointEvery').explicit && dir === 'none') {
    throw new UsageError(`${o('checkpointEvery').label} applies only with --checkpoint <dir>`);
  }
  if (dir !== 'none') checkCheckpointable(redis, o('checkpoint').label);
  const over = {
    wait,
    ...(o('restarts').explicit ? { restarts } : {}),
    ...(dir === 'none' ? {} : { checkpoint: { dir, every } }),
  };
  return { actors, redis, lag, hotLoad, is, horizon, ...(redis === null ? {} : over) };
}

/**
 * @throws UsageError unless a run can be resumed from a learner checkpoint: over a Redis server the
 *   learner does not own (a private server ends with it, and the pool with it)
 */
function checkCheckpointable(redis: string | null, flag: string): void {
  if (redis === null || redis === 'private') {
    throw new UsageError(
      `${flag} needs --redis with the URL of a server that outlives the learner (a private server ends with it, and the pool with it), got ${redis === null ? 'the simulation' : '--redis private'}`,
    );
  }
}
