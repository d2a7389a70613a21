import { test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { batch, extremeLogit, moderateLogit } from '../test/arbitraries.js';
import { naiveSoftmax } from '../test/naive.js';
import { logSoftmax } from './log-softmax.js';

describe('logSoftmax', () => {
  test.prop([batch(moderateLogit)])(
    'equals log of the naive softmax on moderate logits',
    ({ rows, actions, logits }) => {
      const lp = logSoftmax(Float64Array.from(logits), rows, actions);
      for (let i = 0; i < rows; i++) {
        const p = naiveSoftmax(logits, i * actions, actions);
        for (let j = 0; j < actions; j++)
          expect(Math.abs(lp[i * actions + j]! - Math.log(p[j]!))).toBeLessThanOrEqual(1e-14);
      }
    },
  );

  test.prop([batch(extremeLogit)])(
    'gives finite rows that sum to one in probability, for any logits',
    ({ rows, actions, logits }) => {
      const lp = logSoftmax(Float64Array.from(logits), rows, actions);
      for (let i = 0; i < rows; i++) {
        let s = 0;
        for (let j = 0; j < actions; j++) {
          const v = lp[i * actions + j]!;
          expect(Number.isFinite(v)).toBe(true);
          expect(v).toBeLessThanOrEqual(0);
          s += Math.exp(v);
        }
        // log π = z − lse is exact up to the rounding of lse, half an ulp of its magnitude (~1e-13 at 1000).
        const m = Math.max(...logits.slice(i * actions, (i + 1) * actions).map(Math.abs));
        expect(Math.abs(s - 1)).toBeLessThanOrEqual(4 * 2 ** -52 * (1 + m) * actions);
      }
    },
  );

  it('keeps the log of an underflowed probability exact', () => {
    expect(Array.from(logSoftmax(new Float64Array([1000, 0, -1000]), 1, 3))).toEqual([0, -1000, -2000]);
    expect(Array.from(logSoftmax(new Float32Array([0, 0]), 1, 2))).toEqual([-Math.LN2, -Math.LN2]);
  });

  it('fills and returns out', () => {
    const out = new Float64Array(2);
    expect(logSoftmax(new Float64Array([0, 0]), 1, 2, out)).toBe(out);
  });

  describe('rejects bad input', () => {
    it('rejects bad shapes and values', () => {
      expect(() => logSoftmax(new Float64Array(2), 0, 2)).toThrow(/^rows must be an integer >= 1, got 0/);
      expect(() => logSoftmax(new Float64Array(2), 1, 3)).toThrow(
        /^logits.length must equal rows × actions = 3, got 2/,
      );
      expect(() => logSoftmax(new Float64Array([0, Number.NaN]), 1, 2)).toThrow(
        /^logits\[1\] must be a finite number/,
      );
      expect(() => logSoftmax([0, 0] as unknown as Float64Array, 1, 2)).toThrow(
        /^logits must be a Float32Array or Float64Array, got an array of length 2/,
      );
    });
    it('rejects an out buffer of the wrong length or sharing memory with the logits', () => {
      expect(() => logSoftmax(new Float64Array(2), 1, 2, new Float64Array(3))).toThrow(
        /^out must be a Float64Array of length 2, got a Float64Array of length 3/,
      );
      const shared = new Float64Array(2);
      expect(() => logSoftmax(shared, 1, 2, shared)).toThrow(/^out must not share memory with logits/);
    });
  });
});
