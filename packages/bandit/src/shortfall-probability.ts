import { checkInteger, checkProbability } from './validate.js';

/**
 * The probability that a minibatch of C independent binary-return trajectories, each a success with
 * probability p, holds fewer than K successes: the chance that top-K selection must keep at least one
 * failure (the tie-heavy regime in which FTW imitates failures, as in the paper's K = 3, C = 5 Sokoban
 * collapse).
 *
 * P(S < K) = Σ_{k=0}^{K−1} binom(C, k) p^k (1 − p)^{C−k},  S ~ Binomial(C, p).
 *
 * When the pool holds i.i.d. trajectories of one policy, a minibatch drawn uniformly without replacement
 * is itself i.i.d., so p is the policy's success probability Σ_a π_a p_a. For a pool mixing policies
 * whose success probabilities are all ≤ p, S is stochastically smaller than Binomial(C, p), so this value
 * is a lower bound.
 *
 * Method: the terms are built in log space by the ratio recurrence
 * log t_{k+1} = log t_k + log((C − k)/(k + 1)) + log p − log1p(−p) from log t_0 = C·log1p(−p), and summed
 * after subtracting their maximum, so no binomial coefficient or power overflows or underflows.
 *
 * @param p - success probability of one trajectory, in [0, 1]
 * @param batchSize - C, the minibatch size, an integer ≥ 1
 * @param keep - K, the elites kept per minibatch, an integer in [1, C]
 * @returns P(S < K) in [0, 1]
 * @throws TypeError/RangeError naming `p`, `batchSize` or `keep` when out of domain
 *
 * @example
 * ```ts
 * console.log(shortfallProbability(0.2, 5, 3)); // exactly 2944/3125 for p = 1/5
 * // 0.94208
 * ```
 */
export function shortfallProbability(p: number, batchSize: number, keep: number): number {
  checkProbability(p, 'p');
  checkInteger(batchSize, 'batchSize', 1, Number.MAX_SAFE_INTEGER);
  checkInteger(keep, 'keep', 1, batchSize);
  if (p === 0) return 1;
  if (p === 1) return 0;
  const logOdds = Math.log(p) - Math.log1p(-p);
  const logTerms = new Float64Array(keep);
  let logTerm = batchSize * Math.log1p(-p);
  let largest = logTerm;
  logTerms[0] = logTerm;
  for (let k = 1; k < keep; k++) {
    logTerm += Math.log((batchSize - k + 1) / k) + logOdds;
    logTerms[k] = logTerm;
    if (logTerm > largest) largest = logTerm;
  }
  let scaled = 0;
  for (let k = 0; k < keep; k++) scaled += Math.exp(logTerms[k]! - largest);
  return Math.min(1, scaled * Math.exp(largest));
}
