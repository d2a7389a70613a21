import { randomInt, randomUUID } from 'node:crypto';
import {
  type FollowedPolicy,
  PolicyFollower,
  type PolicyLoader,
  RedisPool,
  RedisPoolError,
} from '@ftw/redis-pool';
import type { TrajectoryInput } from '@ftw/replay-pool';
import { ActionDistribution } from '@ftw/trainer';
import { seededStreams } from '../random/seeded-streams.js';
import { SokobanEpisodeEnv } from '../sokoban/sokoban-episode-env.js';
import { createPolicy } from '../train/create-policy.js';
import type { ActorCrew } from './actor-crew.js';
import { type ActorTask, type CrewMessage, POOL_NOTES, type PoolTask } from './actor-protocol.js';
import { KeyedPolicyReader } from './keyed-policy.js';
import { actorEnvironmentSeed, asyncEnvironment } from './train-async-seed.js';

/**
 * Makes an actor process that its learner started end with the learner: when the IPC channel the learner
 * opened closes (the learner exited, was killed, or crashed), the actor exits 0. Without a channel (an
 * actor not started by a learner) it does nothing.
 *
 * @example
 * ```ts
 * exitWithLearner();
 * await runActor(task);
 * ```
 */
export function exitWithLearner(): void {
  if (!process.connected) return;
  process.once('disconnect', () => process.exit(0));
}

/**
 * An actor process of an {@link ActorCrew}: runs `first`, and whenever the learner's process sends the task
 * of its next seed ({@link CrewMessage}), leaves its pool for that one (its environment, action stream and
 * policy follow the new seed; the level set stays generated). Runs until the learner's process ends it.
 *
 * @param first - the task it was launched with
 */
export async function followTasks(first: ActorTask): Promise<void> {
  let next: ActorTask | undefined;
  process.on('message', (message: CrewMessage) => {
    next = message.task;
  });
  for (let task = first; ; ) {
    await runActor(task, async () => next !== undefined);
    task = next!;
    next = undefined;
  }
}

/** Episodes an actor collects before one pipelined push. */
const PUSH_EVERY = 8;

/**
 * One actor process: its own connection and environment (seed `seed + actor·1000003`), its own action
 * stream (the seed's policy stream jumped `actor + 1` times further), acting with the newest published
 * policy loaded per episode or per step, recording each step's version and behaviour log-probability,
 * and pushing whole episodes (ids `<actor>-<episode>`, so a retried push adds nothing). Runs until the
 * learner kills it; the pool's rate limiter keeps it at most about one iteration ahead of the learner.
 *
 * With `--env sokoban` the actor numbers positions itself, so it sends each step's position by name
 * (`metadata.positions`, `<training level>|<key>`) for the learner to number, and no observation ids. A
 * linear policy reads the features of the actor's own position; a tabular one is published as a keyed
 * policy ({@link KeyedPolicyReader}) and the actor reads the learner's row of its position, or logits 0
 * (uniform, what the learner's policy gives it) for a position the learner has not numbered yet.
 *
 * @param task - what to run
 */
export async function runActor(
  task: ActorTask,
  stopped?: (pool: RedisPool) => Promise<boolean>,
): Promise<void> {
  const { config, options } = task;
  const env = asyncEnvironment(config, options, actorEnvironmentSeed(task.seed, task.actor));
  const policy = createPolicy(config, env);
  // Distinct action streams per actor, all derived from the run's seed.
  const random = seededStreams(task.seed * 64 + task.actor + 1).policy;
  const pool = await RedisPool.open(task.url, { name: task.pool });
  const distribution = new ActionDistribution(env.numActions);
  const sokoban = env instanceof SokobanEpisodeEnv ? env : null;
  const keyed = sokoban !== null && config.policy !== 'linear' ? new KeyedPolicyReader() : null;
  // A keyed policy arrives as a snapshot, then as deltas (the rows each update moved, see
  // `PolicyPublisher`), applied to θ in place between steps; any other policy as θ's bytes.
  const loader: PolicyLoader<Float64Array> =
    keyed === null
      ? {
          snapshot: (bytes) => new Float64Array(bytes.slice().buffer),
          delta: (_theta, _bytes, version) => {
            throw new RangeError(`policy version ${version} is a delta, but this policy is published whole`);
          },
        }
      : { snapshot: (bytes) => keyed.load(bytes), delta: (theta, bytes) => keyed.apply(theta, bytes) };
  // New versions are learnt from the pool's announcements: a check costs a turn of the event loop, not a
  // round trip to the server, which with per-step hot-loading was most of an actor's time.
  const follower = new PolicyFollower(pool, options.hotLoad, { loader, notify: true });
  let parameters: Float64Array = new Float64Array(0);
  let loaded = -1;
  const load = (policy: FollowedPolicy<Float64Array>): void => {
    parameters = policy.parameters;
    loaded = policy.version;
  };
  /** The row of the published policy to act with: the learner's row of a Sokoban position (see above). */
  const rowOf = (observation: number): number =>
    keyed === null
      ? observation
      : (keyed.rowOf(sokoban!.positionName(observation)) ?? parameters.length / env.numActions);
  let pending: TrajectoryInput[] = [];
  let ids: string[] = [];
  const prefix = task.idPrefix ?? String(task.actor);
  // Closed however the actor ends: a client left open reconnects forever and keeps the process alive.
  try {
    for (let episode = 0; ; episode++) {
      // Asked once per batch of episodes (and while a push waits): an actor from elsewhere then pays two
      // reads per PUSH_EVERY episodes, not per episode, and notices a finished learner a batch later.
      if (stopped !== undefined && pending.length === 0 && (await stopped(pool))) break;
      load(await follower.beginEpisode());
      let observation = env.reset();
      const observations: number[] = [];
      const actions: number[] = [];
      const logProbs: number[] = [];
      const versions: number[] = [];
      const positions: string[] = [];
      let total = 0;
      for (;;) {
        if (actions.length > 0) {
          load(await follower.beforeStep());
        }
        distribution.of(policy, rowOf(observation), parameters);
        const action = distribution.sample(random());
        if (sokoban === null) observations.push(observation);
        else positions.push(sokoban.positionName(observation));
        actions.push(action);
        logProbs.push(distribution.logProbability(action));
        versions.push(loaded);
        const result = env.step(action);
        total += result.reward;
        if (result.terminated || result.truncated) break;
        observation = result.observation;
      }
      pending.push(
        sokoban === null
          ? { actions, logProbs, versions, return: total, observations }
          : { actions, logProbs, versions, return: total, metadata: { positions } },
      );
      ids.push(`${prefix}-${episode}`);
      if (pending.length >= PUSH_EVERY) {
        if (!(await push(pool, pending, ids, stopped))) break;
        pending = [];
        ids = [];
      }
    }
  } finally {
    await pool.close();
  }
}

/**
 * Pushes a batch, waiting for the rate limiter. An actor that can be stopped waits in short rounds and
 * asks between them, so that it notices a learner that has finished; a round that timed out is pushed
 * again whole (the ids make a trajectory pushed twice count once).
 *
 * @returns false when the actor was stopped before the batch went in
 */
async function push(
  pool: RedisPool,
  batch: readonly TrajectoryInput[],
  ids: readonly string[],
  stopped: ((pool: RedisPool) => Promise<boolean>) | undefined,
): Promise<boolean> {
  if (stopped === undefined) {
    await pool.pushMany(batch, { ids, timeoutMs: 600_000 });
    return true;
  }
  for (;;) {
    try {
      await pool.pushMany(batch, { ids, timeoutMs: 100 });
      return true;
    } catch (error) {
      if (!(error instanceof RedisPoolError && error.code === 'RATE_LIMITED')) throw error;
      if (await stopped(pool)) return false;
    }
  }
}

/**
 * An actor process that joins a run from anywhere (`ftw actor`): opens the pool, reads the task the learner
 * left in it, acts and pushes until the learner marks the seed done, then follows the learner to the pool of
 * its next seed, until the last. It waits up to `waitMs` for a pool (or its task) that does not exist yet,
 * so actors may start before the learner. Its episode ids start with a random prefix, and its environment
 * and action streams derive from the seed and a random actor number: unique without any coordination, and
 * not reproducible (no run with actor processes is).
 *
 * @param url - the run's Redis
 * @param name - the pool of the seed to join (the learner prints it)
 * @param waitMs - how long to wait for a pool or its task, and for a new policy from a running learner
 * @param log - where to say what it does (stderr)
 * @returns the number of seeds it acted in
 * @throws RedisPoolError `POOL_NOT_FOUND` when no pool of that name appears within `waitMs`;
 *   {@link LearnerStoppedError} when the learner marks a pool failed, or publishes no new policy for `waitMs`
 */
export async function runRemoteActor(
  url: string,
  name: string,
  waitMs: number,
  log: (line: string) => void = () => {},
): Promise<number> {
  const me = randomUUID();
  let seeds = 0;
  for (let pool = name; pool !== ''; ) {
    const joined = await openWhenReady(url, pool, waitMs);
    let finished: string | undefined;
    let next: string | undefined;
    try {
      const task = JSON.parse(joined.note) as PoolTask;
      log(`joined pool ${pool} (seed ${task.seed})`);
      // A learner that stops without a word (killed, its machine gone) publishes nothing more: after waitMs
      // without a new policy version the actor gives up.
      let version: number | undefined;
      let changed = Date.now();
      let stalled = false;
      await runActor(
        {
          url,
          pool,
          config: task.config,
          options: task.options,
          seed: task.seed,
          actor: randomInt(64, 2 ** 30),
          idPrefix: `r${me}`,
        },
        async (own) => {
          if ((await own.readNote(POOL_NOTES.state)) !== 'running') return true;
          const now = await own.readPolicyVersion();
          if (now !== version) {
            version = now;
            changed = Date.now();
          } else if (Date.now() - changed > waitMs) {
            stalled = true;
          }
          return stalled;
        },
      );
      if (stalled) {
        throw new LearnerStoppedError(
          `the learner of pool ${pool} published no new policy in ${waitMs / 1000} s: it stopped without marking the pool`,
        );
      }
      finished = await joined.pool.readNote(POOL_NOTES.state);
      next = await joined.pool.readNote(POOL_NOTES.next);
    } finally {
      // However it ends (a lost server included): an open client would keep the process alive.
      await joined.pool.close();
    }
    seeds++;
    if (finished !== 'done') {
      throw new LearnerStoppedError(`the learner of pool ${pool} stopped: ${finished ?? 'no state'}`);
    }
    pool = next ?? '';
  }
  log(`the learner is done (${seeds} seed${seeds === 1 ? '' : 's'})`);
  return seeds;
}

/** The learner of a pool stopped without finishing its seed (its run failed or was interrupted). */
export class LearnerStoppedError extends Error {
  /** Stable code, so that the CLI prints the message on one line. */
  readonly code = 'LEARNER_STOPPED';
  override readonly name = 'LearnerStoppedError';
}

/** Opens a pool once it exists and its learner has left the task, polling for up to `waitMs`. */
async function openWhenReady(
  url: string,
  name: string,
  waitMs: number,
): Promise<{ pool: RedisPool; note: string }> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    let pool: RedisPool | undefined;
    try {
      pool = await RedisPool.open(url, { name });
      const note = await pool.readNote(POOL_NOTES.task);
      if (note !== undefined) return { pool, note };
      await pool.close();
    } catch (error) {
      await pool?.close();
      if (!(error instanceof RedisPoolError && error.code === 'POOL_NOT_FOUND') || Date.now() > deadline) {
        throw error;
      }
    }
    if (Date.now() > deadline) {
      throw new RedisPoolError(
        'POOL_NOT_FOUND',
        `pool ${name} has no task from its learner after ${waitMs} ms`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
