import { describeValue } from '@ftw/internal';

/**
 * Rounds fractional expected counts to integers by systematic sampling: with one uniform u, item i gets
 *
 *   m_i = ⌊S_i + u⌋ − ⌊S_{i−1} + u⌋,   S_i = c_1 + … + c_i,
 *
 * so each m_i is ⌊c_i⌋ or ⌈c_i⌉ (within 1 of its count), E[m_i] = c_i for u uniform on [0, 1), and the
 * total is ⌊S_n + u⌋. When the exact total is known (J·K per group without a threshold), pass it: the
 * counts are first scaled by total / S_n, so that rounding in the counts and in their sum cannot lose or
 * add a copy — the total is then exactly `total`, and each m_i is within 1 of its scaled count
 * c_i · total / S_n (which differs from c_i by the relative rounding error of the sum).
 * Method: Madow's systematic sampling (1949), the lowest-variance unbiased integer rounding with a fixed
 * total; partial sums are Neumaier-compensated, and ⌊S + u⌋ is taken as ⌊S⌋ + [frac(S) + u ≥ 1] because
 * S + u itself can round up to the next whole number.
 *
 * @param counts - expected counts c_i ≥ 0 (finite)
 * @param u - the seeded uniform on [0, 1)
 * @param total - the exact total, a whole number, when known
 * @returns integer counts m_i
 * @throws RangeError when a count is negative or not finite, u is outside [0, 1), or `total` is not a
 * non-negative integer (or is positive while every count is 0)
 * @example
 * ```ts
 * systematicRound([0.5, 1.25, 1.25], 0.3); // Uint32Array [0, 2, 1]  (total 3 = 0.5 + 1.25 + 1.25)
 * systematicRound([1 / 3, 1 / 3, 1 / 3], 0.5, 1); // Uint32Array [0, 1, 0]
 * ```
 */
export function systematicRound(counts: ArrayLike<number>, u: number, total?: number): Uint32Array {
  if (!(u >= 0 && u < 1)) throw new RangeError(`u must be in [0, 1), got ${describeValue(u)}`);
  if (total !== undefined && !(Number.isSafeInteger(total) && total >= 0)) {
    throw new RangeError(`total must be a non-negative integer, got ${describeValue(total)}`);
  }
  const n = counts.length;
  let sum = 0;
  let compensation = 0;
  const sums = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const c = counts[i]!;
    if (!(c >= 0 && Number.isFinite(c))) {
      throw new RangeError(`counts[${i}] must be a finite number >= 0, got ${describeValue(c)}`);
    }
    const t = sum + c;
    compensation += Math.abs(sum) >= Math.abs(c) ? sum - t + c : c - t + sum;
    sum = t;
    sums[i] = sum + compensation;
  }
  if (total !== undefined && n > 0) {
    const last = sums[n - 1]!;
    if (last === 0 && total > 0) throw new RangeError(`total must be 0 when every count is 0, got ${total}`);
    // Divide first: total / last overflows when the counts are subnormal.
    for (let i = 0; i < n - 1; i++) sums[i] = last === 0 ? 0 : Math.min(total, (sums[i]! / last) * total);
    sums[n - 1] = total;
  }
  const out = new Uint32Array(n);
  let previous = 0;
  for (let i = 0; i < n; i++) {
    const s = sums[i]!;
    const whole = Math.floor(s);
    const current = whole + (s - whole + u >= 1 ? 1 : 0);
    out[i] = Math.max(0, current - previous);
    previous = Math.max(previous, current);
  }
  return out;
}
