import { describeValue } from '@ftw/internal';

/**
 * Rounds fractional expected counts to integers by systematic sampling: with one uniform u, item i gets
 *
 *   m_i = ⌊S_i + u⌋ − ⌊S_{i−1} + u⌋,   S_i = e_1 + … + e_i,
 *
 * so each m_i is ⌊e_i⌋ or ⌈e_i⌉ (within 1 of its count), E[m_i] = e_i for u uniform on [0, 1), and the
 * total is ⌊S_n + u⌋: exactly S_n when S_n is a whole number (J·K without a threshold). A total within
 * 1e-9 of a whole number is taken as that number, so rounding in the sum cannot lose or add a copy.
 * Method: Madow's systematic sampling (1949), the lowest-variance unbiased integer rounding with a fixed
 * total; partial sums are Neumaier-compensated.
 *
 * @param counts - expected counts e_i ≥ 0 (finite)
 * @param u - the seeded uniform on [0, 1)
 * @returns integer counts m_i
 * @throws RangeError when a count is negative or not finite, or u is outside [0, 1)
 * @example
 * ```ts
 * systematicRound([0.5, 1.25, 1.25], 0.3); // Uint32Array [0, 2, 1]  (total 3 = 0.5 + 1.25 + 1.25)
 * ```
 */
export function systematicRound(counts: ArrayLike<number>, u: number): Uint32Array {
  if (!(u >= 0 && u < 1)) throw new RangeError(`u must be in [0, 1), got ${describeValue(u)}`);
  const n = counts.length;
  let total = 0;
  let compensation = 0;
  const sums = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const e = counts[i]!;
    if (!(e >= 0 && Number.isFinite(e))) {
      throw new RangeError(`counts[${i}] must be a finite number >= 0, got ${describeValue(e)}`);
    }
    const t = total + e;
    compensation += Math.abs(total) >= Math.abs(e) ? total - t + e : e - t + total;
    total = t;
    sums[i] = total + compensation;
  }
  if (n > 0) {
    const whole = Math.round(sums[n - 1]!);
    if (Math.abs(sums[n - 1]! - whole) <= 1e-9 * Math.max(1, whole)) sums[n - 1] = whole;
  }
  const out = new Uint32Array(n);
  let previous = 0;
  for (let i = 0; i < n; i++) {
    // ⌊S + u⌋ as ⌊S⌋ + [frac(S) + u ≥ 1]: S + u itself may round up to the next whole number.
    const s = sums[i]!;
    const whole = Math.floor(s);
    const current = whole + (s - whole + u >= 1 ? 1 : 0);
    out[i] = Math.max(0, current - previous);
    previous = Math.max(previous, current);
  }
  return out;
}
