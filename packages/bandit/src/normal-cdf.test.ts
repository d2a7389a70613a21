import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { normalCdf } from './normal-cdf.js';

// Φ(x) from mpmath.ncdf at 50 significant digits, rounded to the nearest double.
const REFERENCE: ReadonlyArray<readonly [number, number]> = [
  [-37, 5.725571222524577e-300],
  [-30, 4.906713927148187e-198],
  [-20, 2.7536241186062337e-89],
  [-10, 7.619853024160525e-24],
  [-8.5, 9.479534822203318e-18],
  [-5, 2.866515718791939e-7],
  [-3, 0.0013498980316300946],
  [-2, 0.02275013194817921],
  [-1.5000001, 0.06680718831709946],
  [-1.5, 0.06680720126885807],
  [-1, 0.15865525393145705],
  [-0.5, 0.3085375387259869],
  [-0.001, 0.49960105778608893],
  [0, 0.5],
  [1e-10, 0.5000000000398942],
  [0.3, 0.6179114221889527],
  [1, 0.8413447460685429],
  [1.5, 0.9331927987311419],
  [1.96, 0.9750021048517795],
  [2.5, 0.9937903346742238],
  [3, 0.9986501019683699],
  [5, 0.9999997133484281],
  [8, 0.9999999999999993],
];

const density = (x: number): number => Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);

describe('normalCdf', () => {
  it('matches 50-digit reference values to 1e-14 relative error, tails included', () => {
    for (const [x, expected] of REFERENCE) {
      expect(Math.abs(normalCdf(x) - expected) / expected, `x = ${x}`).toBeLessThan(1e-14);
    }
  });

  test.prop([fc.double({ min: -37, max: 37, noNaN: true })])('satisfies Φ(x) + Φ(−x) = 1', (x) => {
    expect(Math.abs(normalCdf(x) + normalCdf(-x) - 1)).toBeLessThan(4e-16);
  });

  test.prop([fc.double({ min: -8, max: 8, noNaN: true })])(
    'has the normal density as derivative (central differences)',
    (x) => {
      // Central difference error ≤ h² max|φ'''|/6 ≈ 1.7e-11 plus rounding 2·eps/h ≈ 4e-11; relative to
      // φ(x) ≥ φ(8) ≈ 5e-15 that is too loose in the far tail, so compare with an absolute 1e-9 and a
      // relative 1e-5 bound, whichever is larger.
      const h = 1e-5;
      const slope = (normalCdf(x + h) - normalCdf(x - h)) / (2 * h);
      expect(Math.abs(slope - density(x))).toBeLessThan(Math.max(1e-9, 1e-5 * density(x)));
    },
  );

  test.prop([fc.double({ min: -40, max: 40, noNaN: true }), fc.double({ min: -40, max: 40, noNaN: true })])(
    'is non-decreasing and within [0, 1]',
    (a, b) => {
      const [lo, hi] = a <= b ? [a, b] : [b, a];
      expect(normalCdf(lo)).toBeLessThanOrEqual(normalCdf(hi));
      expect(normalCdf(lo)).toBeGreaterThanOrEqual(0);
      expect(normalCdf(hi)).toBeLessThanOrEqual(1);
    },
  );

  it('standardises by mean and std, and handles infinities', () => {
    expect(normalCdf(3, 1, 2)).toBe(normalCdf(1));
    expect(normalCdf(Number.NEGATIVE_INFINITY)).toBe(0);
    expect(normalCdf(Number.POSITIVE_INFINITY)).toBe(1);
  });

  it('rejects NaN and bad parameters, naming them', () => {
    expect(() => normalCdf(Number.NaN)).toThrow(new RangeError('x must be a number, got NaN'));
    expect(() => normalCdf(0, Number.POSITIVE_INFINITY)).toThrow(
      new RangeError('mean must be a finite number, got Infinity'),
    );
    expect(() => normalCdf(0, 0, 0)).toThrow(new RangeError('std must be a finite number > 0, got 0'));
    expect(() => normalCdf(0, 0, -1)).toThrow(new RangeError('std must be a finite number > 0, got -1'));
    expect(() => normalCdf('1' as unknown as number)).toThrow(new TypeError('x must be a number, got "1"'));
  });
});
