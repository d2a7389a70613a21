import { describeValue } from '@ftw/internal';
import { assertInteger, assertSelected, checkWeights, outBuffer, weightTotal } from './validate.js';

/**
 * The weighted empirical distribution of selected actions: p̂ of {@link forwardKlProjection}.
 *
 * Equation: `p̂_a = Σ_{i : a_i = a} w_i / Σ_i w_i`.
 *
 * @param selected - action index per sample, integers in `[0, actions)`
 * @param actions - number of actions, an integer `>= 1`
 * @param weights - optional weight per sample, finite and `>= 0` with a positive sum (default all ones)
 * @param out - optional Float64Array of `actions`, filled and returned
 * @returns the distribution over actions, summing to 1
 * @throws TypeError if `selected` or `weights` is not array-like or `out` is not a Float64Array of
 *   length `actions`
 * @throws RangeError if there are no samples, an action is out of range, a weight is negative or not
 *   finite, or the weights sum to 0
 * @example
 * ```ts
 * console.log(Array.from(empiricalDistribution([1, 1, 0, 1], 2)));
 * // [ 0.25, 0.75 ]
 * ```
 */
export function empiricalDistribution(
  selected: ArrayLike<number>,
  actions: number,
  weights?: ArrayLike<number>,
  out?: Float64Array,
): Float64Array {
  assertInteger('actions', actions, 1);
  if (
    typeof selected !== 'object' ||
    selected === null ||
    typeof selected.length !== 'number' ||
    selected.length < 1
  ) {
    throw new RangeError(
      `selected must be a non-empty array of action indices, got ${describeValue(selected)}`,
    );
  }
  const n = selected.length;
  assertSelected('selected', selected, n, actions);
  checkWeights('weights', weights, n, true);
  const total = weightTotal[0]!;
  const p = outBuffer('out', out, actions);
  p.fill(0);
  for (let i = 0; i < n; i++) {
    const a = selected[i]!;
    p[a] = p[a]! + (weights === undefined ? 1 : weights[i]!);
  }
  for (let a = 0; a < actions; a++) p[a] = p[a]! / total;
  return p;
}
