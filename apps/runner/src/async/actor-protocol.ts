import type { ChildProcess } from 'node:child_process';
import type { TrainConfig } from '../config/train-config.js';
import type { AsyncOptions } from './async-options.js';

// The protocol between the learner of a run over Redis and its actor processes: what a learner hands an
// actor, what it notes in each pool for actors that join from elsewhere, and how it starts them. Both sides
// (redis-training.ts, redis-actor.ts) import it; none of them imports another's.

/** What the learner hands an actor process (as JSON in the `FTW_ASYNC_ACTOR` environment variable). */
export interface ActorTask {
  readonly url: string;
  readonly pool: string;
  readonly config: TrainConfig;
  readonly options: AsyncOptions;
  readonly seed: number;
  readonly actor: number;
  /** Prefix of the actor's episode ids (default: its index); unique among the pool's actors. */
  readonly idPrefix?: string;
  /** The run the actor belongs to: it refuses a pool whose run notes name another (absent: any). */
  readonly runId?: string;
  /** How many times its crew replaced this actor (absent: 0): fresh streams and episode ids for each. */
  readonly restart?: number;
}

/** What the learner of a pool tells actors that join it: the configuration, options and seed. */
export interface PoolTask {
  readonly config: TrainConfig;
  readonly options: AsyncOptions;
  readonly seed: number;
  /** The run's id (also in the pool's run notes): an actor follows one run's pools only. */
  readonly runId: string;
}

/** The learner's notes in each pool of a run, for actors that join it from elsewhere (`ftw actor`). */
export const POOL_NOTES = {
  /** JSON of {@link PoolTask}: what an actor of the pool runs. */
  task: 'task',
  /**
   * `running`, then `done` once the learner has finished the pool's seed, `failed` when its run failed, or
   * `interrupted` when its process was stopped by SIGINT or SIGTERM.
   */
  state: 'state',
  /** The pool of the run's next seed, or '' after the last. Written before `state` becomes `done`. */
  next: 'next',
} as const;

/** Environment variable that turns a `ftw train` process into one actor of an asynchronous run. */
export const ACTOR_VARIABLE = 'FTW_ASYNC_ACTOR';

/** How actor processes are started: the runner's own CLI again, with {@link ACTOR_VARIABLE} set. */
export type ActorLauncher = (task: ActorTask, restart?: number) => ChildProcess;
