import { randomInt, randomUUID } from 'node:crypto';
import { runActor as actEpisodes, CREW_READY, type CrewMessage } from '@ftw/actors';
import { laneStreams } from '@ftw/internal/seeded-streams';
import { RedisPool, RedisPoolError } from '@ftw/redis-pool';
import type { Observation } from '@ftw/trainer';
import { seededStreams } from '../random/seeded-streams.js';
import { type ActorTask, POOL_NOTES, type PoolTask } from './actor-protocol.js';
import { redisEnvironment, redisPolicy } from './redis-policy.js';
import { actorEnvironmentSeed } from './train-async-seed.js';

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
 * An actor process of an `ActorCrew`: runs `first`, and whenever the learner's process sends the task
 * of its next seed ({@link CrewMessage}), leaves its pool for that one (its environment, action stream and
 * policy follow the new seed; the level set stays generated). Runs until the learner's process ends it.
 *
 * @param first - the task it was launched with
 */
export async function followTasks(first: ActorTask): Promise<void> {
  let next: ActorTask | undefined;
  let task = first;
  process.on('message', (message: CrewMessage<ActorTask>) => {
    // The crew may send the task again (CREW_READY): a pool it already acts in is not left.
    if (message.task.pool !== task.pool) next = message.task;
  });
  process.send?.(CREW_READY);
  for (;;) {
    await runActor(task, async () => next !== undefined);
    task = next!;
    next = undefined;
  }
}

/**
 * One actor process: its own connection and environment (seed `seed + actor·1000003`), its own action
 * stream (the seed's policy stream jumped `actor + 1` times further; a replacement started by its crew
 * after `restart` deaths draws both from lane `restart` of that generator and pushes ids
 * `<actor>r<restart>-<episode>`, so it repeats no predecessor's episode or id), acting with the newest published
 * policy loaded per episode or per step through `@ftw/actors`' `runActor` (each step's version and
 * behaviour log-probability recorded), and pushing whole episodes (ids `<actor>-<episode>`, so a retried
 * push adds nothing). How the policy and the observations travel is {@link redisPolicy}'s: ids for a
 * bandit, features for a linear Sokoban policy, the encoded observation rows for a network, position names
 * for a Sokoban table. Before acting it checks
 * the pool's run notes: the run id of its task (when it has one) and the learner's policy architecture.
 * Runs until the learner kills it or `stopped` says so.
 *
 * @param task - what to run
 * @param stopped - asked between batches of episodes: true ends the actor
 * @throws ActorsError `RUN_MISMATCH`, `ARCHITECTURE_MISMATCH`; what the pool throws
 */
export async function runActor(
  task: ActorTask,
  stopped?: (pool: RedisPool) => Promise<boolean>,
): Promise<void> {
  const { config, options, restart = 0 } = task;
  // A replacement (restart k) draws from lane k of the actor's generator: nothing its predecessors drew.
  const lane = restart === 0 ? null : laneStreams(task.seed * 64 + task.actor + 1).lane(restart);
  const envSeed =
    lane === null ? actorEnvironmentSeed(task.seed, task.actor) : Math.floor(lane.environment() * 2 ** 31);
  const env = await redisEnvironment(config, options, envSeed);
  const { policy, kind, loader, input, stepName } = redisPolicy(config, env);
  const pool = await RedisPool.open(task.url, { name: task.pool });
  // Closed however the actor ends: a client left open reconnects forever and keeps the process alive.
  try {
    await actEpisodes<Observation>({
      pool,
      env,
      policy,
      // Distinct action streams per actor, all derived from the run's seed.
      random: lane?.policy ?? seededStreams(task.seed * 64 + task.actor + 1).policy,
      hotLoad: options.hotLoad,
      idPrefix: task.idPrefix ?? (restart === 0 ? String(task.actor) : `${task.actor}r${restart}`),
      loader,
      ...(input === undefined ? {} : { input }),
      ...(stepName === undefined ? {} : { stepName }),
      ...(stopped === undefined ? {} : { stopped }),
      expected: { runId: task.runId ?? null, kind },
    });
  } finally {
    await pool.close();
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
  // The run of the first pool joined: the pools it is sent on to must be that run's.
  let runId: string | undefined;
  for (let pool = name; pool !== ''; ) {
    const joined = await openWhenReady(url, pool, waitMs);
    let finished: string | undefined;
    let next: string | undefined;
    try {
      const task = JSON.parse(joined.note) as PoolTask;
      runId ??= task.runId;
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
          runId,
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
