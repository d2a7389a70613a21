import type { Observation, Policy } from './policy.js';
import { TrainerError } from './trainer-error.js';

/**
 * The action distribution π(· | o) of a policy at one observation, with the scratch it needs: the
 * collector acts and logs behaviour log-probabilities through it, allocating nothing per call.
 *
 * Method: log-softmax by max-subtraction, log π(a | o) = z_a − logsumexp(z), which stays finite where
 * π(a | o) underflows; probabilities are exp of those.
 *
 * @example
 * ```ts
 * const policy = new TabularPolicy(2, 1);
 * policy.parameters.set([Math.log(3), 0]); // π(· | 0) = (0.75, 0.25)
 * const d = new ActionDistribution(2).of(policy, 0);
 * d.probabilities; // Float64Array [0.75, 0.25]
 * d.logProbability(1); // -1.3862943611198906 (log 0.25)
 * d.sample(0.8); // 1 (inverse CDF of the uniform 0.8)
 * ```
 */
export class ActionDistribution {
  /** π(· | o) after {@link ActionDistribution.of}. */
  readonly probabilities: Float64Array;
  /** The logits z(o) after {@link ActionDistribution.of}. */
  readonly logits: Float64Array;
  #max = 0;
  #logSum = 0;
  /** The observation as a batch of one row. */
  #row = new Float64Array(1);

  /** @param numActions - number of actions */
  constructor(numActions: number) {
    this.probabilities = new Float64Array(numActions);
    this.logits = new Float64Array(numActions);
  }

  /**
   * Computes π(· | o) of `policy` (at a parameter snapshot when given).
   * @param policy - the policy
   * @param observation - the observation: a number (d = 1) or `policy.observationSize` numbers
   * @param parameters - optional θ snapshot (see `Policy.logits`)
   * @returns this
   * @throws TrainerError `NON_FINITE_LOGITS` when the policy returns a NaN or infinite logit;
   *   `OBSERVATION_SIZE_MISMATCH` when the observation's length is not `policy.observationSize`
   */
  of(policy: Policy, observation: Observation, parameters?: Float64Array): this {
    let row = this.#row;
    if (typeof observation === 'number') {
      row[0] = observation;
    } else {
      const d = policy.observationSize;
      if (observation.length !== d) {
        throw new TrainerError(
          'OBSERVATION_SIZE_MISMATCH',
          `observation has ${observation.length} numbers, the policy's observationSize is ${d}`,
        );
      }
      if (row.length !== d) row = this.#row = new Float64Array(d);
      for (let k = 0; k < d; k++) row[k] = observation[k]!;
    }
    policy.logits(row, 1, this.logits, parameters);
    return this.#normalise();
  }

  /**
   * Computes π(· | o) from logits already computed: one row of a batch (the lockstep collector's).
   * @param logits - a batch of logits
   * @param row - the row's index: its logits are `logits[row · numActions .. (row + 1) · numActions)`
   * @returns this
   * @throws TrainerError `NON_FINITE_LOGITS` naming the row when one of its logits is NaN or infinite
   */
  ofLogits(logits: Float64Array, row: number): this {
    const z = this.logits;
    const A = z.length;
    const from = row * A;
    for (let a = 0; a < A; a++) z[a] = logits[from + a]!;
    return this.#normalise(row);
  }

  /** Softmax of `this.logits` by max-subtraction; `row` names the batch row in the error. */
  #normalise(row?: number): this {
    const z = this.logits;
    const p = this.probabilities;
    const A = p.length;
    let max = Number.NEGATIVE_INFINITY;
    for (let a = 0; a < A; a++) if (z[a]! > max) max = z[a]!;
    let sum = 0;
    for (let a = 0; a < A; a++) {
      const e = Math.exp(z[a]! - max);
      p[a] = e;
      sum += e;
    }
    // Finite logits give 1 ≤ sum ≤ A (the largest term is exp(0)); NaN or ±∞ anywhere gives NaN or 0.
    if (!(sum >= 1 && sum <= A)) {
      const at = z.findIndex((value) => !Number.isFinite(value));
      const where = row === undefined ? '' : ` (row ${row}, logits[${row * A + at}])`;
      throw new TrainerError(
        'NON_FINITE_LOGITS',
        `policy.logits returned ${String(z[at])} among the logits${where}`,
      );
    }
    for (let a = 0; a < A; a++) p[a] = p[a]! / sum;
    this.#max = max;
    this.#logSum = Math.log(sum);
    return this;
  }

  /**
   * @param action - an action
   * @returns log π(a | o), z_a − max(z) − log Σ exp(z − max(z))
   */
  logProbability(action: number): number {
    return this.logits[action]! - this.#max - this.#logSum;
  }

  /**
   * Draws an action by inverting the CDF at `u`: the first action whose cumulative probability exceeds u
   * (the last action when rounding leaves the sum below u).
   * @param u - a uniform draw on [0, 1)
   * @returns the action
   */
  sample(u: number): number {
    const p = this.probabilities;
    let cumulative = 0;
    for (let a = 0; a < p.length - 1; a++) {
      cumulative += p[a]!;
      if (u < cumulative) return a;
    }
    return p.length - 1;
  }
}
