import type { MeanInterval } from './mean-interval.js';

/**
 * Formats a mean with its confidence interval as `mean ± half-width` with a fixed number of decimals.
 *
 * @param interval - the mean and half-width (see `meanInterval`)
 * @param digits - decimals to print
 * @returns e.g. `0.968 ± 0.004`; the mean alone when there was one value
 * @throws RangeError from `Number.prototype.toFixed` when digits is outside [0, 100]
 * @example
 * ```ts
 * formatInterval({ n: 3, mean: 0.96796, halfWidth: 0.00123, sd: 0.0005 }, 3); // '0.968 ± 0.001'
 * ```
 */
export function formatInterval(interval: MeanInterval, digits: number): string {
  const mean = interval.mean.toFixed(digits);
  return interval.n < 2 ? mean : `${mean} ± ${interval.halfWidth.toFixed(digits)}`;
}
