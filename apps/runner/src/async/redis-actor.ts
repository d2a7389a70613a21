import { PolicyFollower, RedisPool } from '@ftw/redis-pool';
import type { TrajectoryInput } from '@ftw/replay-pool';
import type { TrainConfig } from '../config/train-config.js';
import { seededStreams } from '../random/seeded-streams.js';
import { SokobanEpisodeEnv } from '../sokoban/sokoban-episode-env.js';
import { ActionDistribution } from '../train/action-distribution.js';
import { createPolicy } from '../train/create-policy.js';
import type { AsyncOptions } from './async-options.js';
import { KeyedPolicyReader } from './keyed-policy.js';
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
 * With `--env sokoban` the actor numbers positions itself, so it sends each step's position by name
 * (`metadata.positions`, `<training level>|<key>`) for the learner to number, and no observation ids. A
 * linear policy reads the features of the actor's own position; a tabular one is published as a keyed
 * policy ({@link KeyedPolicyReader}) and the actor reads the learner's row of its position, or logits 0
 * (uniform, what the learner's policy gives it) for a position the learner has not numbered yet.
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
  const sokoban = env instanceof SokobanEpisodeEnv ? env : null;
  const keyed = sokoban !== null && config.policy !== 'linear' ? new KeyedPolicyReader() : null;
  let parameters: Float64Array = new Float64Array(0);
  let loaded = -1;
  const load = (version: number, bytes: Uint8Array): void => {
    if (version === loaded) return;
    parameters = keyed === null ? new Float64Array(bytes.slice().buffer) : keyed.load(bytes);
    loaded = version;
  };
  /** The row of the published policy to act with: the learner's row of a Sokoban position (see above). */
  const rowOf = (observation: number): number =>
    keyed === null
      ? observation
      : (keyed.rowOf(sokoban!.positionName(observation)) ?? parameters.length / env.numActions);
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
    const positions: string[] = [];
    let total = 0;
    for (;;) {
      if (actions.length > 0) {
        const current = await follower.beforeStep();
        load(current.version, current.parameters);
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
    ids.push(`${task.actor}-${episode}`);
    if (pending.length >= PUSH_EVERY) {
      await pool.pushMany(pending, { ids, timeoutMs: 600_000 });
      pending = [];
      ids = [];
    }
  }
}
