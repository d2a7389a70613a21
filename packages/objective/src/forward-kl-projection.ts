import { describeValue } from '@ftw/internal';
import { MAX_MAGNITUDE } from './max-magnitude.js';
import { assertProbabilityVector } from './probability-vector.js';
import { nonNegativeError, outBuffer } from './validate.js';

/**
 * The closed-form minimiser of FTW's objective with forward KL for a tabular policy (one categorical
 * distribution per state, updated to convergence): a conservative mixture of the elites' empirical
 * action distribution and the reference.
 *
 * Equation, with p̂ the weighted empirical distribution of the elite actions in a state (see
 * {@link empiricalDistribution}) and ρ the reference:
 *
 *     π_new = argmin_π  −Σ_a p̂_a log π_a + β KL(ρ‖π)  =  (p̂ + β ρ) / (1 + β)
 *
 * (the objective is `−Σ_a (p̂_a + β ρ_a) log π_a` plus a constant, minimised over the simplex by the
 * normalised coefficients). β = 0 imitates the elites exactly; β → ∞ stays at the reference. Reference:
 * the design notes, section "The objective".
 *
 * @param pHat - empirical distribution of the elite actions, summing to 1
 * @param piRef - reference distribution of the same length, summing to 1
 * @param beta - weight β of the KL term, finite and `>= 0`
 * @param out - optional Float64Array of the same length, filled and returned
 * @returns the projected distribution
 * @throws TypeError if `pHat` or `piRef` is not array-like or `out` is not a Float64Array of the right
 *   length
 * @throws RangeError if the lengths differ or are zero, an entry is not a probability, a vector does not
 *   sum to 1 within 1e-6, or β is negative or not finite
 * @example
 * ```ts
 * console.log(Array.from(forwardKlProjection([1, 0], [0.5, 0.5], 1)));
 * // [ 0.75, 0.25 ]
 * ```
 */
export function forwardKlProjection(
  pHat: ArrayLike<number>,
  piRef: ArrayLike<number>,
  beta: number,
  out?: Float64Array,
): Float64Array {
  if (typeof pHat !== 'object' || pHat === null || typeof pHat.length !== 'number' || pHat.length < 1) {
    throw new RangeError(`pHat must be a non-empty probability vector, got ${describeValue(pHat)}`);
  }
  const n = pHat.length;
  assertProbabilityVector('pHat', pHat, n);
  assertProbabilityVector('piRef', piRef, n);
  if (typeof beta !== 'number' || !(beta >= 0 && beta <= MAX_MAGNITUDE)) throw nonNegativeError('beta', beta);
  const result = outBuffer('out', out, n);
  const inv = 1 / (1 + beta);
  for (let j = 0; j < n; j++) result[j] = (pHat[j]! + beta * piRef[j]!) * inv;
  return result;
}
