import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { chiSquareInterval, chiSquareTails } from './chi-square.js';

/** Pr[X > x] for even ν = 2k in closed form: e^{−x/2} Σ_{j<k} (x/2)^j / j! (Abramowitz and Stegun 26.4.21). */
function evenSurvival(x: number, k: number): number {
  let term = 1;
  let sum = 1;
  for (let j = 1; j < k; j++) {
    term *= x / 2 / j;
    sum += term;
  }
  return Math.exp(-x / 2) * sum;
}

describe('chiSquareTails', () => {
  test.prop([fc.integer({ min: 1, max: 80 }), fc.double({ min: 0.01, max: 400, noNaN: true })])(
    'matches the closed form for even degrees of freedom, on both sides',
    (k, x) => {
      const { lower, upper } = chiSquareTails(x, 2 * k);
      const q = evenSurvival(x, k);
      expect(Math.abs(upper - q)).toBeLessThanOrEqual(1e-12 * Math.max(q, 1e-300) + 1e-300);
      expect(Math.abs(lower - (1 - q))).toBeLessThanOrEqual(1e-12);
    },
  );

  it('keeps small lower tails to relative accuracy', () => {
    // ν = 2: Pr[X ≤ x] = 1 − e^{−x/2} = −expm1(−x/2), tiny for small x.
    const { lower } = chiSquareTails(1e-6, 2);
    expect(Math.abs(lower / -Math.expm1(-5e-7) - 1)).toBeLessThan(1e-12);
  });

  it('refuses bad parameters', () => {
    expect(() => chiSquareTails(1, 0)).toThrow('dof must be a finite number > 0, got 0');
    expect(() => chiSquareTails(Number.NaN, 3)).toThrow('x must be a number, got NaN');
  });
});

describe('chiSquareInterval', () => {
  it('gives the tabled quantiles', () => {
    // Abramowitz and Stegun, Table 26.8: χ²(0.975; 10) = 3.24697, χ²(0.025; 10) = 20.4832;
    // χ²(0.999; 100) = 61.918, χ²(0.001; 100) = 149.449.
    const ten = chiSquareInterval(0.025, 10);
    expect(ten.lo).toBeCloseTo(3.24697, 5);
    expect(ten.hi).toBeCloseTo(20.4832, 4);
    const hundred = chiSquareInterval(0.001, 100);
    expect(hundred.lo).toBeCloseTo(61.918, 3);
    expect(hundred.hi).toBeCloseTo(149.449, 3);
  });

  test.prop([fc.integer({ min: 1, max: 300 }), fc.double({ min: 1e-7, max: 0.4, noNaN: true })])(
    'cuts off the asked probability on each side',
    (dof, tail) => {
      const { lo, hi } = chiSquareInterval(tail, dof);
      expect(Math.abs(chiSquareTails(lo, dof).lower / tail - 1)).toBeLessThan(1e-9);
      expect(Math.abs(chiSquareTails(hi, dof).upper / tail - 1)).toBeLessThan(1e-9);
    },
  );

  it('refuses bad parameters', () => {
    expect(() => chiSquareInterval(0.5, 3)).toThrow('tail must be a number in (0, 0.5), got 0.5');
    expect(() => chiSquareInterval(0.1, -1)).toThrow('dof must be a finite number > 0, got -1');
  });
});
