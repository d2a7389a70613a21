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

/**
 * Collects a batch of episodes with the current policy: for each, `env.reset()`, then per step draw
 * a ~ π(· | o) by inverting the CDF at one uniform of the policy stream, log log π(a | o) and the
 * version, and `env.step(a)` until the episode terminates or is truncated. Each step's observation is
 * copied into the episode (d numbers), so an environment may hand out the same array every step.
 *
 * The episodes' arrays are reused from batch to batch (reallocated only when an episode's length
 * changes), so collecting bandit episodes allocates nothing.
 *
 * @example
 * ```ts
 * const collector = new EpisodeCollector(env, policy, 4);
 * const batch = collector.collect(0, streams.policy); // { steps: 4, returnSum: …, regret: … }
 * collector.episodes[0].actions; // Int32Array [a]
 * ```
 */
export class EpisodeCollector {
  /** The last batch's episodes (overwritten by the next `collect`). */
  readonly episodes: Episode[];
  readonly #env: Environment;
  readonly #policy: Policy;
  readonly #distribution: ActionDistribution;
  /** Numbers per observation, d. */
  readonly #d: number;
  #observations: Float64Array;
  #actions = new Int32Array(16);
  #logProbs = new Float64Array(16);
  /** The result of `collect`, refilled by each call. */
  readonly #batch = { steps: 0, returnSum: 0, regret: null as number | null };

  /**
   * @param env - the environment
   * @param policy - the acting policy
   * @param count - episodes per batch (≥ 1)
   * @throws RangeError when `count` is not an integer ≥ 1
   * @throws TrainerError `ACTION_COUNT_MISMATCH` or `OBSERVATION_SIZE_MISMATCH` when the policy does not
   *   fit the environment
   */
  constructor(env: Environment, policy: Policy, count: number) {
    checkInteger('rollouts', count, 1);
    checkFits(env, policy);
    this.#env = env;
    this.#policy = policy;
    this.#d = policy.observationSize;
    this.#observations = new Float64Array(16 * this.#d);
    this.#distribution = new ActionDistribution(env.numActions);
    this.episodes = Array.from({ length: count }, () => newEpisode(1, this.#d));
  }

  /**
   * Runs one batch of episodes.
   * @param version - the policy version acting (recorded on every step)
   * @param random - the policy stream, uniform on [0, 1)
   * @returns steps, returns and regret of the batch (an object refilled by the next call)
   * @throws TrainerError `EPISODE_TOO_LONG` when an episode exceeds {@link MAX_EPISODE_STEPS} steps,
   *   `NON_FINITE_LOGITS` when the policy returns a NaN or infinite logit
   */
  collect(version: number, random: () => number): CollectedBatch {
    const env = this.#env;
    const hasRegret = env.stepRegret !== undefined;
    const distribution = this.#distribution;
    let steps = 0;
    let returnSum = 0;
    let regret = 0;
    for (let e = 0; e < this.episodes.length; e++) {
      let observation: Observation = env.reset();
      let length = 0;
      let total = 0;
      for (;;) {
        distribution.of(this.#policy, observation);
        if (hasRegret) regret += env.stepRegret!(observation, distribution.probabilities);
        const action = distribution.sample(random());
        if (length === this.#actions.length) this.#growScratch();
        this.#record(observation, length);
        this.#actions[length] = action;
        this.#logProbs[length] = distribution.logProbability(action);
        length++;
        const result = env.step(action);
        total += result.reward;
        if (result.terminated || result.truncated) break;
        if (length >= MAX_EPISODE_STEPS) {
          throw new TrainerError(
            'EPISODE_TOO_LONG',
            `the environment did not end an episode within ${MAX_EPISODE_STEPS} steps; it must terminate or truncate`,
          );
        }
        observation = result.observation;
      }
      let episode = this.episodes[e]!;
      if (episode.length !== length) {
        episode = newEpisode(length, this.#d);
        this.episodes[e] = episode;
      }
      for (let k = 0; k < length * this.#d; k++) episode.observations[k] = this.#observations[k]!;
      for (let t = 0; t < length; t++) {
        episode.actions[t] = this.#actions[t]!;
        episode.logProbs[t] = this.#logProbs[t]!;
        episode.versions[t] = version;
      }
      episode.return = total;
      steps += length;
      returnSum += total;
    }
    const batch = this.#batch;
    batch.steps = steps;
    batch.returnSum = returnSum;
    batch.regret = hasRegret ? regret : null;
    return batch;
  }

  /** Copies step t's observation into the scratch (its length was checked by the distribution). */
  #record(observation: Observation, t: number): void {
    const d = this.#d;
    if (typeof observation === 'number') this.#observations[t] = observation;
    else for (let k = 0; k < d; k++) this.#observations[t * d + k] = observation[k]!;
  }

  #growScratch(): void {
    const size = 2 * this.#actions.length;
    const grow = <T extends Int32Array | Float64Array>(old: T, next: T): T => {
      next.set(old);
      return next;
    };
    this.#observations = grow(this.#observations, new Float64Array(size * this.#d));
    this.#actions = grow(this.#actions, new Int32Array(size));
    this.#logProbs = grow(this.#logProbs, new Float64Array(size));
  }
}
