import type { ObservationRows, Policy } from './policy.js';
import { checkInteger } from './validate.js';

/**
 * A linear softmax policy over feature vectors: z(x) = W x, π(a | x) = softmax(z(x))_a, with θ = W
 * (actions × features, row-major), so ∂z_a/∂W_{a,f} = x_f. Its observations are the feature vectors
 * themselves (`observationSize` = features), so it acts on states never trained on through their
 * features. Add a constant feature for a bias.
 *
 * Cost: O(rows · actions · features) per batch, forward and backward; back-propagation skips the actions
 * whose gradient is 0 (most of a one-hot cross-entropy's, when the policy is sure).
 *
 * @example
 * ```ts
 * const policy = new LinearPolicy(2, 3); // 2 actions, 3 features, W = 0
 * policy.parameters.set([1, 0, 0, 0, 0, 2]);
 * policy.logits(Float64Array.of(1, 0.5, 1), 1, new Float64Array(2)); // Float64Array [1, 2]
 * ```
 */
export class LinearPolicy implements Policy {
  /** Number of actions (rows of W). */
  readonly numActions: number;
  /** Features per observation (columns of W). */
  readonly observationSize: number;
  /** θ = W, `numActions × observationSize`, row-major; starts at 0 (uniform). */
  readonly parameters: Float64Array;

  /**
   * @param numActions - actions (≥ 1)
   * @param features - features per observation (≥ 1)
   * @throws RangeError when either is not an integer ≥ 1
   */
  constructor(numActions: number, features: number) {
    this.numActions = checkInteger('numActions', numActions, 1);
    this.observationSize = checkInteger('features', features, 1);
    this.parameters = new Float64Array(numActions * features);
  }

  /** Bytes of W. */
  get memoryBytes(): number {
    return this.parameters.byteLength;
  }

  /**
   * Writes W x_r for each row of the batch.
   *
   * @param observations - `rows × features` numbers, row-major
   * @param rows - number of rows
   * @param out - receives `rows × numActions` logits
   * @param parameters - evaluate at this W instead
   * @returns `out`
   */
  logits(
    observations: ObservationRows,
    rows: number,
    out: Float64Array,
    parameters?: Float64Array,
  ): Float64Array {
    const w = parameters ?? this.parameters;
    const A = this.numActions;
    const F = this.observationSize;
    for (let r = 0; r < rows; r++) {
      const base = r * F;
      for (let a = 0; a < A; a++) {
        const row = a * F;
        let z = 0;
        for (let f = 0; f < F; f++) z += w[row + f]! * observations[base + f]!;
        out[r * A + a] = z;
      }
    }
    return out;
  }

  /**
   * Adds g_r x_rᵀ to ∂L/∂W for each row in order.
   *
   * @param observations - the batch, `rows × features`
   * @param rows - number of rows
   * @param logitGrad - g_r at `logitGrad[r · numActions .. (r + 1) · numActions)`
   * @param grad - ∂L/∂W, added to in place
   */
  backward(observations: ObservationRows, rows: number, logitGrad: Float64Array, grad: Float64Array): void {
    const A = this.numActions;
    const F = this.observationSize;
    for (let r = 0; r < rows; r++) {
      const base = r * F;
      for (let a = 0; a < A; a++) {
        const g = logitGrad[r * A + a]!;
        if (g === 0) continue;
        const row = a * F;
        for (let f = 0; f < F; f++) grad[row + f] = grad[row + f]! + g * observations[base + f]!;
      }
    }
  }
}
