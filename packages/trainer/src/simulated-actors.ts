import { ActionDistribution } from './action-distribution.js';
import type { Environment } from './environment.js';
import type { Episode } from './episode.js';
import { checkFits } from './episode-collector.js';
import { ParameterSnapshots } from './parameter-snapshots.js';
import type { Observation, Policy } from './policy.js';
import { checkChoice, checkInteger } from './validate.js';

/** The settings of {@link SimulatedActors}. */
export interface SimulatedActorsOptions {
  /** L ≥ 0: actors act with the policy L versions older than the learner's. */
  readonly lag: number;
  /** When actors load the newest visible version: at the start of each episode, or before every step. */
  readonly hotLoad: 'episode' | 'step';
}

/** What {@link SimulatedActors.collect} gathered. */
export interface SimulatedBatch {
  /** The episodes completed, in the order they completed (new arrays: the learner may keep them). */
  readonly episodes: readonly Episode[];
  /** Σ of their returns. */
  readonly returnSum: number;
  /** Environment steps taken by all actors during the call (finished episodes or not). */
  readonly steps: number;
  /** Σ over those steps of the environments' expected regret, or null without `stepRegret`. */
  readonly regret: number | null;
}

interface Actor {
  readonly env: Environment;
  observation: Observation;
  /** Steps taken in the episode in progress (0: at its start). */
  length: number;
  /** Policy version in use. */
  version: number;
  observations: number[];
  actions: number[];
  logProbs: number[];
  versions: number[];
  total: number;
}

/**
 * Asynchronous actors, simulated deterministically in one thread: each actor has its own environment and
 * they take one step each in turn. An actor acts with the learner's version `lag` updates late,
 * v_actor = max(0, v − lag) for the learner's version v, loaded at the start of each episode
 * (`hotLoad: 'episode'`) or before every step (`'step'`: an episode that spans an update then has steps
 * of several versions). Each step records its behaviour log-probability under the version that took it
 * and that version, so trajectories that span versions are weighted exactly (the design notes' mixed-version
 * trajectories). θ of every version an actor may still use is kept in {@link ParameterSnapshots}, at a
 * cost that follows the rows the updates move.
 *
 * With one actor and lag 0 the episodes are those of `EpisodeCollector` with the same random stream.
 *
 * @example
 * ```ts
 * const actors = new SimulatedActors([envA, envB], policy, { lag: 2, hotLoad: 'step' });
 * const batch = actors.collect(4, version, random); // 4 completed episodes; the others carry on
 * const stats = updater.update(batch.episodes, version);
 * if (stats !== null) actors.updated(++version, stats.moved);
 * ```
 */
export class SimulatedActors {
  readonly #actors: Actor[];
  readonly #policy: Policy;
  readonly #options: SimulatedActorsOptions;
  readonly #distribution: ActionDistribution;
  readonly #snapshots: ParameterSnapshots;
  #next = 0;

  /**
   * @param envs - one environment per actor (≥ 1), each with the policy's action count
   * @param policy - the learner's policy (its θ now is version 0)
   * @param options - lag and hot-loading
   * @throws RangeError when there is no environment, `lag` is not an integer ≥ 0 or `hotLoad` unknown
   * @throws TrainerError `ACTION_COUNT_MISMATCH` / `OBSERVATION_SIZE_MISMATCH` when the policy does not
   *   fit an environment
   */
  constructor(envs: readonly Environment[], policy: Policy, options: SimulatedActorsOptions) {
    checkInteger('envs.length', envs.length, 1);
    checkInteger('lag', options.lag, 0);
    checkChoice('hotLoad', options.hotLoad, ['episode', 'step'] as const);
    for (const env of envs) checkFits(env, policy);
    this.#policy = policy;
    this.#options = options;
    this.#actors = envs.map((env) => ({
      env,
      observation: 0,
      length: 0,
      version: 0,
      observations: [],
      actions: [],
      logProbs: [],
      versions: [],
      total: 0,
    }));
    this.#distribution = new ActionDistribution(policy.numActions);
    this.#snapshots = new ParameterSnapshots(policy);
  }

  /**
   * Steps the actors in turn until `count` episodes have completed; the others' episodes carry on into
   * the next call.
   *
   * @param count - episodes to complete (≥ 1)
   * @param version - the learner's current version
   * @param random - uniform on [0, 1): one draw per step, actors in turn
   * @returns the completed episodes and what the steps summed
   */
  collect(count: number, version: number, random: () => number): SimulatedBatch {
    const actors = this.#actors;
    const distribution = this.#distribution;
    const policy = this.#policy;
    const d = policy.observationSize;
    const visible = Math.max(0, version - this.#options.lag);
    const completed: Episode[] = [];
    let returnSum = 0;
    let steps = 0;
    // Summed per call, then added by the caller, in the order the synchronous loop uses (bit-identical).
    let regret = 0;
    const hasRegret = actors[0]!.env.stepRegret !== undefined;
    while (completed.length < count) {
      const actor = actors[this.#next]!;
      this.#next = this.#next + 1 === actors.length ? 0 : this.#next + 1;
      if (actor.length === 0) {
        actor.observation = actor.env.reset();
        actor.version = visible;
      } else if (this.#options.hotLoad === 'step') {
        actor.version = visible;
      }
      distribution.of(policy, actor.observation, this.#snapshots.at(actor.version));
      if (hasRegret) regret += actor.env.stepRegret!(actor.observation, distribution.probabilities);
      const action = distribution.sample(random());
      const observation = actor.observation;
      if (typeof observation === 'number') actor.observations.push(observation);
      else for (let k = 0; k < d; k++) actor.observations.push(observation[k]!);
      actor.actions.push(action);
      actor.logProbs.push(distribution.logProbability(action));
      actor.versions.push(actor.version);
      actor.length++;
      steps++;
      const result = actor.env.step(action);
      actor.total += result.reward;
      if (result.terminated || result.truncated) {
        completed.push({
          length: actor.length,
          observations: Float64Array.from(actor.observations),
          actions: Int32Array.from(actor.actions),
          logProbs: Float64Array.from(actor.logProbs),
          versions: Uint32Array.from(actor.versions),
          return: actor.total,
        });
        returnSum += actor.total;
        actor.length = 0;
        actor.total = 0;
        actor.observations = [];
        actor.actions = [];
        actor.logProbs = [];
        actor.versions = [];
      } else {
        actor.observation = result.observation;
      }
    }
    return { episodes: completed, returnSum, steps, regret: hasRegret ? regret : null };
  }

  /**
   * Records the learner's new version after an update, and releases the versions no actor can use any
   * more (older than what actors hold or will load).
   *
   * @param version - the new version (the previous one + 1)
   * @param moved - the rows the update moved (`UpdateStats.moved`), or null for any
   */
  updated(version: number, moved: Int32Array | null): void {
    this.#snapshots.record(version, moved);
    let oldest = Math.max(0, version - this.#options.lag);
    for (const a of this.#actors) if (a.length > 0 && a.version < oldest) oldest = a.version;
    this.#snapshots.release(oldest);
  }
}
