import { checkInteger } from './validate.js';
import { checkProbability } from './validate-probability.js';

/** 2^800: partial sums are rescaled past it, leaving room for a growth of up to 2^220 per term. */
const RESCALE = 2 ** 800;
const LOG_RESCALE = 800 * Math.LN2;
/** Smallest normal double, 2^-1022: below it (1 − p)^C has lost relative precision. */
const MIN_NORMAL = 2 ** -1022;

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
 * Method: with t_k the k-th term divided by (1 − p)^C, t_0 = 1 and t_{k+1} = t_k · (C − k)/(k + 1) · p/(1 − p)
 * (a ratio recurrence, a few roundings per term, rescaled by 2^-800 whenever the partial sum passes 2^800),
 * then P = (Σ_k t_k)·exp(C·log1p(−p)), or exp(C·log1p(−p) + log Σ_k t_k + scale) when the power underflows
 * or the sum was rescaled, so no binomial coefficient or power overflows or
 * underflows. Relative error about ε·(|C·log1p(−p)| + 4K): the exponent's own rounding dominates for
 * large C. Cost O(K).
 *
 * @param p - success probability of one trajectory, in [0, 1]
 * @param batchSize - C, the minibatch size, an integer ≥ 1
 * @param keep - K, the elites kept per minibatch, an integer in [1, C]
 * @returns P(S < K) in [0, 1]
 * @throws TypeError/RangeError naming `p`, `batchSize` or `keep` when out of domain
 *
 * @example
 * ```ts
 * console.log(shortfallProbability(0.2, 5, 3).toFixed(12)); // 2944/3125 for p = 1/5
 * // 0.942080000000
 * ```
 */
export function shortfallProbability(p: number, batchSize: number, keep: number): number {
  checkProbability(p, 'p');
  checkInteger(batchSize, 'batchSize', 1, Number.MAX_SAFE_INTEGER);
  checkInteger(keep, 'keep', 1, batchSize);
  if (p === 0) return 1;
  if (p === 1) return 0;
  const odds = p / (1 - p);
  let term = 1;
  let sum = 1;
  let logScale = 0;
  for (let k = 1; k < keep; k++) {
    term *= ((batchSize - k + 1) / k) * odds;
    sum += term;
    if (sum > RESCALE) {
      term /= RESCALE;
      sum /= RESCALE;
      logScale += LOG_RESCALE;
    }
  }
  const logBase = batchSize * Math.log1p(-p);
  const base = Math.exp(logBase);
  // Multiply directly unless (1 − p)^C underflowed or the sum was rescaled; then combine in the exponent.
  if (logScale === 0 && base >= MIN_NORMAL) return Math.min(1, sum * base);
  return Math.min(1, Math.exp(logBase + Math.log(sum) + logScale));
}
