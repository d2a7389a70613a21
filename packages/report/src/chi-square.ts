import { logGamma } from './log-gamma.js';

// Only the end-to-end test's bounds use these (tail 1e-4, up to 767 degrees of freedom). Checked against
// @stdlib/stats-base-dists-chisquare-quantile 0.2.3: the quantiles agree to 1.5e-15 relative (767: 629.8174842547653
// here, …662 there), but that one function installs 214 packages (24 MB) into the runner's dev tree;
// jstat 1.9.6 agrees to 2e-12 but is untyped CommonJS. Small, exact where tested, kept.
const EPS = 1e-16;
const TINY = 1e-300;

/**
 * The regularised incomplete gamma functions P(a, x) and Q(a, x) = 1 − P(a, x), each computed directly
 * on the side where it is small (no cancellation): the series for P when x < a + 1, the continued
 * fraction (modified Lentz) for Q otherwise. Numerical Recipes §6.2; Abramowitz and Stegun 6.5.29 and
 * 6.5.31.
 */
function incompleteGamma(a: number, x: number): { lower: number; upper: number } {
  if (x <= 0) return { lower: 0, upper: 1 };
  const front = Math.exp(-x + a * Math.log(x) - logGamma(a));
  if (x < a + 1) {
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < 10_000; n++) {
      term *= x / (a + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * EPS) break;
    }
    const lower = sum * front;
    return { lower, upper: 1 - lower };
  }
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 10_000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPS) break;
  }
  const upper = front * h;
  return { lower: 1 - upper, upper };
}

/**
 * The chi-square distribution with ν degrees of freedom: Pr[X ≤ x] and Pr[X > x], each accurate where
 * it is small (see the method of the incomplete gamma function above): P(ν/2, x/2) and Q(ν/2, x/2).
 *
 * @param x - the value (≥ 0)
 * @param dof - degrees of freedom ν > 0
 * @returns `{ lower: Pr[X ≤ x], upper: Pr[X > x] }`
 * @throws RangeError when `dof` is not a finite number > 0 or `x` is NaN
 * @example
 * ```ts
 * chiSquareTails(2, 2); // { lower: 0.6321205588285577, upper: 0.36787944117144233 } (1 − e^{−1}, e^{−1})
 * ```
 */
export function chiSquareTails(x: number, dof: number): { lower: number; upper: number } {
  if (!(dof > 0 && Number.isFinite(dof))) throw new RangeError(`dof must be a finite number > 0, got ${dof}`);
  if (Number.isNaN(x)) throw new RangeError('x must be a number, got NaN');
  return incompleteGamma(dof / 2, x / 2);
}

/**
 * The chi-square quantiles that cut off `tail` on each side: Pr[X < lo] = Pr[X > hi] = tail, found by
 * bisection on the tail probability computed on its own side (so a tail of 1e-6 keeps its digits).
 *
 * @param tail - probability in each tail, in (0, 0.5)
 * @param dof - degrees of freedom ν > 0
 * @returns `{ lo, hi }`
 * @throws RangeError when `tail` is not in (0, 0.5) or `dof` is not a finite number > 0
 * @example
 * ```ts
 * chiSquareInterval(0.025, 10); // { lo: 3.2469727802368304, hi: 20.483177350807388 }
 * ```
 */
export function chiSquareInterval(tail: number, dof: number): { lo: number; hi: number } {
  if (!(tail > 0 && tail < 0.5)) throw new RangeError(`tail must be a number in (0, 0.5), got ${tail}`);
  if (!(dof > 0 && Number.isFinite(dof))) throw new RangeError(`dof must be a finite number > 0, got ${dof}`);
  const solve = (side: 'lower' | 'upper'): number => {
    let lo = 0;
    let hi = dof + 40 * Math.sqrt(2 * dof) + 200;
    for (let i = 0; i < 200; i++) {
      const mid = lo + (hi - lo) / 2;
      if (mid === lo || mid === hi) break;
      const p = incompleteGamma(dof / 2, mid / 2)[side];
      // lower tail grows with x, upper tail shrinks
      if (side === 'lower' ? p < tail : p > tail) lo = mid;
      else hi = mid;
    }
    return lo + (hi - lo) / 2;
  };
  return { lo: solve('lower'), hi: solve('upper') };
}
