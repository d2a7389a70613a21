import type { SparseFeatures } from '@ftw/sokoban';
import {
  SOKOBAN_FEATURE_COUNT as FEATURE_COUNT,
  type Level,
  PositionFeatures,
  positionGrid,
  SokobanEnv,
  type SokobanObservation,
  seededUniform,
} from '@ftw/sokoban';
import type { EnvironmentStep, Evaluation, Policy, TaskEnvironment } from '@ftw/trainer';
import { type LevelSetOptions, levelSet } from './level-set.js';
import { SokobanObservations } from './sokoban-observations.js';

/** A {@link SokobanEpisodeEnv}'s levels ({@link LevelSetOptions}) and how its episodes are played. */
export interface SokobanEpisodeEnvOptions extends LevelSetOptions {
  /** Steps after which an episode is truncated. */
  readonly maxSteps: number;
  /** `binary` (1 when solved, else 0) or gym-sokoban's `shaped` rewards. */
  readonly reward: 'binary' | 'shaped';
  /**
   * Subtracted from the reward at every step (0 normally). A tiny value (10⁻⁶ with at most 10⁵ steps)
   * orders equal returns by episode length, shorter first, without reordering different binary returns.
   */
  readonly lengthTiebreak: number;
}

/** What {@link SokobanEpisodeEnv.scoreLabel} says `Evaluation.score` is. */
export const SOKOBAN_SCORE_LABEL = 'success on training levels';

/** A policy that can act on features directly (the linear policy), for positions without an id. */
export interface FeaturePolicy extends Policy {
  /**
   * @param features - compressed rows of {@link FEATURE_COUNT} features
   * @param row - the position's row in them
   * @param out - receives the logits
   */
  logitsOfFeatures(features: SparseFeatures, row: number, out: Float64Array): void;
}

/**
 * A greedy play of one level: each position's key and the action taken there, and whether it solved it;
 * for a training level, each position's id as well (−1 while the position has none: it may get one later).
 */
interface GreedyPlay {
  readonly keys: string[];
  readonly ids: number[];
  readonly actions: number[];
  solved: boolean;
}

/** No level marked: every play's outcome kept (see `SokobanEpisodeEnv.evaluate`). */
const NOTHING_DIRTY = new Uint8Array(0);

function isFeaturePolicy(policy: Policy): policy is FeaturePolicy {
  return typeof (policy as Partial<FeaturePolicy>).logitsOfFeatures === 'function';
}

/**
 * Sokoban levels from `@ftw/sokoban` as a `@ftw/trainer` task environment whose observations are dense
 * integer ids (the first observation ever returned is 0, every new one is `observationCount` when first
 * returned), with a greedy evaluation: a fixed set of training levels and a
 * held-out set, generated (and certified solvable) from `levelSeed` once per process and shared by the
 * environments of the configuration ({@link levelSet}); each episode plays a training level drawn
 * uniformly from the run's own seeded stream, until it is solved (terminated) or `maxSteps` steps have
 * passed (truncated).
 *
 * Observation ids number the (level, position) pairs met in training, densely in order of discovery, in
 * a {@link SokobanObservations} registry: the environment's own, or one shared by several environments
 * (the simulated actors of an asynchronous run) so that their ids agree; `featureData` gives each id's
 * egocentric features for a linear policy (4 bytes each).
 * Evaluation plays every training and held-out level once with the greedy policy (the most probable
 * action, lowest index among ties; a tabular policy is uniform, so acts Up, on positions never trained
 * on): the score is the share of training levels solved (with a level split, of its first `heldOut`
 * training levels), `heldOutSuccess` that of held-out levels.
 * Evaluation never creates ids.
 *
 * @example
 * ```ts
 * const env = new SokobanEpisodeEnv({ size: 5, boxes: 1, levels: 4, heldOut: 4,
 *   levelSeed: 0, maxMoves: 8, maxSteps: 30, reward: 'binary', lengthTiebreak: 0 }, 1);
 * env.reset(); // 0
 * env.observationCount; // 1
 * ```
 */
export class SokobanEpisodeEnv implements TaskEnvironment<number> {
  /** Up, Down, Left, Right. */
  readonly numActions = 4;
  /** What `evaluate`'s score measures, for chart titles and reports. */
  readonly scoreLabel = SOKOBAN_SCORE_LABEL;
  /** The training levels. */
  readonly trainingLevels: readonly Level[];
  /** The held-out levels. */
  readonly heldOutLevels: readonly Level[];
  /** The training levels evaluation plays: all, or with a level split the first `heldOut` (at least one). */
  readonly #evaluatedLevels: readonly Level[];
  readonly #config: SokobanEpisodeEnvOptions;
  readonly #env: SokobanEnv;
  readonly #evalEnv: SokobanEnv;
  readonly #uniform: () => number;
  readonly #observations: SokobanObservations;
  #level = 0;
  /** Whether the last episode solved its level (the tasks of a difficulty probe are the training levels). */
  succeeded = false;
  readonly #step = { observation: 0, reward: 0, terminated: false, truncated: false };
  /** The last greedy play of each training level, and of each held-out level (see `#successRate`). */
  readonly #trainingPlays: (GreedyPlay | undefined)[] = [];
  readonly #heldOutPlays: (GreedyPlay | undefined)[] = [];
  /** Features of the positions met in evaluation on the training levels, and on the held-out ones. */
  readonly #trainingFeatures = new PositionFeatures();
  readonly #heldOutFeatures = new PositionFeatures();
  readonly #logits = new Float64Array(4);
  /** An id as a batch of one row, for a policy without features. */
  readonly #idRow = new Float64Array(1);
  /** The policy of the last evaluation, and per training level whether a moved position lies on it. */
  #evaluated: Policy | undefined;
  #dirty = new Uint8Array(0);

  /**
   * @param config - the levels and the episodes' length and rewards
   * @param seed - the run's environment seed (level choice per episode)
   * @param observations - the id registry: omitted, the environment's own; shared, only with
   *   environments of the same level set (same configuration)
   * @throws SokobanError `GENERATION_FAILED` when the level set cannot be generated
   */
  constructor(
    config: SokobanEpisodeEnvOptions,
    seed: number,
    observations: SokobanObservations = new SokobanObservations(),
  ) {
    this.#config = config;
    this.#observations = observations;
    const levels = levelSet(config);
    this.trainingLevels = levels.training;
    this.heldOutLevels = levels.heldOut;
    // Playing 10^4 training levels after every iteration would dwarf training: a split's training success
    // is measured on a sample as large as the held-out set.
    this.#evaluatedLevels =
      config.levelSet === 'split' ? levels.training.slice(0, Math.max(1, config.heldOut)) : levels.training;
    this.#uniform = seededUniform(seed);
    // The grids are read at once (a new position's features, a linear policy's evaluation) and never kept:
    // no copy per step. The generator certified every level: solving each again on its first reset would
    // cost about 5 ms per 8 × 8 level with two boxes (50 s for a split of 10^4 levels).
    const envOptions = {
      maxSteps: config.maxSteps,
      reward: config.reward,
      level: levels.training[0]!,
      observationGrid: 'live',
      certify: false,
    } as const;
    this.#env = new SokobanEnv(envOptions);
    this.#evalEnv = new SokobanEnv(envOptions);
  }

  /** Observation ids handed out so far (0 … observationCount − 1); grows as positions are met. */
  get observationCount(): number {
    return this.#observations.count;
  }

  /** Bytes held per known position for features (reported beside the policy's memory). */
  get featureBytes(): number {
    return this.#observations.featureBytes;
  }

  /** The tasks are the training levels. */
  get taskCount(): number {
    return this.trainingLevels.length;
  }

  /** Starts an episode on a training level drawn from the seeded stream; returns its first id. */
  reset(): number {
    return this.resetTask(Math.floor(this.#uniform() * this.trainingLevels.length));
  }

  /** @param task - the training level to play, in [0, taskCount) */
  resetTask(task: number): number {
    this.#level = task;
    const { observation } = this.#env.reset({ options: { level: this.trainingLevels[this.#level]! } });
    return this.#idOf(observation.key, observation.grid, observation.width, observation.height);
  }

  /**
   * @param action - 0 Up, 1 Down, 2 Left, 3 Right
   * @returns the next observation id (0 once the episode has ended), reward and end flags; the object is
   *   reused between calls
   */
  step(action: number): EnvironmentStep<number> {
    const result = this.#env.step(action);
    const step = this.#step;
    step.reward = result.reward - this.#config.lengthTiebreak;
    step.terminated = result.terminated;
    step.truncated = result.truncated;
    this.succeeded = result.info.solved;
    const { observation } = result;
    step.observation =
      result.terminated || result.truncated
        ? 0
        : this.#idOf(observation.key, observation.grid, observation.width, observation.height);
    return step;
  }

  /**
   * @param id - an observation id this environment's registry handed out
   * @returns the position's name, `<training level>|<key>`, the same in every process of the level set
   * @throws RangeError when no position has this id
   */
  positionName(id: number): string {
    return this.#observations.nameOf(id);
  }

  /**
   * The ids of training positions given by their names ({@link SokobanEpisodeEnv.positionName} of another
   * environment of the same level set, in this process or another), created with their features when new:
   * how a learner numbers the positions its actor processes played. All or nothing: when one name is
   * refused, no id is created.
   *
   * @param names - `<training level>|<key>` each
   * @returns the ids in this environment's registry, one per name
   * @throws RangeError naming the first name whose level is not a training level's index or whose key does
   *   not fit that level (see {@link positionGrid})
   */
  idsOfPositions(names: readonly string[]): Int32Array {
    const levels = new Int32Array(names.length);
    const grids: (Uint8Array | undefined)[] = [];
    for (const [i, name] of names.entries()) {
      const bar = name.indexOf('|');
      const digits = name.slice(0, Math.max(bar, 0));
      const level = bar > 0 && /^(0|[1-9]\d*)$/.test(digits) ? Number(digits) : -1;
      if (!(level >= 0 && level < this.trainingLevels.length)) {
        throw new RangeError(
          `name must be <training level>|<key> with a level in 0 … ${this.trainingLevels.length - 1}, got ${JSON.stringify(name)}`,
        );
      }
      levels[i] = level;
      const key = name.slice(bar + 1);
      if (this.#observations.find(level, key) === undefined) {
        grids[i] = positionGrid(this.trainingLevels[level]!, key);
      }
    }
    const ids = new Int32Array(names.length);
    for (const [i, name] of names.entries()) {
      const level = levels[i]!;
      const board = this.trainingLevels[level]!;
      const key = name.slice(name.indexOf('|') + 1);
      ids[i] = this.#observations.idOf(level, key, grids[i] ?? board.grid, board.width, board.height);
    }
    return ids;
  }

  /**
   * @param name - `<training level>|<key>`
   * @returns its id, created when new (see {@link SokobanEpisodeEnv.idsOfPositions})
   * @throws RangeError naming the name when it is not a training position of this level set
   */
  idOfPosition(name: string): number {
    return this.idsOfPositions([name])[0]!;
  }

  /**
   * The features of every id, {@link FEATURE_COUNT} per id, row-major (replaced when it grows). The first
   * read turns features on in the registry (see {@link SokobanObservations.wantFeatures}): a tabular
   * policy never reads them, so a run with one computes none.
   */
  get featureData(): Float32Array {
    this.#observations.wantFeatures(this.trainingLevels);
    return this.#observations.featureData;
  }

  /** The same features without their zeros (see {@link SokobanObservations.sparseFeatures}); turns them on too. */
  get sparseFeatures(): SparseFeatures {
    this.#observations.wantFeatures(this.trainingLevels);
    return this.#observations.sparseFeatures;
  }

  /**
   * With `moved` (the same policy as last time, without features): a position belongs to one training
   * level, so only the plays of the levels that hold a moved position can change, and only they are
   * checked; a held-out play reads no row of such a policy (its positions have no ids), so none is.
   *
   * @param policy - the current policy
   * @param moved - the positions whose logits may have changed since the last evaluation of this policy
   *   (ids whose rows the last update changed), or null/absent for any
   * @returns `{ score: training success, details: { heldOutSuccess } }` of the greedy policy
   */
  evaluate(policy: Policy, moved?: Int32Array | null): Evaluation {
    const known =
      moved !== undefined && moved !== null && policy === this.#evaluated && !isFeaturePolicy(policy);
    this.#evaluated = policy;
    let dirty: Uint8Array | undefined;
    if (known) {
      if (this.#dirty.length < this.trainingLevels.length)
        this.#dirty = new Uint8Array(this.trainingLevels.length);
      dirty = this.#dirty;
      dirty.fill(0);
      for (let k = 0; k < moved.length; k++) {
        const level = this.#observations.levelOf(moved[k]!);
        if (level >= 0 && level < dirty.length) dirty[level] = 1;
      }
    }
    const train = this.#successRate(policy, this.#evaluatedLevels, true, dirty);
    const heldOut =
      this.heldOutLevels.length === 0
        ? 0
        : this.#successRate(policy, this.heldOutLevels, false, known ? NOTHING_DIRTY : undefined);
    return { score: train, details: { heldOutSuccess: heldOut } };
  }

  /**
   * The share of the levels the greedy policy solves.
   * @param dirty - when given, only the levels it marks (and those never played) can have changed: the
   *   other plays' outcomes are kept unchecked
   */
  #successRate(policy: Policy, levels: readonly Level[], training: boolean, dirty?: Uint8Array): number {
    const env = this.#evalEnv;
    const plays = training ? this.#trainingPlays : this.#heldOutPlays;
    let solved = 0;
    levels.forEach((level, index) => {
      // The greedy play is the same as last time when the policy still takes the same action at every
      // position of it (the levels do not change, and play is deterministic): its outcome is kept.
      const last = plays[index];
      if (
        last !== undefined &&
        ((dirty !== undefined && dirty[index] !== 1) || this.#replays(policy, training, index, last))
      ) {
        if (last.solved) solved++;
        return;
      }
      const play: GreedyPlay = { keys: [], ids: [], actions: [], solved: false };
      let { observation } = env.reset({ options: { level } });
      for (;;) {
        const id = training ? (this.#observations.find(index, observation.key) ?? -1) : -1;
        const action = this.#greedyAction(policy, training, index, observation.key, id, observation);
        play.keys.push(observation.key);
        play.ids.push(id);
        play.actions.push(action);
        const result = env.step(action);
        if (result.terminated) play.solved = result.info.solved;
        if (result.terminated || result.truncated) break;
        observation = result.observation;
      }
      plays[index] = play;
      if (play.solved) solved++;
    });
    return solved / levels.length;
  }

  /** Whether the policy takes, at every position of a recorded play, the action taken then. */
  #replays(policy: Policy, training: boolean, index: number, play: GreedyPlay): boolean {
    const { keys, ids, actions } = play;
    for (let t = 0; t < keys.length; t++) {
      // A position without an id when it was played may have been met in training since.
      if (training && ids[t]! < 0) ids[t] = this.#observations.find(index, keys[t]!) ?? -1;
      if (this.#greedyAction(policy, training, index, keys[t]!, ids[t]!) !== actions[t]) return false;
    }
    return true;
  }

  /**
   * The greedy action at a position (the largest logit, the lowest on a tie): of the position's features
   * for a feature policy, of its row for another (logits 0 where it has none: held-out levels, positions
   * never met in training).
   *
   * @param id - the position's id on a training level, −1 for none (read by a policy without features)
   * @param observation - the position, when it is being played (a feature policy's first visit reads its
   *   grid); without it, a feature policy's action at a position whose features were never computed is −1
   */
  #greedyAction(
    policy: Policy,
    training: boolean,
    index: number,
    key: string,
    id: number,
    observation?: SokobanObservation,
  ): number {
    const logits = this.#logits;
    if (isFeaturePolicy(policy)) {
      const features = training ? this.#trainingFeatures : this.#heldOutFeatures;
      const row = observation === undefined ? features.rowOf(index, key) : features.of(index, observation);
      // A position played by a policy without features only: its features were never computed.
      if (row === undefined) return -1;
      policy.logitsOfFeatures(features.sparse, row, logits);
    } else if (id < 0) {
      logits.fill(0);
    } else {
      this.#idRow[0] = id;
      policy.logits(this.#idRow, 1, logits, policy.parameters);
    }
    let best = 0;
    for (let a = 1; a < 4; a++) if (logits[a]! > logits[best]!) best = a;
    return best;
  }

  #idOf(key: string, grid: Uint8Array, width: number, height: number): number {
    return this.#observations.idOf(this.#level, key, grid, width, height);
  }
}
