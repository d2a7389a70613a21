import { describeValue } from '@ftw/internal';
import { type ArmTable, bernoulliTable, gaussianTable } from './arm-table.js';
import { TaskBandit } from './task-bandit.js';
import { checkObject } from './validate.js';
import { toDistribution } from './validate-probability.js';

/** A task of a {@link ContextualBandit} with Gaussian arms. */
export interface GaussianTask {
  readonly kind: 'gaussian';
  /** Mean reward of each arm, finite. */
  readonly means: ArrayLike<number>;
  /** Standard deviation of each arm (finite, ≥ 0), or one value for all arms. */
  readonly stds: ArrayLike<number> | number;
}

/** A task of a {@link ContextualBandit} with Bernoulli arms. */
export interface BernoulliTask {
  readonly kind: 'bernoulli';
  /** Success probability of each arm, in [0, 1]. */
  readonly probabilities: ArrayLike<number>;
}

/** One task of a {@link ContextualBandit}: its own arm distributions. */
export type ContextualTask = GaussianTask | BernoulliTask;

/** Options of {@link ContextualBandit}. */
export interface ContextualBanditOptions {
  /** The tasks; at least one, all with the same number of arms. Gaussian and Bernoulli tasks may mix. */
  readonly tasks: ReadonlyArray<ContextualTask>;
  /**
   * Probability of drawing each task at `reset`: entries in [0, 1] summing to 1 (within 1e-9).
   * @defaultValue uniform, 1 / tasks.length each
   */
  readonly taskProbabilities?: ArrayLike<number> | undefined;
  /**
   * Seed of the default generator ({@link seededUniform}); any safe integer. Not allowed with `random`.
   * @defaultValue 0
   */
  readonly seed?: number | undefined;
  /**
   * An injected uniform generator on [0, 1) used instead of the default one; each draw is checked.
   * @defaultValue undefined (the seeded default generator)
   */
  readonly random?: (() => number) | undefined;
}

function taskTable(task: unknown, index: number): ArmTable {
  const prefix = `tasks[${index}].`;
  checkObject(task, `tasks[${index}]`);
  const fields = task as Record<string, unknown>;
  if (fields.kind === 'gaussian') return gaussianTable(fields.means, fields.stds, prefix);
  if (fields.kind === 'bernoulli') return bernoulliTable(fields.probabilities, prefix);
  throw new TypeError(`${prefix}kind must be 'gaussian' or 'bernoulli', got ${describeValue(fields.kind)}`);
}

/**
 * A contextual multi-task bandit: every episode draws a task t with probability q_t at `reset` (one
 * uniform, by inversion of the cumulative distribution), the observation is t, and the arms pay by task
 * t's own distributions. Trajectories therefore carry an observation, and a tabular policy keeps one row
 * of action probabilities per task. Gymnasium-shaped API ({@link BanditEnv}).
 *
 * Without an observation, `expectedReward(a)` and `optimalAction()` refer to the task mixture
 * (Σ_t q_t μ_t(a)); `regret(row)` charges a context-free policy against the oracle that sees the task.
 *
 * @example
 * ```ts
 * const env = new ContextualBandit({
 *   tasks: [
 *     { kind: 'bernoulli', probabilities: [0.9, 0.1] },
 *     { kind: 'gaussian', means: [0, 1], stds: 0.5 },
 *   ],
 *   taskProbabilities: [0.25, 0.75],
 *   seed: 5,
 * });
 * const { observation } = env.reset();
 * console.log(observation === 0 || observation === 1, env.numObservations, env.optimalAction(1));
 * // true 2 1
 * console.log(env.regret([[1, 0], [0, 1]]), env.regret([1, 0]));
 * // 0 0.75
 * ```
 */
export class ContextualBandit extends TaskBandit {
  /**
   * @param options - the tasks, their probabilities, and the seed or an injected generator
   * @throws TypeError when `options` or a task is not an object, a task's `kind` is unknown, an entry is
   *   not a number, or both `seed` and `random` are given; RangeError on no tasks, a task with no arms,
   *   tasks with different numbers of arms, a bad mean, standard deviation or probability (the message
   *   names it, e.g. `tasks[1].stds[0]`), bad task probabilities, or a seed that is not a safe integer
   */
  constructor(options: ContextualBanditOptions) {
    checkObject(options, 'options');
    const { tasks } = options;
    if (!Array.isArray(tasks))
      throw new TypeError(`tasks must be an array of tasks, got ${describeValue(tasks)}`);
    if (tasks.length === 0) throw new RangeError('tasks must hold at least one task, got an empty array');
    const tables = tasks.map((task: unknown, t) => taskTable(task, t));
    const arms = tables[0]!.means.length;
    tables.forEach((table, t) => {
      if (table.means.length !== arms) {
        throw new RangeError(
          `tasks[${t}] must have ${arms} arms like tasks[0] (every task shares the action space), got ${table.means.length}`,
        );
      }
    });
    const weights =
      options.taskProbabilities === undefined
        ? new Float64Array(tables.length).fill(1 / tables.length)
        : toDistribution(options.taskProbabilities, 'taskProbabilities', tables.length);
    super(tables, weights, options.seed, options.random);
  }
}
