import type { PolicyShift } from './policy-shift.js';

/**
 * The running sums and maxima of per-row KL and total-variation shifts, shared by {@link policyShift} and
 * `PolicyShiftTracker` so that both clamp and aggregate rows in the same order (their results are equal
 * bit for bit). Internal.
 */
export class ShiftSums {
  klSum = 0;
  klMax = 0;
  tvSum = 0;
  tvMax = 0;

  /** Starts again from no rows. */
  reset(): void {
    this.klSum = 0;
    this.klMax = 0;
    this.tvSum = 0;
    this.tvMax = 0;
  }

  /**
   * Adds one row, given `Σ p (log p − log q)` and `Σ |p − q|` over its actions.
   *
   * Rounding can leave a KL of identical rows at −1e-17 or a TV of disjoint rows at 1 + 2e-16; the
   * quantities themselves lie in [0, ∞) and [0, 1], so they are clamped there.
   */
  add(klRaw: number, absDiffSum: number): void {
    const kl = Math.max(klRaw, 0);
    const tv = Math.min(0.5 * absDiffSum, 1);
    this.klSum += kl;
    this.tvSum += tv;
    if (kl > this.klMax) this.klMax = kl;
    if (tv > this.tvMax) this.tvMax = tv;
  }

  /** Means and maxima over `rows` rows, in `out` when given (a loop that reuses one allocates nothing). */
  result(rows: number, out?: Partial<PolicyShift>): PolicyShift {
    // Our own results are built whole, so these stores see only the caller's `out`: a loop that reuses one
    // `out` keeps them monomorphic, and V8 then updates the numbers in place instead of boxing them.
    if (out === undefined) {
      return { klMean: this.klSum / rows, klMax: this.klMax, tvMean: this.tvSum / rows, tvMax: this.tvMax };
    }
    out.klMean = this.klSum / rows;
    out.klMax = this.klMax;
    out.tvMean = this.tvSum / rows;
    out.tvMax = this.tvMax;
    return out as PolicyShift;
  }
}
