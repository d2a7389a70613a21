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

  test.prop([
    pairs(extremeLogit),
    fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
    fc.array(fc.nat({ max: 3 }), { minLength: 4, maxLength: 4 }),
  ])(
    'with totalRows, counts the rows left out as unmoved: the whole tables’ results, bit for bit',
    ({ actions, before, after }, moved, extra) => {
      // The whole tables: each generated row moved or not (after = before), with unmoved rows between
      // them; the call on the moved rows alone, in the tables' order, must give the same bits.
      const given = before.length / actions;
      const wholeBefore: number[] = [];
      const wholeAfter: number[] = [];
      const partBefore: number[] = [];
      const partAfter: number[] = [];
      for (let i = 0; i < given; i++) {
        const p = before.slice(i * actions, (i + 1) * actions);
        const q = moved[i] ? after.slice(i * actions, (i + 1) * actions) : p;
        for (let k = 0; k < extra[i]!; k++) {
          const still = p.map((v) => v / (k + 2));
          wholeBefore.push(...still);
          wholeAfter.push(...still);
        }
        wholeBefore.push(...p);
        wholeAfter.push(...q);
        if (moved[i]) {
          partBefore.push(...p);
          partAfter.push(...q);
        }
      }
      const totalRows = wholeBefore.length / actions;
      const whole = policyShift(Float64Array.from(wholeBefore), Float64Array.from(wholeAfter), actions);
      // No row moved: nothing to give; the shift is then 0 by definition.
      const part =
        partBefore.length === 0
          ? { klMean: 0, klMax: 0, tvMean: 0, tvMax: 0 }
          : policyShift(Float64Array.from(partBefore), Float64Array.from(partAfter), actions, {}, totalRows);
      for (const key of ['klMean', 'klMax', 'tvMean', 'tvMax'] as const) {
        expect(Object.is(part[key], whole[key]), `${key}: ${part[key]} against ${whole[key]}`).toBe(true);
      }
    },
  );

  it('divides the means by totalRows', () => {
    const before = new Float64Array([0, 0]);
    const after = new Float64Array([Math.log(3), 0]);
    const one = policyShift(before, after, 2);
    const ofFour = policyShift(before, after, 2, {}, 4);
    expect(ofFour.klMean).toBe(one.klMean / 4);
    expect(ofFour.tvMean).toBe(0.25 / 4);
    expect(ofFour.klMax).toBe(one.klMax);
    expect(ofFour.tvMax).toBe(one.tvMax);
  });

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
    it('rejects a totalRows that is not an integer at least the rows given', () => {
      const two = new Float64Array(4);
      expect(() => policyShift(two, two, 2, undefined, 1)).toThrow(
        /^totalRows must be an integer >= 2, got 1/,
      );
      expect(() => policyShift(two, two, 2, undefined, 2.5)).toThrow(
        /^totalRows must be an integer >= 2, got 2.5/,
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
