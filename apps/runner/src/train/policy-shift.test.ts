import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { policyShift } from './policy-shift.js';

function naiveKl(a: number[], b: number[]): number {
  const p = a.map(Math.exp);
  const q = b.map(Math.exp);
  const sp = p.reduce((x, y) => x + y, 0);
  const sq = q.reduce((x, y) => x + y, 0);
  return p.reduce((s, pi, i) => s + (pi / sp) * Math.log(pi / sp / (q[i]! / sq)), 0);
}

describe('policyShift', () => {
  it('is zero for an unchanged policy', () => {
    const z = Float64Array.of(0.3, -1, 2, 0);
    expect(policyShift(z, z.slice(), 2)).toEqual({ meanKl: 0, maxKl: 0 });
  });

  test.prop([fc.array(fc.double({ min: -5, max: 5, noNaN: true }), { minLength: 6, maxLength: 6 }), fc.array(fc.double({ min: -5, max: 5, noNaN: true }), { minLength: 6, maxLength: 6 })])(
    'equals the definition per row, averaged and maximised',
    (a, b) => {
      const shift = policyShift(Float64Array.from(a), Float64Array.from(b), 3);
      const rows = [naiveKl(a.slice(0, 3), b.slice(0, 3)), naiveKl(a.slice(3), b.slice(3))];
      expect(Math.abs(shift.meanKl - (rows[0]! + rows[1]!) / 2)).toBeLessThan(1e-10);
      expect(Math.abs(shift.maxKl - Math.max(...rows))).toBeLessThan(1e-10);
    },
  );
});
