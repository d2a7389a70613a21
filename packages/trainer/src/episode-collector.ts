import { ActionDistribution } from './action-distribution.js';
import type { Environment } from './environment.js';
import type { Episode } from './episode.js';
import type { Observation, Policy } from './policy.js';
import { TrainerError } from './trainer-error.js';
import { checkInteger } from './validate.js';

/** An episode longer than this means an environment that never ends its episodes: a bug, not data. */
export const MAX_EPISODE_STEPS = 1_000_000;

/** What one {@link EpisodeCollector.collect} gathered besides the episodes. */
export interface CollectedBatch {
  /** Environment steps taken (Σ episode lengths): the sampling budget spent. */
  readonly steps: number;
  /** Σ of the episodes' returns. */
  readonly returnSum: number;
  /** Σ over steps of the environment's expected regret of the acting probabilities, or null without one. */
  readonly regret: number | null;
}

/**
 * Checks that a policy can act in an environment: the same number of actions and of numbers per
 * observation.
 *
 * @param env - the environment
 * @param policy - the policy
 * @throws TrainerError `ACTION_COUNT_MISMATCH` or `OBSERVATION_SIZE_MISMATCH`, naming both values
 * @example
 * ```ts
 * checkFits(twoArmedBandit, new TabularPolicy(3)); // TrainerError: ACTION_COUNT_MISMATCH: policy.numActions is 3, env.numActions is 2
 * ```
 */
export function checkFits(env: Environment, policy: Policy): void {
  if (policy.numActions !== env.numActions) {
    throw new TrainerError(
      'ACTION_COUNT_MISMATCH',
      `policy.numActions is ${String(policy.numActions)}, env.numActions is ${String(env.numActions)}`,
    );
  }
  const d = env.observationSize ?? 1;
  if (policy.observationSize !== d) {
    throw new TrainerError(
      'OBSERVATION_SIZE_MISMATCH',
      `policy.observationSize is ${String(policy.observationSize)}, env.observationSize is ${String(d)}`,
    );
  }
}

/**
 * Checks that environment instances stepped together are alike: the same number of actions and of numbers
 * per observation as the first.
 *
 * @param envs - the instances
 * @throws TrainerError `ENV_MISMATCH` naming the first instance that differs, the field and both values
 */
export function checkAlike(envs: readonly Environment[]): void {
  const first = envs[0]!;
  for (let j = 1; j < envs.length; j++) {
    const env = envs[j]!;
    if (env.numActions !== first.numActions) {
      throw new TrainerError(
        'ENV_MISMATCH',
        `env[${j}].numActions is ${String(env.numActions)}, env[0].numActions is ${String(first.numActions)}`,
      );
    }
    if ((env.observationSize ?? 1) !== (first.observationSize ?? 1)) {
      throw new TrainerError(
        'ENV_MISMATCH',
        `env[${j}].observationSize is ${String(env.observationSize ?? 1)}, env[0].observationSize is ${String(first.observationSize ?? 1)}`,
      );
    }
  }
}

function newEpisode(length: number, d: number): Episode {
  return {
    length,
    observations: new Float64Array(length * d),
    actions: new Int32Array(length),
    logProbs: new Float64Array(length),
    versions: new Uint32Array(length),
    return: 0,
  };
}

/** One environment instance's episode in progress, with its own scratch (grown by doubling). */
interface Lane {
  readonly env: Environment;
  /** The batch slot its episode fills, −1 when idle. */
  slot: number;
  observation: Observation;
  length: number;
  total: number;
  observations: Float64Array;
  actions: Int32Array;
  logProbs: Float64Array;
  logits: Float64Array;
}

/**
 * Collects a batch of episodes with the current policy from one or several environment instances stepped
 * in lockstep (a vectorised environment, as Gymnasium's `VectorEnv` or SB3's `n_envs`): each step, the
 * observations of every instance whose episode is in progress go to the policy as one batch of rows (one
 * `policy.logits` call), then each instance, in order, draws a ~ π(· | o) by inverting the CDF at one
 * uniform of its own stream, logs log π(a | o) and the version, and steps. An instance whose episode ends
 * starts the next episode of the batch (`reset`) while episodes remain to start, and idles otherwise.
 * Episode i of the batch is the i-th started. Each step's observation is copied into the episode (d numbers),
 * so an environment may hand out the same array every step.
 *
 * The invariant this keeps: instance j's episodes, in the order it ran them, are exactly those a collector
 * with instance j alone and stream j would collect (when the policy's batched logits equal its one-row
 * logits, as for every policy of this package). With one instance it is the one-at-a-time collector.
 *
 * Arrays are reused from batch to batch (an episode's are reallocated only when its length changes; the
 * per-instance scratch grows by doubling), so a step allocates nothing.
 *
 * @example
 * ```ts
 * const collector = new EpisodeCollector([envA, envB], policy, 4);
 * const batch = collector.collect(0, [streamA, streamB]); // { steps: …, returnSum: …, regret: … }
 * collector.episodes[0].actions; // the actions of the first episode envA started
 * ```
 */
export class EpisodeCollector {
  /** The last batch's episodes (overwritten by the next `collect`). */
  readonly episodes: Episode[];
  /**
   * Per episode of the last batch, the behaviour policy's logits at each of its steps (`length × numActions`,
   * the values it acted on): what the policy gave before any update of the batch, without a second pass.
   */
  readonly stepLogits: Float64Array[];
  readonly #lanes: Lane[];
  readonly #policy: Policy;
  readonly #distribution: ActionDistribution;
  /** Numbers per observation, d. */
  readonly #d: number;
  /** The live instances' observations as rows, and their logits. */
  readonly #rows: Float64Array;
  readonly #logits: Float64Array;
  /** The lane of each row of the step's batch. */
  readonly #rowLane: Int32Array;
  /** One stream wrapped as an array (a function given to `collect`). */
  readonly #single: (() => number)[] = [];
  /** The result of `collect`, refilled by each call. */
  readonly #batch = { steps: 0, returnSum: 0, regret: null as number | null };

  /**
   * @param env - the environment, or several instances of it stepped in lockstep
   * @param policy - the acting policy
   * @param count - episodes per batch (≥ 1)
   * @throws RangeError when `count` is not an integer ≥ 1 or no instance is given
   * @throws TrainerError `ENV_MISMATCH` when the instances differ in actions or observation size,
   *   `ACTION_COUNT_MISMATCH` or `OBSERVATION_SIZE_MISMATCH` when the policy does not fit them
   */
  constructor(env: Environment | readonly Environment[], policy: Policy, count: number) {
    checkInteger('rollouts', count, 1);
    const envs = environments(env);
    checkAlike(envs);
    checkFits(envs[0]!, policy);
    this.#policy = policy;
    const d = policy.observationSize;
    this.#d = d;
    this.#distribution = new ActionDistribution(policy.numActions);
    this.#lanes = envs.map((e) => ({
      env: e,
      slot: -1,
      observation: 0,
      length: 0,
      total: 0,
      observations: new Float64Array(16 * d),
      actions: new Int32Array(16),
      logProbs: new Float64Array(16),
      logits: new Float64Array(16 * policy.numActions),
    }));
    this.#rows = new Float64Array(envs.length * d);
    this.#logits = new Float64Array(envs.length * policy.numActions);
    this.#rowLane = new Int32Array(envs.length);
    this.episodes = Array.from({ length: count }, () => newEpisode(1, d));
    this.stepLogits = Array.from({ length: count }, () => new Float64Array(policy.numActions));
  }

  /** Environment instances stepped together. */
  get width(): number {
    return this.#lanes.length;
  }

  /**
   * Runs one batch of episodes.
   * @param version - the policy version acting (recorded on every step)
   * @param random - the policy stream, uniform on [0, 1); with several instances, one stream per instance
   * @returns steps, returns and regret of the batch (an object refilled by the next call)
   * @throws RangeError when the number of streams is not the number of instances
   * @throws TrainerError `EPISODE_TOO_LONG` when an episode exceeds {@link MAX_EPISODE_STEPS} steps,
   *   `NON_FINITE_LOGITS` when the policy returns a NaN or infinite logit (naming the row),
   *   `OBSERVATION_SIZE_MISMATCH` when an observation has not `observationSize` numbers
   */
  collect(version: number, random: (() => number) | readonly (() => number)[]): CollectedBatch {
    const lanes = this.#lanes;
    const randoms = typeof random === 'function' ? this.#wrap(random) : random;
    if (randoms.length !== lanes.length) {
      throw new RangeError(
        `random must hold one stream per environment instance (${lanes.length}), got ${randoms.length}`,
      );
    }
    const policy = this.#policy;
    const hasRegret = lanes[0]!.env.stepRegret !== undefined;
    const distribution = this.#distribution;
    const d = this.#d;
    const rowsData = this.#rows;
    const rowLane = this.#rowLane;
    const logits = this.#logits;
    const count = this.episodes.length;
    const A = policy.numActions;
    let started = 0;
    let steps = 0;
    let returnSum = 0;
    let regret = 0;
    for (const lane of lanes) {
      lane.slot = -1;
      if (started < count) this.#start(lane, started++);
    }
    for (;;) {
      let rows = 0;
      for (let j = 0; j < lanes.length; j++) {
        const lane = lanes[j]!;
        if (lane.slot < 0) continue;
        this.#row(lane.observation, rows);
        rowLane[rows++] = j;
      }
      if (rows === 0) break;
      policy.logits(rowsData, rows, logits);
      for (let r = 0; r < rows; r++) {
        const lane = lanes[rowLane[r]!]!;
        const env = lane.env;
        distribution.ofLogits(logits, r);
        if (hasRegret) regret += env.stepRegret!(lane.observation, distribution.probabilities);
        const action = distribution.sample(randoms[rowLane[r]!]!());
        const t = lane.length;
        if (t === lane.actions.length) grow(lane, d, A);
        for (let k = 0; k < d; k++) lane.observations[t * d + k] = rowsData[r * d + k]!;
        for (let a = 0; a < A; a++) lane.logits[t * A + a] = logits[r * A + a]!;
        lane.actions[t] = action;
        lane.logProbs[t] = distribution.logProbability(action);
        lane.length = t + 1;
        const result = env.step(action);
        lane.total += result.reward;
        if (result.terminated || result.truncated) {
          steps += lane.length;
          returnSum += lane.total;
          this.#finish(lane, version);
          if (started < count) this.#start(lane, started++);
          continue;
        }
        if (lane.length >= MAX_EPISODE_STEPS) {
          throw new TrainerError(
            'EPISODE_TOO_LONG',
            `the environment did not end an episode within ${MAX_EPISODE_STEPS} steps; it must terminate or truncate`,
          );
        }
        lane.observation = result.observation;
      }
    }
    const batch = this.#batch;
    batch.steps = steps;
    batch.returnSum = returnSum;
    batch.regret = hasRegret ? regret : null;
    return batch;
  }

  #wrap(random: () => number): readonly (() => number)[] {
    this.#single[0] = random;
    return this.#single;
  }

  #start(lane: Lane, slot: number): void {
    lane.slot = slot;
    lane.length = 0;
    lane.total = 0;
    lane.observation = lane.env.reset();
  }

  /** Copies the lane's episode into its slot of {@link EpisodeCollector.episodes} and idles the lane. */
  #finish(lane: Lane, version: number): void {
    const d = this.#d;
    const length = lane.length;
    let episode = this.episodes[lane.slot]!;
    const A = this.#policy.numActions;
    if (episode.length !== length) {
      episode = newEpisode(length, d);
      this.episodes[lane.slot] = episode;
      this.stepLogits[lane.slot] = new Float64Array(length * A);
    }
    this.stepLogits[lane.slot]!.set(lane.logits.subarray(0, length * A));
    for (let k = 0; k < length * d; k++) episode.observations[k] = lane.observations[k]!;
    for (let t = 0; t < length; t++) {
      episode.actions[t] = lane.actions[t]!;
      episode.logProbs[t] = lane.logProbs[t]!;
      episode.versions[t] = version;
    }
    episode.return = lane.total;
    lane.slot = -1;
  }

  /** Writes an observation into row r of the step's batch, checking its length. */
  #row(observation: Observation, r: number): void {
    const d = this.#d;
    const rows = this.#rows;
    if (typeof observation === 'number') {
      rows[r * d] = observation;
      return;
    }
    if (observation.length !== d) {
      throw new TrainerError(
        'OBSERVATION_SIZE_MISMATCH',
        `observation has ${observation.length} numbers, the policy's observationSize is ${d}`,
      );
    }
    for (let k = 0; k < d; k++) rows[r * d + k] = observation[k]!;
  }
}

/** The instances as a non-empty array. */
function environments(env: Environment | readonly Environment[]): readonly Environment[] {
  if (!Array.isArray(env)) return [env as Environment];
  if (env.length === 0) throw new RangeError('env must hold at least one environment instance, got none');
  return env;
}

/** Doubles a lane's scratch, keeping what it holds. */
function grow(lane: Lane, d: number, A: number): void {
  const size = 2 * lane.actions.length;
  const observations = new Float64Array(size * d);
  observations.set(lane.observations);
  lane.observations = observations;
  const actions = new Int32Array(size);
  actions.set(lane.actions);
  lane.actions = actions;
  const logProbs = new Float64Array(size);
  logProbs.set(lane.logProbs);
  lane.logProbs = logProbs;
  const logits = new Float64Array(size * A);
  logits.set(lane.logits);
  lane.logits = logits;
}
