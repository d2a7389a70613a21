import { expm1MinusX } from './expm1-minus-x.js';
import { MAX_MAGNITUDE } from './max-magnitude.js';
import { ObjectiveError } from './objective-error.js';
import { checkPolicyGradientWeights, pgScalars } from './policy-gradient-kernel.js';
import { rowExp, rowSelectedGrad, rowStats } from './row-softmax.js';
import type { Logits } from './types.js';
import {
  assertBoundedArray,
  assertLogProbArray,
  assertNoOverlap,
  checkCategoricalBatch,
  nonNegativeError,
  outBuffer,
} from './validate.js';

/** Input of {@link ppoClipLoss}. */
export interface PpoClipInput {
  /** Current policy logits, `rows × actions`. */
  logits: Logits;
  /** Number of rows (steps). */
  rows: number;
  /** Number of actions. */
  actions: number;
  /** Taken action per row. */
  selected: ArrayLike<number>;
  /** `log q(a_i)` of the behaviour policy that took each action, finite and `<= 0`. */
  behaviourLogProbs: ArrayLike<number>;
  /** Advantage `A_i` per row, finite. */
  advantages: ArrayLike<number>;
  /**
   * Clip range ε, finite and `>= 0`: the ratio is clipped to `[1 − ε, 1 + ε]`.
   * @defaultValue 0.2
   */
  clip?: number;
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

/** Result of {@link ppoClipLoss}. */
export interface PpoClipResult {
  /** The clipped surrogate loss (negated objective). */
  loss: number;
  /** `∂loss/∂logits`, `rows × actions`. */
  grad: Float64Array;
  /** Mean over rows of the policy's entropy (nats). */
  entropy: number;
  /** Fraction of rows with `|r_i − 1| > ε`. */
  clipFraction: number;
  /**
   * Mean over rows of `(r_i − 1) − log r_i`: the k3 estimate of `KL(q‖π)` from the behaviour samples
   * (`+Infinity` if a ratio overflows).
   */
  approxKl: number;
}

/** Output object of {@link ppoClipLoss}; when given it is filled and returned. */
export interface PpoClipOut {
  grad?: Float64Array;
  loss?: number;
  entropy?: number;
  clipFraction?: number;
  approxKl?: number;
}

/**
 * PPO's clipped surrogate with its gradient with respect to the logits.
 *
 * Equation, with `r_i = exp(log π_i(a_i) − log q_i(a_i))` and `W = Σ_i w_i` (1 for `normalize: 'sum'`):
 *
 *     L = −(1/W) Σ_i w_i · min(r_i A_i, clip(r_i, 1 − ε, 1 + ε) A_i)
 *     ∂L/∂z_ij = (w_i/W) · r_i A_i · (π_ij − [j = a_i])   where the unclipped term is the minimum
 *     ∂L/∂z_ij = 0                                        where the clipped term is strictly smaller
 *
 * (ties take the unclipped branch). When the policies coincide (r = 1) the gradient equals
 * {@link policyGradientLoss}'s. Method: `log π` by log-sum-exp, the ratio from the log-ratio. A ratio
 * that overflows (log-ratio > 709.78) is harmless when the clipped branch is taken (A > 0) or A = 0, and
 * `approxKl` is then `+Infinity`; when the unclipped branch would be infinite (A < 0) the function throws
 * rather than return an infinite loss and NaN gradients. Reference: J. Schulman et al., "Proximal
 * Policy Optimization Algorithms" (2017), Eq. 7.
 *
 * @param input - logits, shape, taken actions, behaviour log-probabilities, advantages, ε, weights
 * @param out - optional output object reused across calls
 * @returns the loss, its gradient and diagnostics (`out` itself when given)
 * @throws TypeError if `logits` or `out.grad` has the wrong type
 * @throws RangeError on a shape mismatch, an action out of range, a non-finite logit or advantage, a
 *   behaviour log-probability that is not finite and `<= 0`, a negative or non-finite ε or weight, a
 *   zero weight sum with `'mean'`, or an unknown `normalize`
 * @throws ObjectiveError `NON_FINITE_RESULT` if a ratio times its advantage (or the weighted sum)
 *   overflows
 * @example
 * ```ts
 * // The current policy doubled the taken action's probability (0.25 → 0.5); advantage 1, ε = 0.2.
 * const r = ppoClipLoss({
 *   logits: new Float64Array([0, 0]), rows: 1, actions: 2, selected: [0],
 *   behaviourLogProbs: [Math.log(0.25)], advantages: [1],
 * });
 * console.log(r.loss, r.clipFraction, Array.from(r.grad));
 * // -1.2 1 [ 0, 0 ]
 * ```
 */
export function ppoClipLoss(input: PpoClipInput, out?: PpoClipOut): PpoClipResult {
  const { rows, actions, logits: z, selected } = checkCategoricalBatch(input);
  const behaviour = assertLogProbArray('behaviourLogProbs', input.behaviourLogProbs, rows, 'rows');
  const advantages = assertBoundedArray('advantages', input.advantages, rows, 'rows');
  const epsilon = input.clip ?? 0.2;
  if (typeof epsilon !== 'number' || !(epsilon >= 0 && epsilon <= MAX_MAGNITUDE))
    throw nonNegativeError('clip', epsilon);
  checkPolicyGradientWeights(input);
  const scale = pgScalars[0]!;
  const weights = input.weights;
  const grad = outBuffer('out.grad', out?.grad, rows * actions);
  assertNoOverlap('out.grad', grad, 'logits', z);

  let loss = 0;
  let entropy = 0;
  let clipped = 0;
  let approxKl = 0;
  for (let i = 0; i < rows; i++) {
    const o = i * actions;
    const a = selected[i]!;
    rowExp(z, o, actions, grad);
    entropy += rowStats[2]!;
    const logRatio = z[o + a]! - rowStats[0]! - behaviour[i]!;
    const ratio = Math.exp(logRatio);
    approxKl += expm1MinusX(logRatio);
    if (Math.abs(ratio - 1) > epsilon) clipped++;
    const advantage = advantages[i]!;
    const c = weights === undefined ? scale : weights[i]! * scale;
    let slope = 0;
    let term = 0;
    if (advantage !== 0) {
      const unclipped = ratio * advantage;
      const bounded = Math.min(Math.max(ratio, 1 - epsilon), 1 + epsilon) * advantage;
      if (unclipped <= bounded) {
        term = c * unclipped;
        slope = term;
      } else {
        term = c * bounded;
      }
    }
    if (!Number.isFinite(term)) {
      throw new ObjectiveError(
        'NON_FINITE_RESULT',
        `ppoClipLoss: row ${i} has importance ratio exp(${logRatio}) = ${ratio} and advantage ${advantage}, whose product overflows; the unclipped side of the surrogate is unbounded (consider a dual-clip bound or fresher behaviour data)`,
      );
    }
    loss -= term;
    rowStats[3] = slope;
    rowSelectedGrad(grad, o, actions, a);
  }
  if (!Number.isFinite(loss)) {
    throw new ObjectiveError(
      'NON_FINITE_RESULT',
      `ppoClipLoss: the weighted sum of the surrogate terms overflows, got ${loss}`,
    );
  }
  // Our own results are built whole, so these stores see only the caller's `out`: a loop that reuses one
  // `out` keeps them monomorphic, and V8 then updates the numbers in place instead of boxing them.
  if (out === undefined)
    return { grad, loss, entropy: entropy / rows, clipFraction: clipped / rows, approxKl: approxKl / rows };
  out.grad = grad;
  out.loss = loss;
  out.entropy = entropy / rows;
  out.clipFraction = clipped / rows;
  out.approxKl = approxKl / rows;
  return out as PpoClipResult;
}
