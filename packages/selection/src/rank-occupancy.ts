import { describeValue } from '@ftw/internal';
import { logHypergeometricPmf } from './hypergeometric-pmf.js';
import { checkSizes } from './validate.js';

/** Ranks between two direct evaluations; the ratio recurrence in between adds <= 2 roundings a step. */
const ANCHOR_EVERY = 256;
/** Rescale the running values by 2^-600 once they pass 2^600, so nothing overflows between anchors. */
const RESCALE_BITS = 600;
const RESCALE_LIMIT = 2 ** RESCALE_BITS;
const RESCALE_FACTOR = 2 ** -RESCALE_BITS;
// ln 2 split so that e·LN2_HI is exact for |e| < 2^21 (fdlibm's constants).
const LN2_HI = 0.6931471803691238;
const LN2_LO = 1.9082149292705877e-10;

/**
 * The probability that the trajectory of return rank r is imitated, for r = 1..n (Eq. 5 of the paper):
 * draw `batchSize` = C of n trajectories uniformly without replacement, keep the `keep` = K best.
 *
 * ```
 * P(r | n, C, K) = 1 / (K · binom(n, C)) · Σ_{k=1..K} binom(r−1, k−1) · binom(n−r, C−k)
 *                = C / (K · n) · Pr[X ≤ K − 1],   X ~ Hypergeometric(n − 1, r − 1, C − 1)
 * ```
 *
 * Method: P(r) − P(r+1) = d(r) = binom(r−1, K−1) · binom(n−r−1, C−K−1) / (K · binom(n, C)) ≥ 0 (rank r is
 * kept and rank r + 1 is not exactly when both are drawn and r is the K-th best), so P(r) = Σ_{j≥r} d(j)
 * is a sum of positive terms taken from the small end, with no subtraction. d is a hypergeometric pmf in
 * r: it follows the ratio recurrence d(j−1) = d(j)·(j−K)(n−j) / ((j−1)(n−j−C+K+1)) (exact integer
 * products), re-anchored every 256 ranks by a direct log-space evaluation (Loader's saddle-point form),
 * and summed in blocks of 256 whose totals are added with Kahan compensation. Values are carried with
 * a binary exponent, so nothing overflows or underflows on the way; a result below about 1e-308 may come
 * out as 0. Cost: O(n), one pmf
 * evaluation per 256 ranks, no per-(r, k) work. Relative error below 1e-12 for values above 1e-300
 * (tested against BigInt rational arithmetic).
 *
 * Reference: de Vries et al., "Follow the Winners", arXiv 2610.03361, Eq. 5.
 *
 * @param n - pool size N (number of trajectories ranked), a positive integer.
 * @param batchSize - C, trajectories per minibatch, 1 ≤ C ≤ n.
 * @param keep - K, elites kept per minibatch, 1 ≤ K ≤ C.
 * @param out - optional array of length n to write into (no allocation).
 * @returns `Float64Array` p with p[r − 1] = P(r | n, C, K); it sums to 1.
 * @throws TypeError when a size is not a number or `out` is not a Float64Array; RangeError when a size is
 * not a positive integer, when keep > batchSize or batchSize > n, or when `out` has the wrong length.
 * @example
 * ```ts
 * rankOccupancy(5, 2, 1);
 * // Float64Array [0.4, 0.3, 0.2, 0.1, 0]
 * rankOccupancy(4, 4, 4); // K = C: uniform
 * // Float64Array [0.25, 0.25, 0.25, 0.25]
 * ```
 */
export function rankOccupancy(n: number, batchSize: number, keep: number, out?: Float64Array): Float64Array {
  checkSizes(n, batchSize, keep);
  if (out !== undefined) {
    if (!(out instanceof Float64Array))
      throw new TypeError(`out must be a Float64Array, got ${describeValue(out)}`);
    if (out.length !== n) throw new RangeError(`out must have length n (${n}), got ${out.length}`);
  }
  const result = out ?? new Float64Array(n);
  fillRankOccupancy(result, n, batchSize, keep);
  return result;
}

/** Writes P(r | n, C, K) into out[r − 1] for valid sizes (the unchecked core of {@link rankOccupancy}). */
export function fillRankOccupancy(out: Float64Array, n: number, batchSize: number, keep: number): void {
  const C = batchSize;
  const K = keep;
  if (K === C) {
    out.fill(1 / n);
    return;
  }
  // d(j) > 0 exactly for K <= j <= n − C + K; beyond it a rank can never be among the K best.
  const last = n - C + K;
  out.fill(0, last, n);
  const lnScale = Math.log((C * (C - 1)) / (K * n) / (n - 1));

  // Running state, in units of 2^exponent: u = d(j); P(j) = base + partial, where base sums the blocks
  // already done (Kahan-compensated across blocks) and partial the current block (at most 256 plain
  // additions of positive terms: relative error <= 256 eps). Only one add and one multiply are then
  // carried from rank to rank, instead of Kahan's four-add chain.
  let exponent = 0;
  let unitLow = 1;
  let unitHigh = 1;
  let base = 0;
  let compensation = 0;

  for (let anchor = last; anchor >= K; anchor -= ANCHOR_EVERY) {
    const lnD = lnScale + logHypergeometricPmf(K - 1, anchor - 1, n - anchor - 1, C - 2);
    if (anchor === last) exponent = Math.floor(lnD / Math.LN2);
    let x = lnD - exponent * LN2_HI - exponent * LN2_LO;
    if (x > RESCALE_BITS * Math.LN2) {
      const shift = Math.floor(x / Math.LN2);
      base = base * 2 ** -Math.ceil(shift / 2) * 2 ** -Math.floor(shift / 2);
      compensation = compensation * 2 ** -Math.ceil(shift / 2) * 2 ** -Math.floor(shift / 2);
      exponent += shift;
      x = lnD - exponent * LN2_HI - exponent * LN2_LO;
    }
    // 2^exponent as two factors, so that (base + partial) · 2^exponent never underflows half-way.
    unitLow = 2 ** Math.floor(exponent / 2);
    unitHigh = 2 ** (exponent - Math.floor(exponent / 2));
    let u = Math.exp(x);
    let partial = 0;
    const stop = Math.max(anchor - ANCHOR_EVERY + 1, K);
    for (let j = anchor; ; j--) {
      partial += u;
      out[j - 1] = (base + partial) * unitLow * unitHigh;
      if (j === stop) break;
      u *= ((j - K) * (n - j)) / ((j - 1) * (n - j - C + K + 1));
      // Checked every 8 ranks only: a step multiplies u by at most C − K < 2^32, so u stays below
      // 2^(600 + 8·32) = 2^856 between checks, far from overflow. Rescaling by 2^-600 is exact, so when
      // it happens does not change the result.
      if ((j & 7) === 0 && u > RESCALE_LIMIT) {
        u *= RESCALE_FACTOR;
        partial *= RESCALE_FACTOR;
        base *= RESCALE_FACTOR;
        compensation *= RESCALE_FACTOR;
        exponent += RESCALE_BITS;
        unitLow = 2 ** Math.floor(exponent / 2);
        unitHigh = 2 ** (exponent - Math.floor(exponent / 2));
      }
    }
    const y = partial - compensation;
    const t = base + y;
    compensation = t - base - y;
    base = t;
  }
  // The K best ranks are kept whenever drawn: P = C / (K n) exactly.
  out.fill(C / (K * n), 0, K);
}
