import { describeValue } from '@ftw/internal';
import { MAX_MAGNITUDE } from './max-magnitude.js';
import { checkPolicyGradientWeights, pgScalars, policyGradientKernel } from './policy-gradient-kernel.js';
import type { PolicyGradientOut, PolicyGradientResult } from './policy-gradient-loss.js';
import type { Logits } from './types.js';
import {
  assertBoundedArray,
  assertNoOverlap,
  boundedError,
  checkCategoricalBatch,
  outBuffer,
} from './validate.js';

/** Input of {@link reinforceLoss}. */
export interface ReinforceInput {
  /** Policy logits, `rows × actions`. */
  logits: Logits;
  /** Number of rows (steps). */
  rows: number;
  /** Number of actions. */
  actions: number;
  /** Taken action per row. */
  selected: ArrayLike<number>;
  /** Return `G_i` per row (a trajectory's return repeated over its steps, or the return-to-go), finite. */
  returns: ArrayLike<number>;
  /**
   * Baseline `b`: a number, one finite number per row, or `'mean'` for the weighted mean return
   * `Σ w_i G_i / Σ w_i` (which makes the weighted advantages sum to zero).
   * @defaultValue 'mean'
   */
  baseline?: number | ArrayLike<number> | 'mean';
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

/**
 * REINFORCE with a baseline: the policy-gradient surrogate with advantages `A_i = G_i − b_i`.
 *
 * Equation, with `W = Σ_i w_i` (1 for `normalize: 'sum'`):
 *
 *     L = −(1/W) Σ_i w_i (G_i − b_i) log π_i(a_i)
 *     ∂L/∂z_ij = (w_i (G_i − b_i) / W) · (π_ij − [j = a_i])
 *
 * A baseline that does not depend on the action leaves the expected gradient unchanged and lowers its
 * variance; the batch mean (`'mean'`) depends on every sample, so it adds an O(1/n) bias, the usual
 * price for not needing a value model. Method: as {@link policyGradientLoss}. Reference: R. J. Williams
 * (1992), Eq. 9 and section 5 (reinforcement baselines).
 *
 * @param input - logits, shape, taken actions, returns, baseline, weights, normalisation
 * @param out - optional output object reused across calls
 * @returns the loss, its gradient and the mean entropy (`out` itself when given)
 * @throws TypeError if `logits` or `out.grad` has the wrong type
 * @throws RangeError on a shape mismatch, an action out of range, a non-finite logit, return, baseline
 *   or weight, a negative weight, a zero weight sum with `'mean'`, or an unknown `normalize`
 * @example
 * ```ts
 * // Two one-step episodes from the same state: action 1 earned 1, action 0 earned 0; baseline 0.5.
 * const r = reinforceLoss({
 *   logits: new Float64Array([0, 0, 0, 0]), rows: 2, actions: 2, selected: [1, 0], returns: [1, 0],
 * });
 * console.log(r.loss, Array.from(r.grad));
 * // 0 [ 0.125, -0.125, 0.125, -0.125 ]
 * ```
 */
export function reinforceLoss(input: ReinforceInput, out?: PolicyGradientOut): PolicyGradientResult {
  const { rows, actions, logits: z, selected } = checkCategoricalBatch(input);
  const returns = assertBoundedArray('returns', input.returns, rows, 'rows');
  checkPolicyGradientWeights(input);
  const weights = input.weights;
  const b = input.baseline ?? 'mean';
  let baseline = 0;
  let baselines: ArrayLike<number> | undefined;
  if (b === 'mean') {
    let sw = 0;
    let swg = 0;
    for (let i = 0; i < rows; i++) {
      const w = weights === undefined ? 1 : weights[i]!;
      sw += w;
      swg += w * returns[i]!;
    }
    baseline = sw > 0 ? swg / sw : 0;
  } else if (typeof b === 'number') {
    if (!(b >= -MAX_MAGNITUDE && b <= MAX_MAGNITUDE)) throw boundedError('baseline', b);
    baseline = b;
  } else if (typeof b === 'object' && b !== null) {
    baselines = assertBoundedArray('baseline', b, rows, 'rows');
  } else {
    throw new TypeError(
      `baseline must be a number, an array of rows numbers or 'mean', got ${describeValue(b)}`,
    );
  }
  const grad = outBuffer('out.grad', out?.grad, rows * actions);
  assertNoOverlap('out.grad', grad, 'logits', z);
  pgScalars[1] = baseline;
  return policyGradientKernel(z, rows, actions, selected, returns, baselines, weights, grad, out);
}
