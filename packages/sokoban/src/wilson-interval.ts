import { describeValue } from '@ftw/internal';

/** Φ⁻¹(0.975), the standard normal quantile of a two-sided 95% interval, to the last digit of a double. */
export const Z_95 = 1.959963984540054;

/** A success rate with its Wilson score interval. */
export interface SuccessInterval {
  /** Successes. */
  readonly successes: number;
  /** Trials. */
  readonly trials: number;
  /** successes / trials. */
  readonly rate: number;
  /** Lower end of the interval, in [0, rate]. */
  readonly lower: number;
  /** Upper end of the interval, in [rate, 1]. */
  readonly upper: number;
}

/**
 * The Wilson score interval of a binomial proportion: the p whose score test does not reject at level
 * z, i.e. the roots of n (p̂ − p)² = z² p (1 − p):
 *
 *   (p̂ + z²/2n ∓ z √(p̂(1 − p̂)/n + z²/4n²)) / (1 + z²/n),   p̂ = s / n.
 *
 * Unlike the Wald interval p̂ ± z √(p̂(1 − p̂)/n) it never leaves [0, 1], is not empty at s = 0 or s = n,
 * and covers close to its nominal level even for small n or p̂ near 0 or 1 (Brown, Cai and DasGupta
 * 2001). The ends at s = 0 and s = n are set to exactly 0 and 1 (the formula gives them up to rounding).
 *
 * Reference: E. B. Wilson, "Probable inference, the law of succession, and statistical inference",
 * JASA 22 (1927); R. G. Newcombe, "Two-sided confidence intervals for the single proportion: comparison of
 * seven methods", Statistics in Medicine 17 (1998), method 3 and Table II.
 *
 * @param successes - an integer in [0, trials]
 * @param trials - an integer ≥ 1
 * @param z - the normal quantile of the two-sided level (default {@link Z_95}, a 95% interval)
 * @returns the rate and its interval
 * @throws TypeError/RangeError naming the parameter and the value received
 *
 * @example
 * ```ts
 * const { rate, lower, upper } = wilsonInterval(81, 263);
 * console.log(rate.toFixed(4), lower.toFixed(4), upper.toFixed(4));
 * // 0.3080 0.2553 0.3662
 * ```
 */
export function wilsonInterval(successes: number, trials: number, z: number = Z_95): SuccessInterval {
  if (typeof trials !== 'number' || !Number.isSafeInteger(trials) || trials < 1) {
    throw new RangeError(`trials must be an integer >= 1, got ${describeValue(trials)}`);
  }
  if (
    typeof successes !== 'number' ||
    !Number.isSafeInteger(successes) ||
    successes < 0 ||
    successes > trials
  ) {
    throw new RangeError(`successes must be an integer in [0, ${trials}], got ${describeValue(successes)}`);
  }
  if (typeof z !== 'number' || !Number.isFinite(z) || z <= 0) {
    throw new RangeError(`z must be a finite number > 0, got ${describeValue(z)}`);
  }
  const n = trials;
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  return {
    successes,
    trials,
    rate: p,
    lower: successes === 0 ? 0 : Math.max(0, centre - half),
    upper: successes === n ? 1 : Math.min(1, centre + half),
  };
}
