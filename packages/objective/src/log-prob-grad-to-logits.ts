import { rowExp, rowSelectedGrad, rowStats } from './row-softmax.js';
import type { Logits } from './types.js';
import { assertBoundedArray, assertNoOverlap, checkCategoricalBatch, outBuffer } from './validate.js';

/** Input of {@link logProbGradToLogits}. */
export interface LogProbGradInput {
  /** Policy logits, `rows × actions`. */
  logits: Logits;
  /** Number of rows. */
  rows: number;
  /** Number of actions. */
  actions: number;
  /** Taken action per row. */
  selected: ArrayLike<number>;
  /** `g_i = ∂loss/∂log π(a_i)` per row, finite (e.g. `dk3` of {@link klEstimators}, divided by n for a mean). */
  gradLogProb: ArrayLike<number>;
}

/**
 * Chain rule from the taken actions' log-probabilities to the logits: for a loss that depends on the
 * logits only through `log π(a_i | row i)`, returns its gradient with respect to the logits.
 *
 * Equation: `∂ log π_i(a_i) / ∂z_ij = [j = a_i] − π_ij`, so
 *
 *     ∂L/∂z_ij = g_i · ([j = a_i] − π_ij)
 *
 * Method: softmax by max-subtraction, one `exp` per element.
 *
 * @param input - logits, shape, taken actions and `∂L/∂log π(a_i)` per row
 * @param out - optional Float64Array of `rows × actions`, filled and returned
 * @returns `∂L/∂logits`, `rows × actions`
 * @throws TypeError if `logits` or `out` has the wrong type
 * @throws RangeError on a shape mismatch, an action out of range, a non-finite logit or gradient, or
 *   `out` sharing memory with `logits`
 * @example
 * ```ts
 * const g = logProbGradToLogits({
 *   logits: new Float64Array([0, 0]), rows: 1, actions: 2, selected: [0], gradLogProb: [1],
 * });
 * console.log(Array.from(g));
 * // [ 0.5, -0.5 ]
 * ```
 */
export function logProbGradToLogits(input: LogProbGradInput, out?: Float64Array): Float64Array {
  const { rows, actions, logits: z, selected } = checkCategoricalBatch(input);
  const g = assertBoundedArray('gradLogProb', input.gradLogProb, rows, 'rows');
  const grad = outBuffer('out', out, rows * actions);
  assertNoOverlap('out', grad, 'logits', z);
  for (let i = 0; i < rows; i++) {
    const o = i * actions;
    rowExp(z, o, actions, grad);
    // ∂L/∂z = g · (onehot − π) is the selected-action gradient of −log π with coefficient −g.
    rowStats[3] = -g[i]!;
    rowSelectedGrad(grad, o, actions, selected[i]!);
  }
  return grad;
}
