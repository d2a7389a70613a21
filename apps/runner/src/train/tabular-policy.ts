/**
 * A tabular softmax policy: one row of logits per observation, π(a | o) = softmax(z_o)_a.
 *
 * The logits live in one `Float64Array` (row-major, observations × actions), which is exactly what the
 * optimisers update and what `@ftw/objective`'s losses read.
 *
 * @example
 * ```ts
 * const policy = new TabularPolicy(1, 2); // logits 0: π = (0.5, 0.5)
 * policy.probability(0, 0); // 0.5
 * policy.sample(0, 0.7); // 1 (inverse CDF of the uniform 0.7)
 * ```
 */
export class TabularPolicy {
  /** Logits, observations × actions, row-major. */
  readonly logits: Float64Array;
  /** Number of observations (rows). */
  readonly observations: number;
  /** Number of actions (columns). */
  readonly actions: number;
  private readonly scratch: Float64Array;

  /**
   * @param observations - number of observations (≥ 1)
   * @param actions - number of actions (≥ 1)
   */
  constructor(observations: number, actions: number) {
    this.observations = observations;
    this.actions = actions;
    this.logits = new Float64Array(observations * actions);
    this.scratch = new Float64Array(actions);
  }

  /**
   * Writes π(· | o) into `out` (stable softmax: the row's maximum is subtracted before exponentiating).
   *
   * @param observation - the row
   * @param out - receives the probabilities
   * @returns `out`
   */
  probabilities(observation: number, out: Float64Array = new Float64Array(this.actions)): Float64Array {
    const base = observation * this.actions;
    let max = Number.NEGATIVE_INFINITY;
    for (let a = 0; a < this.actions; a++) max = Math.max(max, this.logits[base + a]!);
    let sum = 0;
    for (let a = 0; a < this.actions; a++) {
      const e = Math.exp(this.logits[base + a]! - max);
      out[a] = e;
      sum += e;
    }
    for (let a = 0; a < this.actions; a++) out[a] = out[a]! / sum;
    return out;
  }

  /**
   * π(a | o).
   *
   * @param observation - the row
   * @param action - the column
   * @returns the probability
   */
  probability(observation: number, action: number): number {
    return this.probabilities(observation, this.scratch)[action]!;
  }

  /**
   * log π(a | o), computed as z_a − logsumexp(z) so that it is finite even where π underflows.
   *
   * @param observation - the row
   * @param action - the column
   * @returns the log-probability
   */
  logProbability(observation: number, action: number): number {
    const base = observation * this.actions;
    let max = Number.NEGATIVE_INFINITY;
    for (let a = 0; a < this.actions; a++) max = Math.max(max, this.logits[base + a]!);
    let sum = 0;
    for (let a = 0; a < this.actions; a++) sum += Math.exp(this.logits[base + a]! - max);
    return this.logits[base + action]! - max - Math.log(sum);
  }

  /**
   * Draws an action by inverting the CDF of π(· | o) at `u`.
   *
   * @param observation - the row
   * @param u - a uniform draw on [0, 1)
   * @returns the action
   */
  sample(observation: number, u: number): number {
    const p = this.probabilities(observation, this.scratch);
    let cumulative = 0;
    for (let a = 0; a < this.actions - 1; a++) {
      cumulative += p[a]!;
      if (u < cumulative) return a;
    }
    return this.actions - 1;
  }
}
