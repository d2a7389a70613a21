/**
 * Exact minibatch statistics for the selection report (internal): the probability that the cut between the
 * K-th and (K+1)-th best of a minibatch falls between equal values, and how many successes a minibatch
 * holds. All from the multivariate hypergeometric law of drawing C of n without replacement, in log space
 * with a table of log k! (O(n) to build, exact sums of positive terms).
 */

/** ln k! for k = 0..n. */
export function logFactorials(n: number): Float64Array {
  const table = new Float64Array(n + 1);
  for (let k = 2; k <= n; k++) table[k] = table[k - 1]! + Math.log(k);
  return table;
}

function logBinomial(lf: Float64Array, n: number, k: number): number {
  return k < 0 || k > n ? Number.NEGATIVE_INFINITY : lf[n]! - lf[k]! - lf[n - k]!;
}

/**
 * P(the K-th and (K+1)-th largest values of a uniform C-subset are equal). For each block of t ≥ 2 equal
 * values with a larger ones and w smaller ones, the cut falls inside the block when i < K of the a larger
 * items and j ≥ K + 1 − i of the block are drawn:
 *
 *   Σ_blocks Σ_{i=0..K−1} Σ_{j=K+1−i..min(t, C−i)} binom(a, i) binom(t, j) binom(w, C−i−j) / binom(n, C).
 *
 * Zero when K = C (there is no cut). With a threshold only values strictly above it may be kept, so a block
 * at or below it is no cut (none of its items is kept, nothing is decided at random) and is left out.
 * Cost O(Σ_blocks K · min(t, C)).
 */
export function cutTieProbability(
  values: ArrayLike<number>,
  batchSize: number,
  keep: number,
  threshold?: number,
): number {
  const n = values.length;
  if (keep >= batchSize) return 0;
  const sorted = Float64Array.from(values).sort().reverse();
  const lf = logFactorials(n);
  const logTotal = logBinomial(lf, n, batchSize);
  let p = 0;
  for (let start = 0; start < n; ) {
    let end = start + 1;
    while (end < n && sorted[end] === sorted[start]) end++;
    // Sorted from the best: every later block is at or below the threshold too.
    if (threshold !== undefined && !(sorted[start]! > threshold)) break;
    const t = end - start;
    if (t >= 2) {
      const a = start;
      const w = n - end;
      for (let i = 0; i < keep && i <= a; i++) {
        const li = logBinomial(lf, a, i);
        for (let j = keep + 1 - i; j <= t && i + j <= batchSize; j++) {
          const rest = batchSize - i - j;
          if (rest > w) continue;
          p += Math.exp(li + logBinomial(lf, t, j) + logBinomial(lf, w, rest) - logTotal);
        }
      }
    }
    start = end;
  }
  return Math.min(1, p);
}

/** P(a uniform C-subset of n items holds fewer than K of the s successes): Σ_{x<K} hypergeometric pmf. */
export function shortfallProbability(n: number, successes: number, batchSize: number, keep: number): number {
  const lf = logFactorials(n);
  const logTotal = logBinomial(lf, n, batchSize);
  let p = 0;
  for (let x = 0; x < keep && x <= successes; x++) {
    const rest = batchSize - x;
    if (rest > n - successes || rest < 0) continue;
    p += Math.exp(logBinomial(lf, successes, x) + logBinomial(lf, n - successes, rest) - logTotal);
  }
  return Math.min(1, p);
}
