import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { empiricalDistribution } from './empirical-distribution.js';

describe('empiricalDistribution', () => {
  test.prop([
    fc.integer({ min: 1, max: 6 }).chain((actions) =>
      fc.record({
        actions: fc.constant(actions),
        samples: fc.array(
          fc.record({
            a: fc.integer({ min: 0, max: actions - 1 }),
            w: fc.double({ min: 0.01, max: 5, noNaN: true }),
          }),
          { minLength: 1, maxLength: 12 },
        ),
      }),
    ),
  ])('is the normalised weight of each action', ({ actions, samples }) => {
    const p = empiricalDistribution(
      samples.map((s) => s.a),
      actions,
      samples.map((s) => s.w),
    );
    const total = samples.reduce((s, x) => s + x.w, 0);
    for (let a = 0; a < actions; a++) {
      const mass = samples.filter((s) => s.a === a).reduce((s, x) => s + x.w, 0);
      expect(p[a]).toBeCloseTo(mass / total, 14);
    }
  });

  it('counts unweighted samples and overwrites out', () => {
    const out = new Float64Array([9, 9]);
    expect(empiricalDistribution([1, 1, 0, 1], 2, undefined, out)).toBe(out);
    expect(Array.from(out)).toEqual([0.25, 0.75]);
  });

  describe('rejects bad input', () => {
    it('rejects an empty sample and a bad action count', () => {
      expect(() => empiricalDistribution([], 2)).toThrow(
        /^selected must be a non-empty array of action indices, got an array of length 0/,
      );
      expect(() => empiricalDistribution([0], 0)).toThrow(/^actions must be an integer >= 1, got 0/);
    });
    it('rejects an action out of range', () => {
      expect(() => empiricalDistribution([0, 2], 2)).toThrow(
        /^selected\[1\] must be an integer action index in \[0, 2\), got 2/,
      );
    });
    it('rejects bad weights', () => {
      expect(() => empiricalDistribution([0, 1], 2, [1])).toThrow(/^weights.length must be rows = 2, got 1/);
      expect(() => empiricalDistribution([0, 1], 2, [0, 0])).toThrow(
        /^weights must have a positive sum to average over, got 0/,
      );
      expect(() => empiricalDistribution([0, 1], 2, [1, -1])).toThrow(
        /^weights\[1\] must be a finite number in \[0, 1e\+50\], got -1/,
      );
    });
    it('rejects an out buffer of the wrong length', () => {
      expect(() => empiricalDistribution([0], 2, undefined, new Float64Array(3))).toThrow(
        /^out must be a Float64Array of length 2, got a Float64Array of length 3/,
      );
    });
  });
});
