// Test-only task environment: task i is an episode of lengths[i] steps (1 by default) whose observation
// is the task's id; it succeeds when every action taken was 1. With a tabular policy whose row i gives
// action 1 probability q_i, task i succeeds with probability q_i^lengths[i], independently per episode.
import type { EnvironmentStep } from '../src/environment.js';
import type { TaskEnvironment } from '../src/task-environment.js';

export class CoinTasks implements TaskEnvironment<number> {
  readonly numActions = 2;
  readonly observationCount: number;
  readonly taskCount: number;
  succeeded = false;
  /** Tasks episodes were started on, in order (by `reset` or `resetTask`). */
  readonly started: number[] = [];
  readonly #lengths: readonly number[];
  readonly #step = { observation: 0, reward: 0, terminated: false, truncated: false };
  #task = 0;
  #steps = 0;
  #allOnes = true;

  constructor(taskCount: number, lengths: readonly number[] = []) {
    this.taskCount = taskCount;
    this.observationCount = taskCount;
    this.#lengths = lengths;
  }

  reset(): number {
    return this.resetTask(0);
  }

  resetTask(task: number): number {
    this.started.push(task);
    this.#task = task;
    this.#steps = 0;
    this.#allOnes = true;
    this.succeeded = false;
    return task;
  }

  step(action: number): EnvironmentStep<number> {
    this.#steps++;
    this.#allOnes &&= action === 1;
    const done = this.#steps >= (this.#lengths[this.#task] ?? 1);
    if (done) this.succeeded = this.#allOnes;
    const step = this.#step;
    step.observation = this.#task;
    step.reward = done && this.#allOnes ? 1 : 0;
    step.terminated = done;
    return step;
  }
}
