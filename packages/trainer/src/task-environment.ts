import type { Environment } from './environment.js';
import type { Observation } from './policy.js';

/**
 * An {@link Environment} whose episodes are played on tasks (levels, problems) numbered
 * 0 … `taskCount` − 1, where an episode can be started on a chosen task and says whether it succeeded:
 * what a difficulty probe needs ({@link probeTasks}, {@link ProbedTasks}). `reset()` still starts an
 * episode on a task of the environment's own choosing.
 *
 * @example
 * ```ts
 * const coins: TaskEnvironment = {
 *   numActions: 1,
 *   taskCount: 2,
 *   succeeded: false,
 *   reset() { return this.resetTask(0); },
 *   resetTask(task) { this.succeeded = Math.random() < [0.2, 0.7][task]!; return task; },
 *   step: () => ({ observation: 0, reward: 0, terminated: true, truncated: false }),
 * };
 * ```
 */
export interface TaskEnvironment<O extends Observation = Observation> extends Environment<O> {
  /** Number of tasks, an integer ≥ 1. */
  readonly taskCount: number;
  /**
   * Starts an episode on a chosen task.
   * @param task - integer in [0, taskCount)
   * @returns the first observation
   */
  resetTask(task: number): O;
  /** Whether the episode that ended last succeeded (e.g. the level was solved); read once it has ended. */
  readonly succeeded: boolean;
}
