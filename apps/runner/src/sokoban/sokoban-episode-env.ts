import { generateLevel, type Level, SokobanEnv, seededUniform } from '@ftw/sokoban';
import type { EnvironmentStep, EpisodeEnv, Evaluation } from '../train/episode-env.js';
import type { Policy } from '../train/policy.js';
import type { SokobanEnvironmentConfig } from './sokoban-environment-config.js';
import { FEATURE_COUNT, sokobanFeatures } from './sokoban-features.js';
import { SokobanObservations } from './sokoban-observations.js';

/** A policy that can act on features directly (the linear policy), for positions without an id. */
export interface FeaturePolicy extends Policy {
  /**
   * @param features - {@link FEATURE_COUNT} features of a position
   * @param out - receives the logits
   */
  logitsOfFeatures(features: Float64Array, out: Float64Array): void;
}

function isFeaturePolicy(policy: Policy): policy is FeaturePolicy {
  return typeof (policy as Partial<FeaturePolicy>).logitsOfFeatures === 'function';
}

/**
 * Sokoban levels from `@ftw/sokoban` as an {@link EpisodeEnv}: a fixed set of training levels and a
 * held-out set, generated (and certified solvable) from `levelSeed`; each episode plays a training level
 * drawn uniformly from the run's own seeded stream, until it is solved (terminated) or `maxSteps` steps
 * have passed (truncated).
 *
 * Observation ids number the (level, position) pairs met in training, densely in order of discovery, in
 * a {@link SokobanObservations} registry: the environment's own, or one shared by several environments
 * (the simulated actors of an asynchronous run) so that their ids agree; `featureData` gives each id's
 * egocentric features for a linear policy (4 bytes each).
 * Evaluation plays every training and held-out level once with the greedy policy (the most probable
 * action, lowest index among ties; a tabular policy is uniform, so acts Up, on positions never trained
 * on): the score is the share of training levels solved, `heldOutSuccess` that of held-out levels.
 * Evaluation never creates ids.
 *
 * @example
 * ```ts
 * const env = new SokobanEpisodeEnv({ kind: 'sokoban', size: 5, boxes: 1, levels: 4, heldOut: 4,
 *   levelSeed: 0, maxMoves: 8, maxSteps: 30, reward: 'binary', lengthTiebreak: 0 }, 1);
 * env.reset(); // 0
 * env.observationCount; // 1
 * ```
 */
export class SokobanEpisodeEnv implements EpisodeEnv {
  readonly numActions = 4;
  readonly scoreLabel = 'success on training levels';
  /** The training levels. */
  readonly trainingLevels: readonly Level[];
  /** The held-out levels. */
  readonly heldOutLevels: readonly Level[];
  readonly #config: SokobanEnvironmentConfig;
  readonly #env: SokobanEnv;
  readonly #evalEnv: SokobanEnv;
  readonly #uniform: () => number;
  readonly #observations: SokobanObservations;
  #level = 0;
  readonly #step = { observation: 0, reward: 0, terminated: false, truncated: false };
  readonly #scratch = new Float64Array(FEATURE_COUNT);
  readonly #logits = new Float64Array(4);

  /**
   * @param config - the resolved Sokoban configuration
   * @param seed - the run's environment seed (level choice per episode)
   * @param observations - the id registry: omitted, the environment's own; shared, only with
   *   environments of the same level set (same configuration)
   * @throws SokobanError `GENERATION_FAILED` when the level set cannot be generated
   */
  constructor(
    config: SokobanEnvironmentConfig,
    seed: number,
    observations: SokobanObservations = new SokobanObservations(),
  ) {
    this.#config = config;
    this.#observations = observations;
    const levelStream = seededUniform(config.levelSeed);
    const options = {
      width: config.size,
      height: config.size,
      boxes: config.boxes,
      maxMoves: config.maxMoves,
    };
    const all = Array.from(
      { length: config.levels + config.heldOut },
      () => generateLevel(options, levelStream).level,
    );
    this.trainingLevels = all.slice(0, config.levels);
    this.heldOutLevels = all.slice(config.levels);
    this.#uniform = seededUniform(seed);
    const envOptions = { maxSteps: config.maxSteps, reward: config.reward, level: all[0]! };
    this.#env = new SokobanEnv(envOptions);
    this.#evalEnv = new SokobanEnv(envOptions);
  }

  get observationCount(): number {
    return this.#observations.count;
  }

  /** Bytes held per known position for features (reported beside the policy's memory). */
  get featureBytes(): number {
    return this.#observations.featureBytes;
  }

  reset(): number {
    this.#level = Math.floor(this.#uniform() * this.trainingLevels.length);
    const { observation } = this.#env.reset({ options: { level: this.trainingLevels[this.#level]! } });
    return this.#idOf(observation.key, observation.grid, observation.width, observation.height);
  }

  /**
   * @param action - 0 Up, 1 Down, 2 Left, 3 Right
   * @returns the next observation id (0 once the episode has ended), reward and end flags; the object is
   *   reused between calls
   */
  step(action: number): EnvironmentStep {
    const result = this.#env.step(action);
    const step = this.#step;
    step.reward = result.reward - this.#config.lengthTiebreak;
    step.terminated = result.terminated;
    step.truncated = result.truncated;
    const { observation } = result;
    step.observation =
      result.terminated || result.truncated
        ? 0
        : this.#idOf(observation.key, observation.grid, observation.width, observation.height);
    return step;
  }

  /** The features of every id, {@link FEATURE_COUNT} per id, row-major (replaced when it grows). */
  get featureData(): Float32Array {
    return this.#observations.featureData;
  }

  /**
   * @param policy - the current policy
   * @returns `{ score: training success, details: { heldOutSuccess } }` of the greedy policy
   */
  evaluate(policy: Policy): Evaluation {
    const train = this.#successRate(policy, this.trainingLevels, true);
    const heldOut =
      this.heldOutLevels.length === 0 ? 0 : this.#successRate(policy, this.heldOutLevels, false);
    return { score: train, details: { heldOutSuccess: heldOut } };
  }

  #successRate(policy: Policy, levels: readonly Level[], training: boolean): number {
    const env = this.#evalEnv;
    const logits = this.#logits;
    let solved = 0;
    levels.forEach((level, index) => {
      let { observation } = env.reset({ options: { level } });
      for (;;) {
        if (isFeaturePolicy(policy)) {
          sokobanFeatures(observation.grid, observation.width, observation.height, this.#scratch);
          policy.logitsOfFeatures(this.#scratch, logits);
        } else {
          const id = training ? this.#observations.find(index, observation.key) : undefined;
          if (id === undefined) logits.fill(0);
          else policy.logits(id, logits, 0, policy.parameters);
        }
        let best = 0;
        for (let a = 1; a < 4; a++) if (logits[a]! > logits[best]!) best = a;
        const result = env.step(best);
        if (result.terminated) solved += result.info.solved ? 1 : 0;
        if (result.terminated || result.truncated) break;
        observation = result.observation;
      }
    });
    return solved / levels.length;
  }

  #idOf(key: string, grid: Uint8Array, width: number, height: number): number {
    return this.#observations.idOf(this.#level, key, grid, width, height);
  }
}
