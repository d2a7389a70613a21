import type { ArmTable } from './arm-table.js';

/**
 * The task distribution of an environment: inversion sampling of the task and the task-mixture means.
 * Internal; not exported from the package.
 */
export class TaskDistribution {
  /** Probability q_t of each task. */
  readonly weights: Float64Array;
  /** Σ_t q_t μ_t(a) for each action a. */
  readonly mixtureMeans: Float64Array;
  /** Lowest index of the largest mixture mean. */
  readonly mixtureBest: number;
  private readonly cdf: Float64Array;

  /**
   * @param tables - validated tasks, all with the same number of arms
   * @param weights - validated task probabilities, one per table, summing to 1 within tolerance
   */
  constructor(tables: readonly ArmTable[], weights: Float64Array) {
    this.weights = weights;
    this.cdf = new Float64Array(tables.length);
    let cumulative = 0;
    let lastPositive = 0;
    for (let t = 0; t < tables.length; t++) {
      cumulative += weights[t]!;
      this.cdf[t] = cumulative;
      if (weights[t]! > 0) lastPositive = t;
    }
    // The sum may round below 1; the last task of positive weight takes whatever remains of [0, 1).
    this.cdf[lastPositive] = Number.POSITIVE_INFINITY;
    const numActions = tables[0]!.means.length;
    this.mixtureMeans = new Float64Array(numActions);
    for (let t = 0; t < tables.length; t++) {
      for (let a = 0; a < numActions; a++) this.mixtureMeans[a]! += weights[t]! * tables[t]!.means[a]!;
    }
    let best = 0;
    for (let a = 1; a < numActions; a++) if (this.mixtureMeans[a]! > this.mixtureMeans[best]!) best = a;
    this.mixtureBest = best;
  }

  /**
   * Inversion: the first task t with u < F(t), F the cumulative distribution. Tasks of probability 0 are
   * never drawn.
   *
   * @param u - a uniform on [0, 1)
   * @returns the task index
   */
  draw(u: number): number {
    let task = 0;
    while (!(u < this.cdf[task]!)) task++;
    return task;
  }
}
