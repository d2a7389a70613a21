import { describeValue } from '@ftw/internal';
import { checkFinite } from './validate.js';

/** √(2π), the normalising constant of the standard normal density. */
const SQRT_2PI = 2.5066282746310002;
/**
 * Below this |x| the Taylor series is used, above it the continued fraction. At 1.5 the series loses at
 * most a factor 0.5 / Φ(−1.5) ≈ 7.5 to cancellation and the continued fraction needs under 200 terms;
 * both sides measured against 50-digit mpmath stay within 4e-15 relative error.
 */
const SERIES_LIMIT = 1.5;
/** Φ(−38.5) < 2^-1074: beyond this the lower tail underflows to 0 and Φ rounds to 1. */
const UNDERFLOW_LIMIT = 38.5;
const MAX_TERMS = 1000;
const TINY = 1e-300;

/** exp(−x²/2) without the rounding of x²: x = h + l with h a multiple of 2^-8, so h² is exact. */
function gaussianKernel(x: number): number {
  const head = Math.round(x * 256) / 256;
  const tail = x - head;
  return Math.exp(-0.5 * head * head) * Math.exp(-0.5 * tail * (x + head));
}

/** S(x) = Σ_{n≥0} x^{2n+1} / (1·3·5···(2n+1)), so that Φ(x) = 1/2 + φ(x)·S(x); terms share x's sign. */
function taylorSum(x: number): number {
  const x2 = x * x;
  let term = x;
  let sum = x;
  for (let n = 1; n < MAX_TERMS; n++) {
    term *= x2 / (2 * n + 1);
    const next = sum + term;
    if (next === sum) return sum;
    sum = next;
  }
  return sum;
}

/** Mills ratio R(z) = (1 − Φ(z)) / φ(z) = 1/(z + 1/(z + 2/(z + 3/(z + …)))) for z ≥ 1, by modified Lentz. */
function millsRatio(z: number): number {
  let f = z;
  let c = z;
  let d = 0;
  for (let n = 1; n < MAX_TERMS; n++) {
    d = z + n * d;
    c = z + n / c;
    if (d === 0) d = TINY;
    if (c === 0) c = TINY;
    d = 1 / d;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) <= 1e-16) break;
  }
  return 1 / f;
}

/**
 * The cumulative distribution function of the normal law N(mean, std²), accurate to a few units in the
 * last place, tails included.
 *
 * Φ(x) = (1/√(2π)) ∫_{−∞}^{x} e^{−t²/2} dt, and `normalCdf(x, mean, std)` = Φ((x − mean) / std).
 *
 * Method. For |x| ≤ 1.5 the Taylor series Φ(x) = 1/2 + φ(x) Σ_{n≥0} x^{2n+1}/(2n+1)!! (all terms of one
 * sign, Marsaglia 2004). For |x| > 1.5 the Laplace continued fraction of the Mills ratio
 * R(z) = (1 − Φ(z))/φ(z) = 1/(z + 1/(z + 2/(z + 3/(z + …)))) evaluated by the modified Lentz method
 * (Abramowitz and Stegun 26.2.14), giving the lower tail Φ(−z) = φ(z)R(z) with full relative accuracy
 * down to the underflow at z ≈ 38.5, and Φ(z) = 1 − φ(z)R(z). The density φ(x) = e^{−x²/2}/√(2π) is
 * evaluated with x split into a short head and a tail so that the rounding of x² does not enter the
 * exponent. Relative error below 4e-15 against 50-digit mpmath on x ∈ [−38.5, 9].
 *
 * References: G. Marsaglia, "Evaluating the normal distribution", Journal of Statistical Software 11(4)
 * (2004); M. Abramowitz and I. A. Stegun, Handbook of Mathematical Functions, 26.2.10–26.2.14; W. J.
 * Lentz, Applied Optics 15 (1976) 668, with the modification of Thompson and Barnett (1986).
 *
 * @param x - the point, any number; ±Infinity give 0 and 1
 * @param mean - the mean of the law
 * @defaultValue mean 0
 * @param std - the standard deviation, finite and > 0
 * @defaultValue std 1
 * @returns P(X ≤ x) for X ~ N(mean, std²), in [0, 1]
 * @throws RangeError when `x` is NaN, `mean` is not finite or `std` is not finite and > 0
 *
 * @example
 * ```ts
 * console.log(normalCdf(0), normalCdf(1.96).toFixed(6), normalCdf(-10));
 * // 0.5 0.975002 7.619853024160523e-24
 * ```
 */
export function normalCdf(x: number, mean = 0, std = 1): number {
  if (typeof x !== 'number') throw new TypeError(`x must be a number, got ${describeValue(x)}`);
  if (Number.isNaN(x)) throw new RangeError('x must be a number, got NaN');
  checkFinite(mean, 'mean');
  if (checkFinite(std, 'std') <= 0) throw new RangeError(`std must be a finite number > 0, got ${std}`);
  const z = (x - mean) / std;
  if (z <= -UNDERFLOW_LIMIT) return 0;
  if (z >= UNDERFLOW_LIMIT) return 1;
  const density = gaussianKernel(z) / SQRT_2PI;
  if (Math.abs(z) <= SERIES_LIMIT) return 0.5 + density * taylorSum(z);
  const tail = density * millsRatio(Math.abs(z));
  return z < 0 ? tail : 1 - tail;
}
