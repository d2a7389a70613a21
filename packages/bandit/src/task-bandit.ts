import type { ArmTable } from './arm-table.js';
import type {
  BanditEnv,
  PolicyProbabilities,
  ResetOptions,
  ResetResult,
  StepInfo,
  StepResult,
} from './bandit-env.js';
import { BanditError } from './bandit-error.js';
import { policyRegret } from './policy-regret.js';
import { RandomSource } from './random-source.js';
import { TaskDistribution } from './task-distribution.js';
import { checkInteger, checkObject } from './validate.js';

/**
 * The engine shared by every environment of the package: a list of tasks (arm tables), a task
 * distribution drawn from at `reset` (no draw when there is one task), and the one-step episode state.
 * Not exported by name; {@link GaussianBandit}, {@link BernoulliBandit} and {@link ContextualBandit}
 * extend it.
 */
export abstract class TaskBandit implements BanditEnv {
  /** Number of arms; actions are the integers 0 … numActions − 1. */
  readonly numActions: number;
  /** Number of observations (tasks); 1 for a non-contextual bandit. */
  readonly numObservations: number;
  private readonly tables: readonly ArmTable[];
  private readonly distribution: TaskDistribution;
  private readonly source: RandomSource;
  /** One frozen reset result per task and one frozen step info per (task, action): no allocation per call. */
  private readonly resetResults: readonly ResetResult[];
  private readonly stepInfos: ReadonlyArray<readonly StepInfo[]>;
  private current: ArmTable;
  private currentInfos: readonly StepInfo[];
  private task = 0;
  private open = false;
  private started = false;

  /**
   * @param tables - validated tasks, all with the same number of arms
   * @param taskWeights - validated task distribution, one entry per table
   * @param seed - unvalidated seed option
   * @param random - unvalidated random option
   */
  protected constructor(
    tables: readonly ArmTable[],
    taskWeights: Float64Array,
    seed: unknown,
    random: unknown,
  ) {
    this.source = new RandomSource(seed, random);
    this.tables = tables;
    this.current = tables[0]!;
    this.numObservations = tables.length;
    this.numActions = this.current.means.length;
    this.distribution = new TaskDistribution(tables, taskWeights);
    this.resetResults = tables.map((table, t) =>
      Object.freeze({ observation: t, info: Object.freeze({ optimalAction: table.best }) }),
    );
    this.stepInfos = tables.map((table) =>
      Array.from(table.means, (mean) =>
        Object.freeze({ expectedReward: mean, regret: table.bestMean - mean }),
      ),
    );
    this.currentInfos = this.stepInfos[0]!;
  }

  /**
   * Starts an episode: re-seeds when `seed` is given, then draws the task from the task distribution
   * (one uniform; none when there is a single task).
   *
   * @param options - optional `{ seed }`; a seed restarts the stream exactly as a fresh environment
   * @returns the observation (task index) and `{ optimalAction }` of the task, as a frozen object shared by
   *   every episode of that task
   * @throws TypeError when `options` is not an object; RangeError/TypeError on a bad seed;
   *   BanditError `NOT_RESEEDABLE` when a seed is given to an environment built with `random`
   */
  reset(options?: ResetOptions): ResetResult {
    if (options !== undefined) {
      checkObject(options, 'options');
      if (options.seed !== undefined) this.source.reseed(options.seed);
    }
    const task = this.tables.length > 1 ? this.distribution.draw(this.source.uniform()) : 0;
    this.task = task;
    this.current = this.tables[task]!;
    this.currentInfos = this.stepInfos[task]!;
    this.open = true;
    this.started = true;
    return this.resetResults[task]!;
  }

  /**
   * Pulls `action` in the current episode and terminates it. A Gaussian arm draws one normal (one
   * uniform on average), a Bernoulli arm one uniform.
   *
   * @param action - integer in [0, numActions)
   * @returns `{ observation, reward, terminated: true, truncated: false, info: { expectedReward, regret } }`;
   *   `info` is frozen and shared by every step of that action in that task
   * @throws TypeError/RangeError when `action` is not an integer in range (the episode stays open);
   *   BanditError `RESET_REQUIRED` before the first `reset` or after the episode terminated
   */
  step(action: number): StepResult {
    checkInteger(action, 'action', 0, this.numActions - 1);
    if (!this.open) {
      throw new BanditError(
        'RESET_REQUIRED',
        this.started
          ? 'step() after the episode terminated: a bandit episode is one step, call reset() before every step'
          : 'step() before reset(): call reset() to start an episode',
      );
    }
    const table = this.current;
    const mean = table.means[action]!;
    const reward = table.gaussian
      ? mean + table.stds[action]! * this.source.normal.next()
      : this.source.uniform() < mean
        ? 1
        : 0;
    this.open = false;
    return {
      observation: this.task,
      reward,
      terminated: true,
      truncated: false,
      info: this.currentInfos[action]!,
    };
  }

  /**
   * @param observation - the task; omitted, the arm best on average over the task distribution
   * @returns the action of highest expected reward, the lowest index among ties
   * @throws TypeError/RangeError when `observation` is not an integer in [0, numObservations)
   */
  optimalAction(observation?: number): number {
    if (observation === undefined) return this.distribution.mixtureBest;
    return this.tables[checkInteger(observation, 'observation', 0, this.numObservations - 1)]!.best;
  }

  /**
   * @param action - integer in [0, numActions)
   * @param observation - the task; omitted, averaged over the task distribution (Σ_t q_t μ_t(a))
   * @returns the expected reward of `action`
   * @throws TypeError/RangeError when `action` or `observation` is not an integer in range
   */
  expectedReward(action: number, observation?: number): number {
    checkInteger(action, 'action', 0, this.numActions - 1);
    if (observation === undefined) return this.distribution.mixtureMeans[action]!;
    return this.tables[checkInteger(observation, 'observation', 0, this.numObservations - 1)]!.means[action]!;
  }

  /**
   * Expected regret per step of a stochastic policy against the oracle that knows the task:
   * regret_t(π) = Σ_a π(a | t) (μ_t* − μ_t(a)), averaged over tasks with their probabilities q_t.
   *
   * - one row and an observation t: regret_t(π) in that task;
   * - one row and no observation: the same row in every task, Σ_t q_t regret_t(π) (a policy that ignores
   *   the observation pays for it here);
   * - one row per observation (a tabular policy): Σ_t q_t regret_t(π(· | t)).
   *
   * @param probabilities - a row of `numActions` probabilities (≥ 0, summing to 1 within 1e-9), or an array
   *   of `numObservations` such rows
   * @param observation - the task a single row applies to; must be omitted with one row per observation
   * @returns the expected regret, ≥ 0, and exactly 0 when all mass sits on optimal arms
   * @throws TypeError/RangeError on a malformed row, a wrong number of rows or a bad `observation`
   */
  regret(probabilities: PolicyProbabilities, observation?: number): number {
    return policyRegret(this.tables, this.distribution.weights, probabilities, observation);
  }
}
