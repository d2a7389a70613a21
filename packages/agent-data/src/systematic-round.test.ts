import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { systematicRound } from './systematic-round.js';

const counts = fc.array(fc.double({ min: 0, max: 20, noNaN: true }), { minLength: 1, maxLength: 40 });
const uniform = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });

describe('systematicRound', () => {
  test.prop([counts, uniform])('keeps every count within 1 of its expected value', (e, u) => {
    const m = systematicRound(e, u);
    for (const [i, x] of e.entries()) expect(Math.abs(m[i]! - x)).toBeLessThanOrEqual(1);
  });

  test.prop([
    fc.array(fc.integer({ min: 0, max: 8 }), { minLength: 1, maxLength: 30 }),
    fc.integer({ min: 1, max: 7 }),
    uniform,
  ])('keeps a whole total exact (J·K split into fractions) whatever u', (weights, divisor, u) => {
    const total = weights.reduce((s, w) => s + w, 0);
    fc.pre(total > 0);
    // Shares that sum to a whole number only up to rounding: total/divisor pieces scaled back.
    const e = weights.map((w) => (w / total) * total * (divisor / divisor));
    const m = systematicRound(e, u);
    expect(m.reduce((s, x) => s + x, 0)).toBe(total);
    const thirds = [1 / 3, 1 / 3, 1 / 3, 2 / 3, 2 / 3, 2 / 3, 0.1, 0.2, 0.7];
    expect(systematicRound(thirds, u).reduce((s, x) => s + x, 0)).toBe(4);
  });

  it('is unbiased: averaged over u on a fine grid, each count is its expected value', () => {
    const e = [0.3, 1.45, 2.25, 0, 0.999, 3.001];
    const grid = 100_000;
    const sums = new Float64Array(e.length);
    for (let g = 0; g < grid; g++) {
      const m = systematicRound(e, (g + 0.5) / grid);
      for (let i = 0; i < e.length; i++) sums[i]! += m[i]!;
    }
    // A midpoint grid of G points integrates the step function exactly up to 1/G per breakpoint.
    for (const [i, x] of e.entries()) expect(sums[i]! / grid).toBeCloseTo(x, 4);
  });

  it('rejects a negative count and a u outside [0, 1)', () => {
    expect(() => systematicRound([1, -0.5], 0.5)).toThrow(
      /counts\[1\] must be a finite number >= 0, got -0.5/,
    );
    expect(() => systematicRound([1], 1)).toThrow(/u must be in \[0, 1\), got 1/);
  });
});
