import type { Logits } from './types.js';
import { assertInteger, assertLogits, assertNoOverlap, outBuffer } from './validate.js';

/**
 * Row-wise log-softmax of a `rows × actions` logit matrix: `log π_ij = z_ij − log Σ_k exp(z_ik)`.
 *
 * Method: max-subtraction inside the log-sum-exp, `lse_i = m_i + log Σ_k exp(z_ik − m_i)` with
 * `m_i = max_k z_ik`, so no exponent is positive and the sum lies in `[1, actions]`; the result is never
 * the log of an underflowed probability (a logit 2000 below the maximum gives −2000, not −∞).
 * Reference: Blanchard, Higham & Higham, "Accurately computing the log-sum-exp and softmax functions",
 * IMA J. Numer. Anal. 41 (2021), the shifted formula analysed there.
 *
 * @param logits - policy logits, `rows × actions`, every `|z| <= MAX_MAGNITUDE`
 * @param rows - number of rows, an integer `>= 1`
 * @param actions - number of actions, an integer `>= 1`
 * @param out - optional Float64Array of `rows × actions`, filled and returned
 * @returns the log-probabilities, `rows × actions`
 * @throws TypeError if `logits` is not a Float32Array/Float64Array or `out` is not a Float64Array of the
 *   right length
 * @throws RangeError if `rows`/`actions` are not positive integers, the length is not `rows × actions`,
 *   a logit is not finite or exceeds `MAX_MAGNITUDE`, or `out` shares memory with `logits`
 * @example
 * ```ts
 * console.log(Array.from(logSoftmax(new Float64Array([1000, 0]), 1, 2)));
 * // [ 0, -1000 ]
 * ```
 */
export function logSoftmax(logits: Logits, rows: number, actions: number, out?: Float64Array): Float64Array {
  assertInteger('rows', rows, 1);
  assertInteger('actions', actions, 1);
  const z = assertLogits('logits', logits, rows, actions);
  const result = outBuffer('out', out, rows * actions);
  assertNoOverlap('out', result, 'logits', z);
  for (let i = 0; i < rows; i++) {
    const o = i * actions;
    const end = o + actions;
    let m = Number.NEGATIVE_INFINITY;
    for (let j = o; j < end; j++) if (z[j]! > m) m = z[j]!;
    let s = 0;
    for (let j = o; j < end; j++) s += Math.exp(z[j]! - m);
    const lse = m + Math.log(s);
    for (let j = o; j < end; j++) result[j] = z[j]! - lse;
  }
  return result;
}
