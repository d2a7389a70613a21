/**
 * Below this |x|, `e^x − 1 − x` comes from its Taylor series: `expm1(x) − x` has relative error about
 * `2·2^-52/|x|`, at most 4.5e-12 at the threshold, while the series truncated after x^5/120 has relative
 * error below `x^4/360 < 3e-19` there.
 */
const SERIES_THRESHOLD = 1e-4;

/**
 * `e^x − 1 − x` without cancellation near 0 (the k3 estimator's `e^Δ − Δ − 1`). Internal; not exported
 * from the package.
 *
 * @param x - any number
 * @returns `e^x − 1 − x` (`+Infinity` for `x > 709.78`)
 */
export function expm1MinusX(x: number): number {
  if (Math.abs(x) < SERIES_THRESHOLD) {
    return 0.5 * x * x * (1 + (x / 3) * (1 + (x / 4) * (1 + x / 5)));
  }
  return Math.expm1(x) - x;
}
