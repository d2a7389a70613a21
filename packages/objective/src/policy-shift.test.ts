import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { extremeLogit, moderateLogit } from '../test/arbitraries.js';
import { naiveSoftmax } from '../test/naive.js';
import { policyShift } from './policy-shift.js';

const pairs = (logit: fc.Arbitrary<number>) =>
  fc
    .record({ rows: fc.integer({ min: 1, max: 4 }), actions: fc.integer({ min: 1, max: 5 }) })
    .chain(({ rows, actions }) =>
      fc.record({
        actions: fc.constant(actions),
        before: fc.array(logit, { minLength: rows * actions, maxLength: rows * actions }),
        after: fc.array(logit, { minLength: rows * actions, maxLength: rows * actions }),
      }),
    );

describe('policyShift', () => {
  test.prop([pairs(moderateLogit)])(
    'follows the definitions of KL and total variation',
    ({ actions, before, after }) => {
      const s = policyShift(Float64Array.from(before), Float64Array.from(after), actions);
      const rows = before.length / actions;
      const kls: number[] = [];
      const tvs: number[] = [];
      for (let i = 0; i < rows; i++) {
        const p = naiveSoftmax(before, i * actions, actions);
        const q = naiveSoftmax(after, i * actions, actions);
        kls.push(
          Math.max(
            0,
            p.reduce((s2, pj, j) => s2 + pj * Math.log(pj / q[j]!), 0),
          ),
        );
        tvs.push(0.5 * p.reduce((s2, pj, j) => s2 + Math.abs(pj - q[j]!), 0));
      }
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      expect(Math.abs(s.klMean - mean(kls))).toBeLessThanOrEqual(1e-12);
      expect(Math.abs(s.klMax - Math.max(...kls))).toBeLessThanOrEqual(1e-12);
      expect(Math.abs(s.tvMean - mean(tvs))).toBeLessThanOrEqual(1e-14);
      expect(Math.abs(s.tvMax - Math.max(...tvs))).toBeLessThanOrEqual(1e-14);
    },
  );

  test.prop([pairs(extremeLogit)])(
    'obeys Pinsker TV <= sqrt(KL/2), stays finite and in range',
    ({ actions, before, after }) => {
      const s = policyShift(Float64Array.from(before), Float64Array.from(after), actions);
      for (const v of [s.klMean, s.klMax, s.tvMean, s.tvMax]) expect(Number.isFinite(v)).toBe(true);
      expect(s.tvMax).toBeLessThanOrEqual(1);
      expect(s.klMean).toBeLessThanOrEqual(s.klMax);
      // Pinsker per row implies it for the maxima (TV is increasing in KL through sqrt(KL/2)). It is tight
      // for small shifts, so rounding matters: each log-probability z − lse is exact to a few ulps of
      // max|z|, which moves KL and TV by up to δ = 8 · 2^-52 · (1 + max|z|) · actions.
      const m = Math.max(...before.map(Math.abs), ...after.map(Math.abs));
      const delta = 8 * 2 ** -52 * (1 + m) * actions;
      expect(s.tvMax).toBeLessThanOrEqual(Math.sqrt((s.klMax + delta) / 2) + delta);
    },
  );

  it('is zero for identical policies and invariant to a constant shift of a row', () => {
    const a = new Float64Array([1, 2, 3, -1000, 0, 1000]);
    const b = Float64Array.from(a, (v, k) => (k < 3 ? v + 5 : v - 7));
    const s = policyShift(a, b, 3);
    expect(s.klMax).toBeLessThanOrEqual(1e-15);
    expect(s.tvMax).toBeLessThanOrEqual(1e-15);
  });

  it('fills and returns out', () => {
    const out = {};
    const s = policyShift(new Float64Array([0, 0]), new Float64Array([Math.log(3), 0]), 2, out);
    expect(s).toBe(out);
    expect(s.tvMax).toBeCloseTo(0.25, 15);
  });

  describe('rejects bad input', () => {
    it('rejects a non-integer action count', () => {
      expect(() => policyShift(new Float64Array(2), new Float64Array(2), 0)).toThrow(
        /^actions must be an integer >= 1, got 0/,
      );
    });
    it('rejects arrays of the wrong type', () => {
      expect(() => policyShift([0, 0] as unknown as Float64Array, new Float64Array(2), 2)).toThrow(
        /^before must be a Float32Array or Float64Array, got an array of length 2/,
      );
      expect(() => policyShift(new Float64Array(2), null as unknown as Float64Array, 2)).toThrow(
        /^after must be a Float32Array or Float64Array, got null/,
      );
    });
    it('rejects lengths that are not a positive multiple of actions or differ', () => {
      expect(() => policyShift(new Float64Array(3), new Float64Array(3), 2)).toThrow(
        /^before.length must be a positive multiple of actions = 2, got 3/,
      );
      expect(() => policyShift(new Float64Array(0), new Float64Array(0), 2)).toThrow(
        /^before.length must be a positive multiple/,
      );
      expect(() => policyShift(new Float64Array(2), new Float64Array(4), 2)).toThrow(
        /^after.length must equal before.length = 2, got 4/,
      );
    });
    it('rejects non-finite logits', () => {
      expect(() =>
        policyShift(new Float64Array([0, Number.POSITIVE_INFINITY]), new Float64Array(2), 2),
      ).toThrow(/^before\[1\] must be a finite number .* got Infinity/);
      expect(() => policyShift(new Float64Array(2), new Float64Array([Number.NaN, 0]), 2)).toThrow(
        /^after\[0\] must be a finite number .* got NaN/,
      );
    });
  });
});
