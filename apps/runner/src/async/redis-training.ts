import { type ChildProcess, spawn } from 'node:child_process';
import {
  ActorCrew,
  ActorsError,
  type BehaviourCheckResult,
  type PublishedBytes,
  RedisLearner,
  type RunFault,
} from '@ftw/actors';
import { laneStreams } from '@ftw/internal/seeded-streams';
import { RedisPoolError, type RedisServer, redactUrl, startRedisServer } from '@ftw/redis-pool';
import type { ReplayPool } from '@ftw/replay-pool';
import { EncodedSokobanEnv } from '@ftw/sokoban';
import { SokobanEpisodeEnv } from '@ftw/sokoban/trainer';
import type { Optimizer, Policy } from '@ftw/trainer';
import {
  eliteSelector as configSelector,
  createOptimizer,
  FtwUpdater,
  movedBy,
  weightedSelector,
} from '@ftw/trainer';
import { UsageError } from '../cli/usage-error.js';
import type { TrainConfig } from '../config/train-config.js';
import { seededStreams } from '../random/seeded-streams.js';
import { onInterrupt } from '../run/interrupt-tasks.js';
import { savedPolicy } from '../train/saved-policy.js';
import {
  ACTOR_VARIABLE,
  type ActorLauncher,
  type ActorTask,
  POOL_NOTES,
  type PoolTask,
} from './actor-protocol.js';
import { type AsyncOptions, DEFAULT_WAIT_SECONDS } from './async-options.js';
import { optimizerState, type SeedCheckpoint, savedOptimizer } from './learner-checkpoint.js';
import { redisEnvironment, redisPolicy } from './redis-policy.js';
import type { AsyncIterationMetrics, AsyncLearner, AsyncSeedResult } from './train-async-seed.js';
import { asyncIterationMetrics, asyncLearner } from './train-async-seed.js';

/**
 * Where an update of a Redis run can be replayed from: the learner's pool when it updated (the pool's
 * name and the stream ids of its oldest and newest trajectory, as `PoolMirror.range` gives them) and how
 * many uniforms the seed's selection stream had given before it. {@link replaySelection} rebuilds the pool
 * from the stream and draws FTW's minibatches again.
 */
export interface UpdateReplay {
  /** The Redis pool (stream `{pool}:trajectories`). */
  readonly pool: string;
  /** Stream id of the oldest trajectory the learner's pool held. */
  readonly first: string;
  /** Stream id of the newest one. */
  readonly last: string;
  /** Trajectories it held. */
  readonly size: number;
  /** Uniforms drawn from the seed's selection stream before this update. */
  readonly selectionDraws: number;
}

/** One line of a Redis run's metrics: the simulation's figures and where the update replays from. */
export interface RedisIterationMetrics extends AsyncIterationMetrics {
  /** Mean return of the selected trajectories, weighted by the counts the update used; null without selection. */
  readonly eliteMean: number | null;
  readonly replay: UpdateReplay;
}

/**
 * A real asynchronous seed: the simulation's figures plus the wall-clock throughput. Its metric rows are
 * {@link RedisIterationMetrics}: each also says where its update replays from.
 */
export interface RedisSeedResult extends AsyncSeedResult {
  /** Environment steps consumed by the learner per second of wall time, from the first episode's arrival. */
  readonly stepsPerSecond: number;
  /**
   * Stream entries the learner skipped: malformed, or (Sokoban) without one valid position name per step.
   */
  readonly malformed: number;
  /** The learner's check that actors act with the policy it published (`@ftw/actors`' `BehaviourCheck`). */
  readonly behaviourCheck: BehaviourCheckResult;
  /** How the learner published its versions: snapshots, deltas and their bytes (`@ftw/actors`' `PolicyPublisher`). */
  readonly published: PublishedBytes;
  /**
   * Share of the learner's time (from the first episode's arrival) spent waiting for episodes: near 1 the
   * actors bound the throughput, near 0 the learner does (`RedisLearner.waitedMs`).
   */
  readonly learnerWaitShare: number;
  /** The actor exits (and replacements) and server outages of the seed, oldest first. */
  readonly faults: readonly RunFault[];
}

/** How a seed's learner keeps checkpoints, and the one it goes on from. */
export interface SeedCheckpointing {
  /** The seed's index in the run's seeds (recorded in each checkpoint). */
  readonly index: number;
  /** Iterations between two checkpoints. */
  readonly every: number;
  /** Keeps a checkpoint (the runner writes it to the `--checkpoint` folder). */
  readonly save: (checkpoint: SeedCheckpoint<RedisIterationMetrics>) => void;
  /** The checkpoint to go on from (a learner that stopped), or absent for a fresh seed. */
  readonly from?: SeedCheckpoint<RedisIterationMetrics> | undefined;
}

/**
 * Puts a checkpoint's θ into the policy the learner built for the seed: the same numbers, and for a
 * Sokoban table the same rows, its positions numbered again in the fresh environment's registry in the
 * saved order (so they get the same ids).
 */
function restoreParameters(
  policy: Policy,
  saved: SeedCheckpoint['policy'],
  env: Awaited<ReturnType<typeof redisEnvironment>>,
): void {
  if (saved.positions !== undefined && env instanceof SokobanEpisodeEnv) {
    const ids = env.idsOfPositions(saved.positions);
    // The optimiser's state is per parameter: each row must get its old id back.
    if (ids.some((id, row) => id !== row)) {
      throw new Error('internal: a fresh environment numbered the checkpoint positions out of order');
    }
    // Rows are created up to the largest id a policy reads (`TabularPolicy.logits`).
    if (ids.length > 0) policy.logits(Int32Array.of(ids.length - 1), 1, new Float64Array(policy.numActions));
  }
  if (policy.parameters.length !== saved.parameters.length) {
    throw new UsageError(
      `the checkpoint's policy has ${saved.parameters.length} parameters, this run's ${policy.parameters.length}: not the same configuration`,
      { helpHint: false },
    );
  }
  policy.parameters.set(saved.parameters);
}

/**
 * Starts an actor as `node <this CLI> train` with the task in the environment, and an IPC channel that
 * closes when this process ends, however it ends: the actor then exits (`exitWithLearner`).
 */
export const cliLauncher: ActorLauncher = (task, restart = 0) =>
  spawn(process.execPath, [process.argv[1]!, 'train'], {
    env: { ...process.env, [ACTOR_VARIABLE]: JSON.stringify({ ...task, restart }) },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });

/**
 * Gets the Redis a run uses: the URL given, or a private `redis-server` started for the run.
 *
 * @param redis - a URL or `private`
 * @returns the URL and, for a private server, the server to stop afterwards
 * @throws RedisPoolError `SERVER_NOT_FOUND` saying what to install when `private` and none is installed
 */
export async function redisForRun(redis: string): Promise<{ url: string; server: RedisServer | null }> {
  if (redis !== 'private') return { url: redis, server: null };
  const server = await startRedisServer();
  return { url: server.url, server };
}

/**
 * The learner of a Redis run: as {@link asyncLearner}, except that FTW selects from the mirror's pool (which
 * already holds every episode), not from a pool of its own.
 */
function redisLearner(
  config: TrainConfig,
  options: AsyncOptions,
  policy: Policy,
  optimizer: Optimizer,
  selection: () => number,
  pool: ReplayPool,
): AsyncLearner {
  if (config.method !== 'ftw') return asyncLearner(config, options, policy, optimizer, selection);
  const weighted = weightedSelector(configSelector(config, selection), policy, options.is);
  return {
    updater: new FtwUpdater(config, policy, optimizer, weighted.select, pool),
    weights: weighted.last,
  };
}

/**
 * One seed of real asynchronous training over Redis: `actors` actor processes push whole episodes to a
 * pool; this process is the learner, an `@ftw/actors` `RedisLearner` (the pool's rate limiter keeps the
 * actors about one iteration ahead; FTW selects from its mirror). How the policy and the observations
 * travel is {@link redisPolicy}'s. Each metrics row records where its update replays from
 * ({@link UpdateReplay}); `behaviourCheck` compares every arrived step of the learner's current version
 * with the log-probability its actor recorded. Not reproducible bit for bit (the interleaving of processes
 * decides which versions act); the deterministic simulation is {@link trainAsyncSeed}.
 *
 * The pool carries notes for actors that join from elsewhere (`ftw actor`, {@link runRemoteActor}): the
 * run id and policy architecture, the task (configuration, options without the Redis password, seed), the
 * state (`running`, then `done`, `failed`, or `interrupted` when the learner's process is stopped by SIGINT
 * or SIGTERM) and, before `done`, the pool of the next seed. Its own actor processes end with it.
 *
 * @param config - the configuration
 * @param options - actors, hot-loading, importance weighting, horizon
 * @param seed - the seed (environments, actions and selection derive from it)
 * @param url - the Redis server
 * @param actors - how this seed's actor processes start, or the run's `ActorCrew`, whose processes
 *   move to this seed's pool (and are left running at the end)
 * @param onIteration - progress
 * @param pools - this seed's pool name and the next seed's ('' after the last); by default a fresh name
 *   and ''; the run id is the name without its `-seed<n>` suffix
 * @param checkpointing - checkpoints to keep, and the one to go on from: a learner that stopped is
 *   replaced by one that restores θ, the optimiser, the selection stream's position, the metrics and the
 *   mirror (`RedisLearner` `resume`), and records the restart in `faults`
 * @returns the metrics, the throughput, the entries skipped and the behaviour check
 * @throws UsageError when the pool belongs to another run; ActorsLostError when an actor process exits with
 *   its restarts used up or no episode arrives for `--wait` seconds; RedisPoolError
 */
export async function trainRedisSeed(
  config: TrainConfig,
  options: AsyncOptions,
  seed: number,
  url: string,
  actors: ActorLauncher | ActorCrew<ActorTask, ChildProcess> = cliLauncher,
  onIteration?: () => void,
  pools: { readonly name: string; readonly next: string } = {
    name: `ftw-${process.pid}-${Date.now().toString(36)}-seed${seed}`,
    next: '',
  },
  checkpointing?: SeedCheckpointing,
): Promise<RedisSeedResult> {
  const from = checkpointing?.from;
  const streams = seededStreams(seed);
  const env = await redisEnvironment(config, options, streams.environment);
  const travel = redisPolicy(config, env, laneStreams(seed).network);
  const { policy } = travel;
  if (from !== undefined) restoreParameters(policy, from.policy, env);
  const optimizer = createOptimizer(
    config.optimizer,
    config.lr,
    from === undefined ? undefined : optimizerState(from.optimizer),
  );
  const { name } = pools;
  // One id per run, in every pool's notes: an actor that follows the run's pools refuses another run's.
  const runId = name.replace(/-seed\d+$/, '');
  const learner = await RedisLearner.open(url, {
    name,
    runId,
    kind: travel.kind,
    policy,
    capacity: config.capacity,
    rollouts: config.rollouts,
    // The stream keeps N more entries, so that the updates of the last N / rollouts iterations replay.
    retain: config.capacity,
    maxVersionLag: config.maxVersionLag ?? undefined,
    prepare: travel.prepare,
    codec: travel.codec(),
    waitSeconds: options.wait ?? DEFAULT_WAIT_SECONDS,
    resume: from === undefined ? undefined : { range: from.range },
  }).catch((error: unknown) => {
    throw error instanceof ActorsError ? new UsageError(error.message, { helpHint: false }) : error;
  });
  const { pool, mirror } = learner;
  // Counted, so that each update's metrics say where in the stream its selection starts.
  let selectionDraws = 0;
  const selection = () => {
    selectionDraws++;
    return streams.selection();
  };
  // The selection stream goes on where the checkpoint left it.
  while (selectionDraws < (from?.selectionDraws ?? 0)) selection();
  const learning = redisLearner(config, options, policy, optimizer, selection, mirror.pool);
  const updater = learning.updater;
  // FTW's `initial` and `previous` references, or the baselines' running means.
  if (from !== undefined) updater.restore!(from.updater);
  const restart: RunFault[] =
    from === undefined
      ? []
      : [
          {
            kind: 'learner-restart',
            at: Date.now(),
            iteration: from.iteration,
            redone: (await pool.counters()).updates - from.updates,
          },
        ];
  // For actors that join from elsewhere: the state first, so that one that finds the task finds it running.
  const task: PoolTask = { config, options: { ...options, redis: redactUrl(url) }, seed, runId };
  await pool.writeNote(POOL_NOTES.state, 'running');
  await pool.writeNote(POOL_NOTES.task, JSON.stringify(task));
  let finished = false;
  let lost = false;
  // A crew of the run's moves here from the seed before; without one, this seed's actors are its own.
  // Either way they end with this process, however it exits (a signal's handler calls process.exit).
  const crew = actors instanceof ActorCrew ? actors : new ActorCrew(actors, { restarts: options.restarts });
  crew.assign(
    Array.from({ length: options.actors }, (_, actor) => ({
      url,
      pool: name,
      config,
      options,
      seed,
      actor,
      runId,
    })),
  );
  // Interrupted: actors that joined from elsewhere are told at once, not after their --wait.
  let stopping = false;
  const forget = onInterrupt(() => {
    stopping = true;
    return pool.writeNote(POOL_NOTES.state, 'interrupted');
  });
  const metrics: RedisIterationMetrics[] = [...(from?.metrics ?? [])];
  let samples = from?.samples ?? 0;
  // Running figures of the learners before this one (a resumed seed), added to this one's.
  const before = {
    steps: from?.steps ?? 0,
    maxLogProbGap: from?.maxLogProbGap ?? 0,
    published: from?.published ?? { snapshots: 0, deltas: 0, bytes: 0 },
    waitedMs: from?.waitedMs ?? 0,
    elapsedMs: from?.elapsedMs ?? 0,
    malformed: from?.malformed ?? 0,
    faults: [...(from?.faults ?? []), ...restart],
  };
  const sum = () => {
    const check = learner.behaviourCheck;
    const published = learner.published;
    const faults = [...before.faults, ...crew.exits.slice(exitsBefore), ...learner.outages];
    return {
      steps: before.steps + check.steps,
      maxLogProbGap: Math.max(before.maxLogProbGap, check.maxLogProbGap),
      published: {
        snapshots: before.published.snapshots + published.snapshots,
        deltas: before.published.deltas + published.deltas,
        bytes: before.published.bytes + published.bytes,
      },
      waitedMs: before.waitedMs + learner.waitedMs,
      elapsedMs: before.elapsedMs + (learner.startedAt === 0 ? 0 : performance.now() - learner.startedAt),
      malformed: before.malformed + mirror.malformedCount,
      faults: faults.sort((a, b) => a.at - b.at),
    };
  };
  // Exits of this seed only: a crew of the run carries those of the seeds before.
  const exitsBefore = crew.exits.length;
  try {
    for (let iteration = (from?.iteration ?? 0) + 1; iteration <= config.iterations; iteration++) {
      // With `rollouts` new episodes in, the rate limiter grants the update at once; it is what keeps the
      // actors at most about one iteration ahead. The steps of the current version are scored again.
      const fresh = await learner.collect(config.rollouts, crew.failed);
      let returnSum = 0;
      for (const e of fresh) {
        samples += e.length;
        returnSum += e.return;
      }
      const replay: UpdateReplay = { pool: name, ...mirror.range(), selectionDraws };
      const stats = updater.update(fresh, learner.version);
      if (stats !== null) await learner.publish(stats.moved);
      metrics.push({
        ...asyncIterationMetrics({
          seed,
          iteration,
          samples,
          episodes: fresh,
          returnSum,
          // The rows the update moved (none without an update), so that the environment may keep the rest.
          optimalProbability: (env instanceof EncodedSokobanEnv
            ? env.evaluate(policy)
            : env.evaluate(policy, movedBy(stats))
          ).score,
          regret: null,
          version: learner.version,
          stats,
          learner: learning,
        }),
        eliteMean: stats?.eliteMean ?? null,
        replay,
      });
      onIteration?.();
      if (config.maxSamples !== undefined && samples >= config.maxSamples) break;
      if (checkpointing !== undefined && iteration % checkpointing.every === 0) {
        checkpointing.save({
          seed,
          index: checkpointing.index,
          iteration,
          samples,
          selectionDraws,
          range: mirror.range(),
          updates: (await pool.counters()).updates,
          policy: savedPolicy(seed, policy, env),
          optimizer: savedOptimizer(optimizer.state!()),
          updater: updater.state!(),
          metrics,
          ...sum(),
        });
      }
    }
    // The next pool before the state, so that an actor that sees `done` finds where to go.
    await pool.writeNote(POOL_NOTES.next, pools.next);
    await pool.writeNote(POOL_NOTES.state, 'done');
    finished = true;
  } catch (error) {
    // A server out of reach for reconnectTimeoutMs would only keep the note below waiting as long again.
    lost = error instanceof RedisPoolError && error.code === 'CONNECTION_LOST';
    throw error;
  } finally {
    forget();
    if (crew !== actors) crew.stop();
    // Best effort: tell actors from elsewhere that this learner stopped (the server may be what failed).
    if (!(finished || stopping || lost)) await pool.writeNote(POOL_NOTES.state, 'failed').catch(() => {});
    await learner.close();
  }
  const total = sum();
  const seconds = total.elapsedMs / 1000;
  return {
    seed,
    metrics,
    finalOptimalProbability: metrics.at(-1)!.optimalProbability,
    environmentSteps: samples,
    updates: learner.version,
    finalPolicy: savedPolicy(seed, policy, env),
    stepsPerSecond: samples / seconds,
    learnerWaitShare: total.waitedMs / 1000 / seconds,
    malformed: total.malformed,
    behaviourCheck: { steps: total.steps, maxLogProbGap: total.maxLogProbGap },
    published: total.published,
    faults: total.faults,
  };
}
