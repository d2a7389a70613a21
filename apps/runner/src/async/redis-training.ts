import { type ChildProcess, spawn } from 'node:child_process';
import { PoolMirror, RedisPool, type RedisServer, startRedisServer } from '@ftw/redis-pool';
import type { TrainConfig } from '../config/train-config.js';
import { seededStreams } from '../random/seeded-streams.js';
import { createPolicy } from '../train/create-policy.js';
import type { Episode } from '../train/episode.js';
import { createOptimizer } from '../train/optimizer.js';
import type { AsyncOptions } from './async-options.js';
import { ACTOR_VARIABLE, type ActorTask } from './redis-actor.js';
import type { AsyncIterationMetrics, AsyncSeedResult } from './train-async-seed.js';
import { asyncEnvironment, asyncIterationMetrics, asyncLearner } from './train-async-seed.js';

/** A real asynchronous seed: the simulation's figures plus the wall-clock throughput. */
export interface RedisSeedResult extends AsyncSeedResult {
  /** Environment steps consumed by the learner per second of wall time, from the first episode's arrival. */
  readonly stepsPerSecond: number;
  /** Malformed stream entries the learner skipped. */
  readonly malformed: number;
}

/** How actor processes are started: the runner's own CLI again, with {@link ACTOR_VARIABLE} set. */
export type ActorLauncher = (task: ActorTask) => ChildProcess;

/** Starts an actor as `node <this CLI> train` with the task in the environment. */
export const cliLauncher: ActorLauncher = (task) =>
  spawn(process.execPath, [process.argv[1]!, 'train'], {
    env: { ...process.env, [ACTOR_VARIABLE]: JSON.stringify(task) },
    stdio: ['ignore', 'ignore', 'inherit'],
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

function episodeOf(t: {
  actions: Int32Array;
  logProbs: Float64Array;
  versions: Uint32Array;
  return: number;
  observations?: Float64Array | undefined;
}): Episode {
  return {
    length: t.actions.length,
    observations: Int32Array.from(t.observations ?? new Float64Array(t.actions.length)),
    actions: Int32Array.from(t.actions),
    logProbs: Float64Array.from(t.logProbs),
    versions: Uint32Array.from(t.versions),
    return: t.return,
  };
}

/**
 * One seed of real asynchronous training over Redis: `actors` actor processes push whole episodes to a
 * pool; this process is the learner. Each iteration it waits for at least `rollouts` new episodes, read
 * with a {@link PoolMirror}, takes an update from the pool's sample-to-insert rate limiter (one update
 * per `rollouts` inserts, tolerance 1, so the actors run at most about one iteration ahead), updates with
 * the configured method on those episodes, and publishes the new policy.
 * Not reproducible bit for bit (the interleaving of processes decides which versions act); the
 * deterministic simulation is {@link trainAsyncSeed}.
 *
 * @param config - the configuration
 * @param options - actors, hot-loading, importance weighting, horizon
 * @param seed - the seed (environments, actions and selection derive from it)
 * @param url - the Redis server
 * @param launch - how actor processes start
 * @param onIteration - progress
 * @returns the metrics and the throughput
 */
export async function trainRedisSeed(
  config: TrainConfig,
  options: AsyncOptions,
  seed: number,
  url: string,
  launch: ActorLauncher = cliLauncher,
  onIteration?: () => void,
): Promise<RedisSeedResult> {
  const streams = seededStreams(seed);
  const env = asyncEnvironment(config, options, streams.environment);
  const policy = createPolicy(config, env);
  const optimizer = createOptimizer(config.optimizer, config.lr);
  const learner = asyncLearner(config, options, policy, optimizer, streams.selection);
  const updater = learner.updater;
  const name = `ftw-${process.pid}-${Date.now().toString(36)}-seed${seed}`;
  const r = 1 / config.rollouts;
  const pool = await RedisPool.open(url, {
    name,
    capacity: config.capacity,
    rateLimit: { updatesPerInsert: r, minSize: config.rollouts, tolerance: Math.max(1, r) },
  });
  const mirror = await PoolMirror.open(url, { name });
  let version = 0;
  const publish = () =>
    pool.publishPolicy(version, new Uint8Array(Float64Array.from(policy.parameters).buffer));
  await publish();
  const children = Array.from({ length: options.actors }, (_, actor) =>
    launch({ url, pool: name, config, options, seed, actor }),
  );
  const metrics: AsyncIterationMetrics[] = [];
  let samples = 0;
  // The clock starts when the first episode arrives, so that process start-up is not counted.
  let started = 0;
  try {
    const failed = new Promise<never>((_, reject) => {
      for (const child of children) {
        child.once('exit', (code, signal) =>
          reject(new Error(`actor process exited (${code ?? signal}) before the run ended`)),
        );
      }
    });
    failed.catch(() => {});
    for (let iteration = 1; iteration <= config.iterations; iteration++) {
      const fresh: Episode[] = [];
      while (fresh.length < config.rollouts) {
        const { added } = await Promise.race([mirror.sync({ blockMs: 1000 }), failed]);
        if (started === 0 && added > 0) started = performance.now();
        const size = mirror.pool.size;
        for (let p = size - added; p < size; p++) fresh.push(episodeOf(mirror.pool.at(p)));
      }
      // With `rollouts` new episodes in, the rate limiter grants this update at once; it is what keeps
      // the actors at most about one iteration ahead.
      await Promise.race([pool.acquireUpdate(600_000), failed]);
      let returnSum = 0;
      for (const e of fresh) {
        samples += e.length;
        returnSum += e.return;
      }
      const stats = updater.update(fresh, version);
      if (stats !== null) {
        version++;
        await publish();
      }
      metrics.push(
        asyncIterationMetrics({
          seed,
          iteration,
          samples,
          episodes: fresh,
          returnSum,
          optimalProbability: env.evaluate(policy).score,
          regret: null,
          version,
          stats,
          learner,
        }),
      );
      onIteration?.();
      if (config.maxSamples !== undefined && samples >= config.maxSamples) break;
    }
  } finally {
    for (const child of children) child.kill('SIGKILL');
    await Promise.all([pool.close(), mirror.close()]);
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    seed,
    metrics,
    finalOptimalProbability: metrics.at(-1)!.optimalProbability,
    environmentSteps: samples,
    updates: version,
    stepsPerSecond: samples / seconds,
    malformed: mirror.malformedCount,
  };
}
