import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { forwardKlProjection } from './forward-kl-projection.js';

const distribution = (n: number) =>
  fc
    .array(fc.oneof(fc.constant(0), fc.double({ min: 1e-3, max: 1, noNaN: true })), {
      minLength: n,
      maxLength: n,
    })
    .filter((v) => v.some((x) => x > 1e-3))
    .map((v) => {
      const s = v.reduce((a, b) => a + b, 0);
      return v.map((x) => x / s);
    });

const cases = fc.integer({ min: 1, max: 6 }).chain((n) =>
  fc.record({
    pHat: distribution(n),
    ref: distribution(n),
    beta: fc.oneof(fc.constant(0), fc.double({ min: 1e-3, max: 50, noNaN: true })),
  }),
);

describe('forwardKlProjection', () => {
  test.prop([cases])('minimises −Σ p̂ log π + β KL(ρ‖π) over the simplex', ({ pHat, ref, beta }) => {
    const star = forwardKlProjection(pHat, ref, beta);
    const objective = (pi: ArrayLike<number>) => {
      let v = 0;
      for (let a = 0; a < pi.length; a++) {
        if (pHat[a]! > 0) v -= pHat[a]! * Math.log(pi[a]!);
        if (beta > 0 && ref[a]! > 0) v += beta * ref[a]! * (Math.log(ref[a]!) - Math.log(pi[a]!));
      }
      return v;
    };
    expect(Math.abs(star.reduce((a, b) => a + b, 0) - 1)).toBeLessThanOrEqual(1e-12);
    // Any other point of the simplex, here mixtures with each vertex, has an objective at least as large.
    const best = objective(star);
    for (let v = 0; v < star.length; v++) {
      const other = Array.from(star, (x, a) => 0.9 * x + (a === v ? 0.1 : 0));
      expect(objective(other)).toBeGreaterThanOrEqual(best - 1e-12 * (1 + Math.abs(best)));
    }
  });

  it('imitates the elites at β = 0 and mixes evenly at β = 1', () => {
    expect(Array.from(forwardKlProjection([0.2, 0.8], [0.5, 0.5], 0))).toEqual([0.2, 0.8]);
    expect(Array.from(forwardKlProjection([1, 0], [0.5, 0.5], 1))).toEqual([0.75, 0.25]);
  });

  it('fills and returns out', () => {
    const out = new Float64Array(2);
    expect(forwardKlProjection([1, 0], [0, 1], 3, out)).toBe(out);
    expect(Array.from(out)).toEqual([0.25, 0.75]);
  });

  describe('rejects bad input', () => {
    it('rejects an empty or missing p̂', () => {
      expect(() => forwardKlProjection([], [], 1)).toThrow(
        /^pHat must be a non-empty probability vector, got an array of length 0/,
      );
    });
    it('rejects vectors that are not distributions', () => {
      expect(() => forwardKlProjection([0.5, 0.6], [0.5, 0.5], 1)).toThrow(
        /^pHat must sum to 1 \(within 0.000001\), got 1.1/,
      );
      expect(() => forwardKlProjection([1, 0], [1.5, -0.5], 1)).toThrow(
        /^piRef\[0\] must be a probability in \[0, 1\], got 1.5/,
      );
      expect(() => forwardKlProjection([1, 0], [Number.NaN, 1], 1)).toThrow(
        /^piRef\[0\] must be a probability in \[0, 1\], got NaN/,
      );
      expect(() => forwardKlProjection([1, 0], 'ab' as unknown as number[], 1)).toThrow(
        /^piRef must be an array or typed array of probabilities, got "ab"/,
      );
    });
    it('rejects vectors of different lengths', () => {
      expect(() => forwardKlProjection([1, 0], [1], 1)).toThrow(/^piRef.length must be 2, got 1/);
    });
    it('rejects a negative or non-finite β', () => {
      expect(() => forwardKlProjection([1], [1], -1)).toThrow(
        /^beta must be a finite number in \[0, 1e\+50\], got -1/,
      );
      expect(() => forwardKlProjection([1], [1], Number.POSITIVE_INFINITY)).toThrow(
        /^beta must be .* got Infinity/,
      );
    });
    it('rejects an out buffer of the wrong length', () => {
      expect(() => forwardKlProjection([1], [1], 1, new Float64Array(2))).toThrow(
        /^out must be a Float64Array of length 1, got a Float64Array of length 2/,
      );
    });
  });
});
