import { test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { batch, extremeLogit, maxAbs } from '../test/arbitraries.js';
import { centralDifferences, gradientMismatch } from '../test/naive.js';
import { logProbGradToLogits } from './log-prob-grad-to-logits.js';
import { logSoftmax } from './log-softmax.js';

describe('logProbGradToLogits', () => {
  test.prop([batch(extremeLogit)], { numRuns: 150 })(
    'is the gradient of Σ g_i log π_i(a_i) by central finite differences',
    (b) => {
      const z = Float64Array.from(b.logits);
      const f = (x: Float64Array) => {
        const lp = logSoftmax(x, b.rows, b.actions);
        let s = 0;
        for (let i = 0; i < b.rows; i++) s += b.values[i]! * lp[i * b.actions + b.selected[i]!]!;
        return s;
      };
      const g = logProbGradToLogits({
        logits: z,
        rows: b.rows,
        actions: b.actions,
        selected: b.selected,
        gradLogProb: b.values,
      });
      const h = 1e-4;
      const fd = centralDifferences(f, z, h);
      const scale = Math.abs(f(z)) + 3 * b.rows * (1 + maxAbs(b.logits));
      expect(gradientMismatch(g, fd, scale, h)).toBe(0);
    },
  );

  it('fills and returns out', () => {
    const out = new Float64Array(2);
    const g = logProbGradToLogits(
      { logits: new Float64Array([0, 0]), rows: 1, actions: 2, selected: [0], gradLogProb: [1] },
      out,
    );
    expect(g).toBe(out);
    expect(Array.from(g)).toEqual([0.5, -0.5]);
  });

  describe('rejects bad input', () => {
    const good = () => ({
      logits: new Float64Array([0, 1, 2, 3]),
      rows: 2,
      actions: 2,
      selected: [0, 1],
      gradLogProb: [1, 1],
    });
    it('rejects input that is not an object', () => {
      expect(() => logProbGradToLogits(null as never)).toThrow(/^input must be an object, got null/);
    });
    it('rejects a shape mismatch, an action out of range and a non-finite gradient', () => {
      expect(() => logProbGradToLogits({ ...good(), actions: 3 })).toThrow(
        /^logits.length must equal rows × actions = 6, got 4/,
      );
      expect(() => logProbGradToLogits({ ...good(), selected: [0, 2] })).toThrow(
        /^selected\[1\] must be an integer/,
      );
      expect(() => logProbGradToLogits({ ...good(), gradLogProb: [1, Number.NaN] })).toThrow(
        /^gradLogProb\[1\] must be a finite number .* got NaN/,
      );
      expect(() => logProbGradToLogits({ ...good(), gradLogProb: [1] })).toThrow(
        /^gradLogProb.length must be rows = 2, got 1/,
      );
    });
    it('rejects an out buffer that is too short or shares memory with the logits', () => {
      expect(() => logProbGradToLogits(good(), new Float64Array(3))).toThrow(
        /^out must be a Float64Array of length 4, got a Float64Array of length 3/,
      );
      const shared = new Float64Array([0, 1, 2, 3]);
      expect(() => logProbGradToLogits({ ...good(), logits: shared }, shared)).toThrow(
        /^out must not share memory with logits/,
      );
    });
  });
});
