import { PolicyFollower, RedisPool } from '@ftw/redis-pool';
import type { TrajectoryInput } from '@ftw/replay-pool';
import type { TrainConfig } from '../config/train-config.js';
import { seededStreams } from '../random/seeded-streams.js';
import { ActionDistribution } from '../train/action-distribution.js';
import { createPolicy } from '../train/create-policy.js';
import type { AsyncOptions } from './async-options.js';
import { actorEnvironmentSeed, asyncEnvironment } from './train-async-seed.js';

/** What the learner hands an actor process (as JSON in the `FTW_ASYNC_ACTOR` environment variable). */
export interface ActorTask {
  readonly url: string;
  readonly pool: string;
  readonly config: TrainConfig;
  readonly options: AsyncOptions;
  readonly seed: number;
  readonly actor: number;
}

/** Environment variable that turns a `ftw train` process into one actor of an asynchronous run. */
export const ACTOR_VARIABLE = 'FTW_ASYNC_ACTOR';

/** Episodes an actor collects before one pipelined push. */
const PUSH_EVERY = 8;

/**
 * One actor process: its own connection and environment (seed `seed + actor·1000003`), its own action
 * stream (the seed's policy stream jumped `actor + 1` times further), acting with the newest published
 * policy loaded per episode or per step, recording each step's version and behaviour log-probability,
 * and pushing whole episodes (ids `<actor>-<episode>`, so a retried push adds nothing). Runs until the
 * learner kills it; the pool's rate limiter keeps it at most about one iteration ahead of the learner.
 *
 * @param task - what to run
 */
export async function runActor(task: ActorTask): Promise<void> {
  const { config, options } = task;
  const env = asyncEnvironment(config, options, actorEnvironmentSeed(task.seed, task.actor));
  const policy = createPolicy(config, env);
  // Distinct action streams per actor, all derived from the run's seed.
  const random = seededStreams(task.seed * 64 + task.actor + 1).policy;
  const pool = await RedisPool.open(task.url, { name: task.pool });
  const follower = new PolicyFollower(pool, options.hotLoad);
  const distribution = new ActionDistribution(env.numActions);
  let parameters = new Float64Array(0);
  let loaded = -1;
  const load = (version: number, bytes: Uint8Array): void => {
    if (version === loaded) return;
    parameters = new Float64Array(bytes.slice().buffer);
    loaded = version;
  };
  let pending: TrajectoryInput[] = [];
  let ids: string[] = [];
  for (let episode = 0; ; episode++) {
    const start = await follower.beginEpisode();
    load(start.version, start.parameters);
    let observation = env.reset();
    const observations: number[] = [];
    const actions: number[] = [];
    const logProbs: number[] = [];
    const versions: number[] = [];
    let total = 0;
    for (;;) {
      if (observations.length > 0) {
        const current = await follower.beforeStep();
        load(current.version, current.parameters);
      }
      distribution.of(policy, observation, parameters);
      const action = distribution.sample(random());
      observations.push(observation);
      actions.push(action);
      logProbs.push(distribution.logProbability(action));
      versions.push(loaded);
      const result = env.step(action);
      total += result.reward;
      if (result.terminated || result.truncated) break;
      observation = result.observation;
    }
    pending.push({ actions, logProbs, versions, return: total, observations });
    ids.push(`${task.actor}-${episode}`);
    if (pending.length >= PUSH_EVERY) {
      await pool.pushMany(pending, { ids, timeoutMs: 600_000 });
      pending = [];
      ids = [];
    }
  }
}
