import { describeValue } from '@ftw/internal';
import { MAX_MAGNITUDE } from './max-magnitude.js';
import { nonNegativeError } from './validate.js';

/**
 * TRPO's bound on the error of the surrogate: how far the true return of a new policy π′ can be from
 * the estimate computed on the old policy's data, given how much the policy moved.
 *
 * Equation, with ε = max_{s,a} |A_π(s, a)|, discount γ and α = max_s TV(π(·|s), π′(·|s)):
 *
 *     |J(π′) − L_π(π′)| <= Σ_{t>=0} 4 ε t γ^t α² = 4 ε γ α² / (1 − γ)²
 *
 * It is second order in α: halving the largest total-variation step quarters the bound. Reference:
 * J. Schulman et al., "Trust Region Policy Optimization", ICML 2015, Theorem 1 and appendix A (the
 * coupling proof; the form here is the slightly looser sum over t).
 *
 * @param epsilon - bound ε on the absolute advantage, finite and `>= 0`
 * @param gamma - discount γ in `[0, 1)`
 * @param alpha - max total-variation distance α in `[0, 1]` (see {@link policyShift})
 * @returns the bound `4εγα²/(1−γ)²`
 * @throws RangeError if ε is negative or not finite, γ is outside `[0, 1)` or α outside `[0, 1]`
 * @example
 * ```ts
 * console.log(trpoBound(1, 0.9, 0.1));
 * // 3.6000000000000023
 * ```
 */
export function trpoBound(epsilon: number, gamma: number, alpha: number): number {
  if (typeof epsilon !== 'number' || !(epsilon >= 0 && epsilon <= MAX_MAGNITUDE))
    throw nonNegativeError('epsilon', epsilon);
  if (typeof gamma !== 'number' || !(gamma >= 0 && gamma < 1)) {
    throw new RangeError(`gamma must be a number in [0, 1), got ${describeValue(gamma)}`);
  }
  if (typeof alpha !== 'number' || !(alpha >= 0 && alpha <= 1)) {
    throw new RangeError(`alpha must be a number in [0, 1], got ${describeValue(alpha)}`);
  }
  const d = 1 - gamma;
  return (4 * epsilon * gamma * alpha * alpha) / (d * d);
}
