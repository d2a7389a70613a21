/**
 * Tail bounds and test statistics for the package's statistical tests. Each bound is a proven inequality,
 * so a test that checks `|observed − expected| ≤ radius(δ)` fails by chance with probability at most δ
 * when the code is right.
 */

/**
 * z such that P(|Z| > z) ≤ δ for Z ~ N(0, 1), from the Chernoff bound P(|Z| > z) ≤ 2 exp(−z²/2).
 *
 * @param delta - false-alarm probability
 * @returns the two-sided radius in standard deviations
 */
export function normalRadius(delta: number): number {
  return Math.sqrt(2 * Math.log(2 / delta));
}

/**
 * Bernstein's inequality for a sum S of independent variables with |X_i − E X_i| ≤ b and total variance
 * V: P(|S − E S| ≥ t) ≤ 2 exp(−t² / (2(V + b t / 3))). Solving for t at probability δ gives
 * t = bL/3 + √((bL/3)² + 2VL) with L = ln(2/δ).
 *
 * @param variance - V, the variance of the sum
 * @param bound - b, the bound on each centred term
 * @param delta - false-alarm probability
 * @returns the radius t
 */
export function bernsteinRadius(variance: number, bound: number, delta: number): number {
  const L = Math.log(2 / delta);
  const a = (bound * L) / 3;
  return a + Math.sqrt(a * a + 2 * variance * L);
}

/**
 * Laurent and Massart (2000), Lemma 1: for X ~ χ²_k, P(X − k ≥ 2√(kx) + 2x) ≤ e^{−x} and
 * P(k − X ≥ 2√(kx)) ≤ e^{−x}. With x = ln(2/δ) the interval fails with probability at most δ.
 *
 * @param k - degrees of freedom
 * @param delta - false-alarm probability of the two-sided interval
 * @returns `[low, high]` bounds on X
 */
export function chiSquareInterval(k: number, delta: number): [number, number] {
  const x = Math.log(2 / delta);
  return [k - 2 * Math.sqrt(k * x), k + 2 * Math.sqrt(k * x) + 2 * x];
}

/**
 * The Dvoretzky–Kiefer–Wolfowitz inequality with Massart's constant (1990): for n i.i.d. draws from a
 * continuous law F, P(sup_x |F_n(x) − F(x)| > ε) ≤ 2 exp(−2nε²), so ε = √(ln(2/δ) / (2n)).
 *
 * @param n - sample size
 * @param delta - false-alarm probability
 * @returns the critical value ε of the Kolmogorov–Smirnov statistic
 */
export function dkwEpsilon(n: number, delta: number): number {
  return Math.sqrt(Math.log(2 / delta) / (2 * n));
}

/**
 * The Kolmogorov–Smirnov statistic D_n = sup_x |F_n(x) − F(x)| of a sample against a continuous CDF.
 *
 * @param sample - the draws (not modified)
 * @param cdf - the hypothesised CDF
 * @returns D_n
 */
export function ksStatistic(sample: ArrayLike<number>, cdf: (x: number) => number): number {
  const sorted = Float64Array.from(sample).sort();
  const n = sorted.length;
  let d = 0;
  for (let i = 0; i < n; i++) {
    const f = cdf(sorted[i]!);
    d = Math.max(d, (i + 1) / n - f, f - i / n);
  }
  return d;
}

/**
 * @param values - a sample
 * @returns `[mean, unbiased variance]`
 */
export function meanVariance(values: ArrayLike<number>): [number, number] {
  let mean = 0;
  for (let i = 0; i < values.length; i++) mean += values[i]!;
  mean /= values.length;
  let squares = 0;
  for (let i = 0; i < values.length; i++) squares += (values[i]! - mean) ** 2;
  return [mean, squares / (values.length - 1)];
}

/**
 * A uniform source that counts its draws, for checking how many uniforms a sampler consumes.
 *
 * @param random - the underlying source
 * @returns the counting source and a getter for the count
 */
export function counting(random: () => number): { random: () => number; count: () => number } {
  let calls = 0;
  return {
    random: () => {
      calls++;
      return random();
    },
    count: () => calls,
  };
}
