import { ShiftSums } from './shift-sums.js';
import type { Logits } from './types.js';
import { assertInteger, assertLogitArray, assertLogitValues } from './validate.js';

/** One accumulator for every call (nothing inside a call can call `policyShift` again): no allocation. */
const SUMS = new ShiftSums();

/** Result of {@link policyShift}. */
export interface PolicyShift {
  /** Mean over rows of `KL(π_before‖π_after)`. */
  klMean: number;
  /** Largest per-row `KL(π_before‖π_after)` (TRPO's `D_KL^max`). */
  klMax: number;
  /** Mean over rows of the total-variation distance. */
  tvMean: number;
  /** Largest per-row total-variation distance (TRPO's α). */
  tvMax: number;
}

/**
 * How far a policy moved between two versions, row by row: the mean and max KL divergence and total
 * variation between `softmax(before)` and `softmax(after)`.
 *
 * Equation, per row with `p = softmax(before)`, `q = softmax(after)`:
 *
 *     KL(p‖q) = Σ_j p_j (log p_j − log q_j),    TV(p, q) = ½ Σ_j |p_j − q_j|
 *
 * Pinsker's inequality `TV <= sqrt(KL/2)` links them. Method: log-probabilities by log-sum-exp
 * (`log p_j = z_j − lse`), so rows of ±1000 logits give exact zeros and finite KL, never NaN; four
 * `exp` per element, no allocation. Reference: J. Schulman et al., "Trust Region Policy Optimization",
 * ICML 2015, section 3 (α = max TV, `D_KL^max`).
 *
 * Rows that did not move: with `totalRows`, `before` and `after` may hold only the rows that can differ
 * (those an update trained on, say) out of a policy of `totalRows` rows; every other row is the same in
 * both versions, so its KL and TV are 0 and it counts in the means only. The cost is then that of the
 * rows given. The results equal those of the call on the whole tables, bit for bit, when the rows are
 * given in the tables' order (a row whose two versions are equal adds exact zeros).
 *
 * @param before - logits of the earlier policy, `rows × actions`
 * @param after - logits of the later policy, same shape
 * @param actions - number of actions per row, an integer `>= 1` dividing the length
 * @param out - optional object, filled and returned (so a training loop allocates nothing)
 * @param totalRows - the policy's number of rows when `before` and `after` hold only those that can differ
 *   (default: all of them, `before.length / actions`)
 * @returns mean and max KL and TV over the rows (`out` itself when given)
 * @throws TypeError if `before` or `after` is not a Float32Array/Float64Array
 * @throws RangeError if `actions` is not a positive integer dividing the length, the lengths differ or
 *   are zero, a logit is not finite or exceeds `MAX_MAGNITUDE`, or `totalRows` is not an integer at
 *   least the number of rows given
 * @example
 * ```ts
 * const s = policyShift(new Float64Array([0, 0]), new Float64Array([Math.log(3), 0]), 2);
 * console.log(s.klMean.toFixed(4), s.tvMax);
 * // 0.1438 0.25
 * ```
 */
export function policyShift(
  before: Logits,
  after: Logits,
  actions: number,
  out?: Partial<PolicyShift>,
  totalRows?: number,
): PolicyShift {
  assertInteger('actions', actions, 1);
  const p = assertLogitArray('before', before);
  const q = assertLogitArray('after', after);
  if (p.length === 0 || p.length % actions !== 0) {
    throw new RangeError(
      `before.length must be a positive multiple of actions = ${actions}, got ${p.length}`,
    );
  }
  if (q.length !== p.length)
    throw new RangeError(`after.length must equal before.length = ${p.length}, got ${q.length}`);
  const rows = p.length / actions;
  if (totalRows !== undefined) assertInteger('totalRows', totalRows, rows);
  assertLogitValues('before', p);
  assertLogitValues('after', q);
  const sums = SUMS;
  sums.reset();
  for (let i = 0; i < rows; i++) {
    const o = i * actions;
    const end = o + actions;
    let mp = Number.NEGATIVE_INFINITY;
    let mq = Number.NEGATIVE_INFINITY;
    for (let j = o; j < end; j++) {
      if (p[j]! > mp) mp = p[j]!;
      if (q[j]! > mq) mq = q[j]!;
    }
    let sp = 0;
    let sq = 0;
    for (let j = o; j < end; j++) {
      sp += Math.exp(p[j]! - mp);
      sq += Math.exp(q[j]! - mq);
    }
    const lseP = mp + Math.log(sp);
    const lseQ = mq + Math.log(sq);
    let kl = 0;
    let tv = 0;
    for (let j = o; j < end; j++) {
      const lp = p[j]! - lseP;
      const lq = q[j]! - lseQ;
      const pj = Math.exp(lp);
      kl += pj * (lp - lq);
      tv += Math.abs(pj - Math.exp(lq));
    }
    sums.add(kl, tv);
  }
  return sums.result(totalRows ?? rows, out);
}
