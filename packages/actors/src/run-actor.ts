import {
  type HotLoad,
  PolicyFollower,
  type PolicyLoader,
  type RedisPool,
  RedisPoolError,
} from '@ftw/redis-pool';
import type { TrajectoryInput } from '@ftw/replay-pool';
import { ActionDistribution, type Environment, type Observation, type Policy } from '@ftw/trainer';
import { checkRunNotes, describeArchitecture } from './run-notes.js';
import { thetaLoader } from './theta-codec.js';

/** The metadata field that carries step names (see {@link ActorOptions.stepName}). */
export const STEP_NAMES = 'positions';

/** What {@link runActor} needs. */
export interface ActorOptions<O extends Observation> {
  /** The pool to push to and to read versions from (the caller opens and closes it). */
  readonly pool: RedisPool;
  /** The actor's own environment. */
  readonly env: Environment<O>;
  /** A policy of the learner's architecture: only its `logits` at the published θ are used. */
  readonly policy: Policy;
  /** The actor's action stream, uniform on [0, 1). */
  readonly random: () => number;
  /** Load the newest version before every episode or before every step. */
  readonly hotLoad: HotLoad;
  /** Prefix of the episode ids (`<prefix>-<episode>`), unique among the pool's actors: a retried push adds nothing. */
  readonly idPrefix: string;
  /**
   * How published bytes become θ.
   * @defaultValue {@link thetaLoader} (what {@link PolicyPublisher}'s default codec writes)
   */
  readonly loader?: PolicyLoader<Float64Array>;
  /**
   * What the policy reads for an observation of the environment, given θ of the version acting.
   * @defaultValue the observation itself
   */
  readonly input?: (observation: O, theta: Float64Array) => Observation;
  /**
   * Send each step as a name (in `metadata.positions`) instead of its observation, for a learner that
   * numbers states itself. Absent: the policy's inputs are sent as the trajectory's observations.
   */
  readonly stepName?: (observation: O) => string;
  /** Episodes per pipelined push. @defaultValue 8 */
  readonly pushEvery?: number;
  /**
   * Asked once per batch of episodes (and while a push waits for the rate limiter): true ends the actor.
   * Absent: it runs until its process ends or the pool fails.
   */
  readonly stopped?: (pool: RedisPool) => Promise<boolean>;
  /**
   * Checked against the pool's run notes once the first version is loaded ({@link checkRunNotes}): the
   * run id the actor belongs to (null: any) and the kind of its policy.
   */
  readonly expected?: { readonly runId: string | null; readonly kind: string };
}

/** What {@link runActor} did. */
export interface ActorSummary {
  /** Episodes pushed. */
  readonly episodes: number;
  /** Environment steps in them. */
  readonly steps: number;
}

/**
 * One actor: plays episodes of its environment with the newest published policy version, loaded before
 * every episode or every step (a `PolicyFollower` that learns of versions from the pool's announcements),
 * records per step the action, the behaviour log-probability log q_{v_t}(a_t | o_t) (log-softmax of the
 * policy's logits at θ of version v_t) and v_t, and pushes whole episodes in pipelined batches. A learner
 * that trains from the pool's mirror then has everything the importance weight
 * w(τ) = Π_t π_θ(a_t | o_t) / q_{v_t}(a_t | o_t) needs.
 *
 * @param options - see {@link ActorOptions}
 * @returns the episodes and steps pushed, once `stopped` says so
 * @throws ActorsError `RUN_MISMATCH`, `ARCHITECTURE_MISMATCH`, `NO_RUN_NOTES` with `expected`;
 *   RedisPoolError (`NO_POLICY` when nothing is published yet, `CONNECTION_LOST`, `RATE_LIMITED` after ten
 *   minutes without `stopped`); TrainerError `NON_FINITE_LOGITS`
 * @example
 * ```ts
 * const pool = await RedisPool.open(url, { name: 'run-7' });
 * await runActor({ pool, env: new MyEnv(), policy: new LinearPolicy(4, 84), random, hotLoad: 'step', idPrefix: 'a1' });
 * ```
 */
export async function runActor<O extends Observation>(options: ActorOptions<O>): Promise<ActorSummary> {
  const { pool, env, policy, random, stopped, stepName } = options;
  const input = options.input ?? ((o: O) => o);
  const pushEvery = options.pushEvery ?? 8;
  const d = policy.observationSize;
  const distribution = new ActionDistribution(policy.numActions);
  const follower = new PolicyFollower(pool, options.hotLoad, {
    loader: options.loader ?? thetaLoader,
    notify: true,
  });
  let pending: TrajectoryInput[] = [];
  let ids: string[] = [];
  let episodes = 0;
  let steps = 0;
  let pendingSteps = 0;
  try {
    let policyOf = await follower.beginEpisode();
    if (options.expected !== undefined) {
      await checkRunNotes(pool, {
        runId: options.expected.runId,
        architecture: describeArchitecture(options.expected.kind, policy),
      });
    }
    for (let episode = 0; ; episode++) {
      if (stopped !== undefined && pending.length === 0 && (await stopped(pool))) break;
      if (episode > 0) policyOf = await follower.beginEpisode();
      let observation = env.reset();
      const observations: number[] = [];
      const names: string[] = [];
      const actions: number[] = [];
      const logProbs: number[] = [];
      const versions: number[] = [];
      let total = 0;
      for (;;) {
        if (actions.length > 0) policyOf = await follower.beforeStep();
        const theta = policyOf.parameters;
        const x = input(observation, theta);
        distribution.of(policy, x, theta);
        const action = distribution.sample(random());
        if (stepName !== undefined) names.push(stepName(observation));
        else if (typeof x === 'number') observations.push(x);
        else for (let k = 0; k < d; k++) observations.push(x[k]!);
        actions.push(action);
        logProbs.push(distribution.logProbability(action));
        versions.push(policyOf.version);
        const result = env.step(action);
        total += result.reward;
        if (result.terminated || result.truncated) break;
        observation = result.observation;
      }
      pendingSteps += actions.length;
      pending.push(
        stepName === undefined
          ? { actions, logProbs, versions, return: total, observations }
          : { actions, logProbs, versions, return: total, metadata: { [STEP_NAMES]: names } },
      );
      ids.push(`${options.idPrefix}-${episode}`);
      if (pending.length >= pushEvery) {
        if (!(await push(pool, pending, ids, stopped))) break;
        episodes += pending.length;
        steps += pendingSteps;
        pendingSteps = 0;
        pending = [];
        ids = [];
      }
    }
  } finally {
    await follower.close();
  }
  return { episodes, steps };
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
