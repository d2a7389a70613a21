import { describeValue } from '@ftw/internal';
import { expm1MinusX } from './expm1-minus-x.js';
import { assertLogProbArray, outBuffer } from './validate.js';

/** Input of {@link klEstimators}: log-probabilities of actions sampled from the policy π. */
export interface KlEstimatorsInput {
  /** `log π(a_n)` of each sampled action under the current policy. */
  logProbs: ArrayLike<number>;
  /** `log π_ref(a_n)` of the same actions under the reference policy. */
  refLogProbs: ArrayLike<number>;
}

/** Per-sample estimates, their derivatives with respect to `log π(a_n)`, and their means. */
export interface KlEstimates {
  /** `k1 = −Δ`. */
  k1: Float64Array;
  /** `k2 = Δ² / 2`. */
  k2: Float64Array;
  /** `k3 = exp(Δ) − Δ − 1`. */
  k3: Float64Array;
  /** `∂k1/∂log π(a) = 1`. */
  dk1: Float64Array;
  /** `∂k2/∂log π(a) = −Δ`. */
  dk2: Float64Array;
  /** `∂k3/∂log π(a) = 1 − exp(Δ)`. */
  dk3: Float64Array;
  /** Mean of k1: an unbiased estimate of `KL(π‖π_ref)`. */
  k1Mean: number;
  /** Mean of k2: biased, low variance. */
  k2Mean: number;
  /** Mean of k3: unbiased and never negative. */
  k3Mean: number;
}

/** Output buffers of {@link klEstimators}; when given, it is filled and returned. */
export interface KlEstimatesOut {
  k1?: Float64Array;
  k2?: Float64Array;
  k3?: Float64Array;
  dk1?: Float64Array;
  dk2?: Float64Array;
  dk3?: Float64Array;
  k1Mean?: number;
  k2Mean?: number;
  k3Mean?: number;
}

/**
 * The sampled estimators k1, k2, k3 of `KL(π‖π_ref)` from actions `a ~ π` whose log-probabilities are the
 * only thing known (large action spaces without full reference logits), with their derivatives with
 * respect to the policy's log-probability of the taken action.
 *
 * Equation, with `Δ = log π_ref(a) − log π(a)` and `a ~ π`:
 *
 *     k1 = −Δ               E[k1] = KL(π‖π_ref)     ∂k1/∂log π(a) = 1
 *     k2 = Δ²/2             biased                  ∂k2/∂log π(a) = −Δ
 *     k3 = e^Δ − Δ − 1      E[k3] = KL(π‖π_ref)     ∂k3/∂log π(a) = 1 − e^Δ
 *
 * k3 is unbiased because `E[e^Δ] = Σ_a π_ref(a) = 1`, and non-negative because `e^x >= 1 + x`.
 * The derivatives treat the sample as fixed (what automatic differentiation gives when the estimate is a
 * loss term); chain them to logits with {@link logProbGradToLogits}. In expectation over `a ~ π` that
 * gradient is 0 for k1, `∇ KL(π‖π_ref)` for k2 and `∇ KL(π_ref‖π)` for k3.
 * Reference: J. Schulman, "Approximating KL divergence" (2020); the gradient identities in Y. Tang and
 * R. Munos, "On a few pitfalls in KL divergence gradient estimation for RL" (2025).
 *
 * Method: `k3 = expm1(Δ) − Δ`, by its Taylor series for `|Δ| < 1e-4`, so a policy close to the
 * reference gets k3 ≈ Δ²/2 with relative error below 5e-12 instead of the rounding noise of
 * `e^Δ − Δ − 1`. `exp(Δ)` overflows only for `Δ > log(Number.MAX_VALUE) ≈ 709.78` (a reference e^709
 * times likelier than the policy), where k3 is `+Infinity` and dk3 `−Infinity`, never NaN.
 *
 * @param input - the policy's and the reference's log-probabilities of the sampled actions
 * @param out - optional output object reused across calls
 * @returns the estimates, their derivatives and their means (`out` itself when given)
 * @throws TypeError if an input is not array-like or an `out` buffer is not a Float64Array of the right
 *   length
 * @throws RangeError if the lengths differ, are zero, or a log-probability is not finite or is positive
 * @example
 * ```ts
 * const e = klEstimators({ logProbs: [Math.log(0.5)], refLogProbs: [Math.log(0.25)] });
 * console.log(e.k1Mean.toFixed(4), e.k3Mean.toFixed(4), e.dk3[0]);
 * // 0.6931 0.1931 0.5
 * ```
 */
export function klEstimators(input: KlEstimatorsInput, out?: KlEstimatesOut): KlEstimates {
  if (typeof input !== 'object' || input === null) {
    throw new TypeError(`input must be an object, got ${describeValue(input)}`);
  }
  const lp = input.logProbs;
  if (typeof lp !== 'object' || lp === null || typeof lp.length !== 'number' || lp.length < 1) {
    throw new RangeError(`logProbs must be a non-empty array or typed array, got ${describeValue(lp)}`);
  }
  const n = lp.length;
  assertLogProbArray('logProbs', lp, n, 'samples');
  const ref = assertLogProbArray('refLogProbs', input.refLogProbs, n, 'logProbs.length');
  const k1 = outBuffer('out.k1', out?.k1, n);
  const k2 = outBuffer('out.k2', out?.k2, n);
  const k3 = outBuffer('out.k3', out?.k3, n);
  const dk1 = outBuffer('out.dk1', out?.dk1, n);
  const dk2 = outBuffer('out.dk2', out?.dk2, n);
  const dk3 = outBuffer('out.dk3', out?.dk3, n);
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  for (let i = 0; i < n; i++) {
    const delta = ref[i]! - lp[i]!;
    const a = -delta;
    const b = 0.5 * delta * delta;
    const c = expm1MinusX(delta);
    k1[i] = a;
    k2[i] = b;
    k3[i] = c;
    dk1[i] = 1;
    dk2[i] = -delta;
    dk3[i] = -Math.expm1(delta);
    s1 += a;
    s2 += b;
    s3 += c;
  }
  // Our own results are built whole, so these stores see only the caller's `out`: a loop that reuses one
  // `out` keeps them monomorphic, and V8 then updates the numbers in place instead of boxing them.
  if (out === undefined) return { k1, k2, k3, dk1, dk2, dk3, k1Mean: s1 / n, k2Mean: s2 / n, k3Mean: s3 / n };
  out.k1 = k1;
  out.k2 = k2;
  out.k3 = k3;
  out.dk1 = dk1;
  out.dk2 = dk2;
  out.dk3 = dk3;
  out.k1Mean = s1 / n;
  out.k2Mean = s2 / n;
  out.k3Mean = s3 / n;
  return out as KlEstimates;
}
