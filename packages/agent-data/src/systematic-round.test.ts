import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { systematicRound } from './systematic-round.js';

const counts = fc.array(fc.double({ min: 0, max: 20, noNaN: true }), { minLength: 1, maxLength: 40 });
const uniform = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });

/** Σ counts in exact rational arithmetic (BigInt over 2^1100), the reference for the scaled counts. */
function exactSum(c: readonly number[]): number {
  const scale = 2n ** 1100n;
  let s = 0n;
  for (const x of c) {
    const [m, e] = decompose(x);
    s += e >= 0 ? (m << BigInt(e)) * scale : (m * scale) >> BigInt(-e);
  }
  // Keep the top 64 bits, then scale back by 2^-1100 in two steps (2^-1100 alone underflows).
  const shift = Math.max(0, s.toString(2).length - 64);
  return Number(s >> BigInt(shift)) * 2 ** (shift - 550) * 2 ** -550;
}

/** x = m · 2^e with integer m (doubles are dyadic rationals). */
function decompose(x: number): [bigint, number] {
  if (x === 0) return [0n, 0];
  let e = 0;
  let m = x;
  while (!Number.isInteger(m)) {
    m *= 2;
    e--;
  }
  return [BigInt(m), e];
}

describe('systematicRound', () => {
  test.prop([counts, uniform])(
    'keeps every count within 1 of its value, and the total within 1 of the sum',
    (c, u) => {
      const m = systematicRound(c, u);
      for (const [i, x] of c.entries()) expect(Math.abs(m[i]! - x)).toBeLessThanOrEqual(1);
      const total = m.reduce((s, x) => s + x, 0);
      expect(Math.abs(total - exactSum(c))).toBeLessThan(1);
    },
  );

  test.prop([counts, uniform, fc.integer({ min: 0, max: 1000 })])(
    'with a known total: the total is exact, each count within 1 of its share scaled to that total',
    (c, u, total) => {
      const sum = exactSum(c);
      fc.pre(sum > 0);
      const m = systematicRound(c, u, total);
      expect(m.reduce((s, x) => s + x, 0)).toBe(total);
      for (const [i, x] of c.entries())
        expect(Math.abs(m[i]! - (x * total) / sum)).toBeLessThanOrEqual(1 + 1e-9);
    },
  );

  it('keeps J·K exact when the counts sum to it only up to rounding', () => {
    const thirds = [1 / 3, 1 / 3, 1 / 3, 2 / 3, 2 / 3, 2 / 3, 0.1, 0.2, 0.7];
    for (let g = 0; g < 1000; g++)
      expect(systematicRound(thirds, g / 1000, 4).reduce((s, x) => s + x, 0)).toBe(4);
  });

  it('is unbiased: averaged over u on a fine grid, each count is its expected value', () => {
    const c = [0.3, 1.45, 2.25, 0, 0.999, 3.001];
    const grid = 100_000;
    const sums = new Float64Array(c.length);
    for (let g = 0; g < grid; g++) {
      const m = systematicRound(c, (g + 0.5) / grid);
      for (let i = 0; i < c.length; i++) sums[i]! += m[i]!;
    }
    // A midpoint grid of G points integrates the step function exactly up to 1/G per breakpoint.
    for (const [i, x] of c.entries()) expect(sums[i]! / grid).toBeCloseTo(x, 4);
  });

  it('rejects a negative count, a u outside [0, 1) and a bad total', () => {
    expect(() => systematicRound([1, -0.5], 0.5)).toThrow(
      /counts\[1\] must be a finite number >= 0, got -0.5/,
    );
    expect(() => systematicRound([1], 1)).toThrow(/u must be in \[0, 1\), got 1/);
    expect(() => systematicRound([1], 0.5, 1.5)).toThrow(/total must be a non-negative integer, got 1.5/);
    expect(() => systematicRound([0, 0], 0.5, 2)).toThrow(/total must be 0 when every count is 0/);
  });
});
