import { checkPolicyGradientWeights, pgScalars, policyGradientKernel } from './policy-gradient-kernel.js';
import type { Logits } from './types.js';
import { assertBoundedArray, assertNoOverlap, checkCategoricalBatch, outBuffer } from './validate.js';

/** Input of {@link policyGradientLoss}. */
export interface PolicyGradientInput {
  /** Policy logits, `rows × actions`. */
  logits: Logits;
  /** Number of rows (steps). */
  rows: number;
  /** Number of actions. */
  actions: number;
  /** Taken action per row. */
  selected: ArrayLike<number>;
  /** Advantage `A_i` per row, finite (e.g. from {@link grpoAdvantages}, repeated over a trajectory's steps). */
  advantages: ArrayLike<number>;
  /**
   * Per-row weight, finite and `>= 0`.
   * @defaultValue all ones
   */
  weights?: ArrayLike<number>;
  /**
   * `'mean'` divides by `Σ w_i` (which must be positive); `'sum'` does not.
   * @defaultValue 'mean'
   */
  normalize?: 'mean' | 'sum';
}

/** Result of {@link policyGradientLoss} and {@link reinforceLoss}. */
export interface PolicyGradientResult {
  /** The surrogate loss value. */
  loss: number;
  /** `∂loss/∂logits`, `rows × actions`. */
  grad: Float64Array;
  /** Mean over rows of the policy's entropy (nats). */
  entropy: number;
}

/** Output object of {@link policyGradientLoss} and {@link reinforceLoss}; when given it is filled and returned. */
export interface PolicyGradientOut {
  grad?: Float64Array;
  loss?: number;
  entropy?: number;
}

/**
 * The vanilla policy-gradient (score-function) surrogate with given advantages: the loss whose gradient
 * is the REINFORCE / GRPO (on-policy, one step) policy-gradient estimate.
 *
 * Equation, with `W = Σ_i w_i` (1 for `normalize: 'sum'`):
 *
 *     L = −(1/W) Σ_i w_i A_i log π_i(a_i)
 *     ∂L/∂z_ij = (w_i A_i / W) · (π_ij − [j = a_i])
 *
 * Method: log-softmax by max-subtraction, one `exp` per element. Reference: R. J. Williams, "Simple
 * statistical gradient-following algorithms for connectionist reinforcement learning", Machine
 * Learning 8 (1992), Eq. 9.
 *
 * @param input - logits, shape, taken actions, advantages, weights, normalisation
 * @param out - optional output object reused across calls
 * @returns the loss, its gradient and the mean entropy (`out` itself when given)
 * @throws TypeError if `logits` or `out.grad` has the wrong type
 * @throws RangeError on a shape mismatch, an action out of range, a non-finite logit, advantage or
 *   weight, a negative weight, a zero weight sum with `'mean'`, or an unknown `normalize`
 * @example
 * ```ts
 * const r = policyGradientLoss({
 *   logits: new Float64Array([0, 0]), rows: 1, actions: 2, selected: [1], advantages: [2],
 * });
 * console.log(r.loss.toFixed(4), Array.from(r.grad));
 * // 1.3863 [ 1, -1 ]
 * ```
 */
export function policyGradientLoss(
  input: PolicyGradientInput,
  out?: PolicyGradientOut,
): PolicyGradientResult {
  const { rows, actions, logits: z, selected } = checkCategoricalBatch(input);
  const advantages = assertBoundedArray('advantages', input.advantages, rows, 'rows');
  checkPolicyGradientWeights(input);
  pgScalars[1] = 0;
  const grad = outBuffer('out.grad', out?.grad, rows * actions);
  assertNoOverlap('out.grad', grad, 'logits', z);
  return policyGradientKernel(z, rows, actions, selected, advantages, undefined, input.weights, grad, out);
}
