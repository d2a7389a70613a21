import { checkInteger } from './validate.js';
import { checkProbability } from './validate-probability.js';

/**
 * The difficulty probe's keep rate: probing a task n times, each a success with probability p, the
 * probability that the filter 0 < successes < n keeps it (neither all failures nor all successes).
 *
 * P(keep) = 1 − p^n − (1 − p)^n,  successes ~ Binomial(n, p).
 *
 * Method: with s = min(p, 1 − p) (exact in floating point: 1 − p is exact for p ≥ 1/2 by Sterbenz's
 * lemma), P(keep) = −expm1(n·log1p(−s)) − s^n. The first term is 1 − (1 − s)^n without cancellation when
 * s is tiny (it is then ≈ n·s); the second is at most s^{n−1} ≤ 2^{1−n} times the first, so the final
 * subtraction loses at most one bit. The naive formula returns 0 for p below about 1e-17.
 *
 * Reference: the research note on difficulty filtering (n = 8 probes per task, Binomial model).
 *
 * @param p - success probability of the task, in [0, 1]
 * @param n - number of probes, an integer ≥ 1 (n = 1 keeps nothing)
 * @returns the keep probability in [0, 1 − 2^{1−n}]
 * @throws TypeError/RangeError naming `p` or `n` when out of domain
 *
 * @example
 * ```ts
 * console.log(keepProbability(0.5, 8), keepProbability(1e-20, 8));
 * // 0.9921875 8e-20
 * ```
 */
export function keepProbability(p: number, n: number): number {
  checkProbability(p, 'p');
  checkInteger(n, 'n', 1, Number.MAX_SAFE_INTEGER);
  if (n === 1) return 0;
  const s = p <= 0.5 ? p : 1 - p;
  const keep = -Math.expm1(n * Math.log1p(-s)) - s ** n;
  return Math.max(keep, 0);
}
