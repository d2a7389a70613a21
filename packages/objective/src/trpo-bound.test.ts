import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { trpoBound } from './trpo-bound.js';

describe('trpoBound', () => {
  test.prop([
    fc.double({ min: 0, max: 100, noNaN: true }),
    fc.double({ min: 0, max: 0.99, noNaN: true }),
    fc.double({ min: 0, max: 1, noNaN: true }),
  ])('equals its series Σ_t 4 ε t γ^t α² summed term by term', (epsilon, gamma, alpha) => {
    let series = 0;
    let term = 1;
    // Σ t γ^t converges; 20000 terms leave a tail below 0.99^20000 · 20000 / 0.01² < 1e-75 of the sum.
    for (let t = 1; t < 20000; t++) {
      term *= gamma;
      series += 4 * epsilon * t * term * alpha * alpha;
    }
    const bound = trpoBound(epsilon, gamma, alpha);
    expect(Math.abs(bound - series)).toBeLessThanOrEqual(1e-10 * Math.max(1, bound));
  });

  it('is quadratic in alpha', () => {
    expect(trpoBound(2, 0.9, 0.2)).toBeCloseTo(4 * trpoBound(2, 0.9, 0.1), 12);
    expect(trpoBound(1, 0, 0.5)).toBe(0);
  });

  describe('rejects bad input', () => {
    it('rejects a negative or non-finite epsilon', () => {
      expect(() => trpoBound(-1, 0.9, 0.1)).toThrow(
        /^epsilon must be a finite number in \[0, 1e\+50\], got -1/,
      );
      expect(() => trpoBound(Number.POSITIVE_INFINITY, 0.9, 0.1)).toThrow(/^epsilon must be .* got Infinity/);
    });
    it('rejects gamma outside [0, 1)', () => {
      expect(() => trpoBound(1, 1, 0.1)).toThrow(/^gamma must be a number in \[0, 1\), got 1/);
      expect(() => trpoBound(1, Number.NaN, 0.1)).toThrow(/^gamma must be a number in \[0, 1\), got NaN/);
    });
    it('rejects alpha outside [0, 1]', () => {
      expect(() => trpoBound(1, 0.5, 1.5)).toThrow(/^alpha must be a number in \[0, 1\], got 1.5/);
      expect(() => trpoBound(1, 0.5, -0.1)).toThrow(/^alpha must be a number in \[0, 1\], got -0.1/);
    });
  });
});
