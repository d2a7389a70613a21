/**
 * Natural log of the hypergeometric probability mass function, accurate to a few ulps of its magnitude
 * for populations in the millions.
 *
 * Method: Loader's saddle-point expansion ("Fast and accurate computation of binomial probabilities",
 * C. Loader, 2000; R's `dhyper`). With p = m/N,
 *
 *   h(x; s, f, m) = b(x; s, p) · b(m − x; f, p) / b(m; N, p),   N = s + f,
 *
 * where b is the binomial pmf, and each log b(x; n, p) = stirlerr(n) − stirlerr(x) − stirlerr(n − x)
 * − bd0(x, np) − bd0(n − x, nq) − ½ log(2π x (n − x)/n). Every term is computed without cancellation,
 * so the absolute error of log h is a few ulps of |log h| (log-factorials via lgamma would instead lose
 * eps · n log n, about 3e-8 at n = 10^7). The deviation δ = x − s·p enters each bd0 term; it is formed
 * from exact integers, (x·N − s·m)/N, with a single rounding, which removes the eps·|x − np| error that a
 * rounded n·p would leave.
 */

/** stirlerr(n) = log(n!) − log(√(2πn) (n/e)^n) for n = 0..15, from 60-digit decimal arithmetic. */
const STIRLERR_SMALL = [
  0, 0.08106146679532726, 0.0413406959554093, 0.02767792568499834, 0.020790672103765093, 0.016644691189821193,
  0.013876128823070748, 0.01189670994589177, 0.010411265261972096, 0.009255462182712733, 0.00833056343336287,
  0.007573675487951841, 0.00694284010720953, 0.006408994188004207, 0.0059513701127588475,
  0.005554733551962801,
];

// Coefficients of the Stirling series 1/12n − 1/360n³ + 1/1260n⁵ − 1/1680n⁷ + 1/1188n⁹.
const S0 = 1 / 12;
const S1 = 1 / 360;
const S2 = 1 / 1260;
const S3 = 1 / 1680;
const S4 = 1 / 1188;
const TWO_PI = 2 * Math.PI;

/** Error of Stirling's approximation to log(n!), for integer n >= 0 (Loader 2000, as in R). */
export function stirlerr(n: number): number {
  if (n <= 15) return STIRLERR_SMALL[n]!;
  const nn = n * n;
  if (n > 500) return (S0 - S1 / nn) / n;
  if (n > 80) return (S0 - (S1 - S2 / nn) / nn) / n;
  if (n > 35) return (S0 - (S1 - (S2 - S3 / nn) / nn) / nn) / n;
  return (S0 - (S1 - (S2 - (S3 - S4 / nn) / nn) / nn) / nn) / n;
}

/**
 * The deviance term bd0(x, M) = x log(x/M) + M − x for x > 0, given delta = x − M accurately.
 * Near M (|delta| < ½(x + M)) the series 2x Σ v^(2j+1)/(2j+1) − delta·… in v = delta/(x + M) has
 * terms at most 1/6 of its first term against it, so it loses no digits; far from M, x·log1p and delta
 * cancel by at most a factor of about 3.
 */
export function bd0(x: number, delta: number): number {
  const m = x - delta;
  if (Math.abs(delta) < 0.5 * (x + m)) {
    let v = delta / (x + m);
    let sum = delta * v;
    let ej = 2 * x * v;
    v *= v;
    for (let j = 1; j < 1000; j++) {
      ej *= v;
      const next = sum + ej / (2 * j + 1);
      if (next === sum) return next;
      sum = next;
    }
    return sum;
  }
  return -x * Math.log1p(-delta / x) - delta;
}

/** log of binom(n, x) p^x q^(n−x) where delta = x − n·p, computed accurately by the caller. */
function logBinomialPmf(x: number, n: number, p: number, q: number, delta: number): number {
  if (n === 0) return 0;
  // The degenerate ends: q^n and p^n, with log1p when the base is near 1.
  if (x === 0) return n * (p < 0.5 ? Math.log1p(-p) : Math.log(q));
  if (x === n) return n * (q < 0.5 ? Math.log1p(-q) : Math.log(p));
  const lc = stirlerr(n) - stirlerr(x) - stirlerr(n - x) - bd0(x, delta) - bd0(n - x, -delta);
  return lc - 0.5 * Math.log(TWO_PI * x * ((n - x) / n));
}

/**
 * log Pr[X = x] for X ~ Hypergeometric(successes s, failures f, draws m): the log of
 * binom(s, x) · binom(f, m − x) / binom(s + f, m). Requires integers with 0 <= x <= s, 0 <= m − x <= f,
 * and (s + f)·m below 2^53 so that the deviation numerator is exact.
 */
export function logHypergeometricPmf(x: number, s: number, f: number, m: number): number {
  if (m === 0) return 0;
  const total = s + f;
  if (m === total) return 0;
  const p = m / total;
  const q = (total - m) / total;
  const delta = (x * total - s * m) / total;
  const lnHead = logBinomialPmf(x, s, p, q, delta);
  const lnTail = logBinomialPmf(m - x, f, p, q, -delta);
  // b(m; N, p) sits at its mean, where both bd0 terms vanish.
  const lnNorm = stirlerr(total) - stirlerr(m) - stirlerr(total - m) - 0.5 * Math.log(TWO_PI * m * q);
  return lnHead + lnTail - lnNorm;
}
