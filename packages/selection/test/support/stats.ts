/**
 * Statistical acceptance bands with a stated false-alarm probability.
 *
 * Bernstein's inequality: for S a sum of independent variables with |X_i − E X_i| ≤ 1 and variance
 * σ² = Var S, P(|S − E S| ≥ t) ≤ 2 exp(−t² / (2(σ² + t/3))). Setting the right side to δ and solving
 * the quadratic gives the half-width t = L/3 + sqrt(L²/9 + 2Lσ²), L = ln(2/δ). Every count the tests
 * check (how often an item or rank is kept, how often an item is drawn) is such a sum of per-minibatch
 * indicators.
 */
export function bernsteinHalfWidth(variance: number, delta: number): number {
  const L = Math.log(2 / delta);
  return L / 3 + Math.sqrt((L * L) / 9 + 2 * L * variance);
}

/**
 * Largest standardized excess max_i (|c_i − λ_i| / t_i) of counts over their Bernstein bands, where
 * λ_i = trials·p_i and t_i is the half-width for a Binomial(trials, p_i) count at false-alarm `delta`
 * per cell. A value <= 1 means every cell is inside its band.
 */
export function worstBandExcess(
  counts: ArrayLike<number>,
  probabilities: ArrayLike<number>,
  trials: number,
  delta: number,
): number {
  let worst = 0;
  for (let i = 0; i < counts.length; i++) {
    const p = probabilities[i]!;
    const mean = trials * p;
    const band = bernsteinHalfWidth(trials * p * (1 - p), delta);
    worst = Math.max(worst, Math.abs(counts[i]! - mean) / band);
  }
  return worst;
}

/** Per-run false-alarm budget of every statistical test in this package. */
export const FALSE_ALARM_PER_TEST = 1e-7;
