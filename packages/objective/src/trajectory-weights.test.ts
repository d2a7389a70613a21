import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { ftwLoss } from './ftw-loss.js';
import { trajectoryWeights } from './trajectory-weights.js';

const trajectories = fc
  .array(
    fc.record({
      count: fc.oneof(fc.integer({ min: 0, max: 5 }), fc.double({ min: 0, max: 5, noNaN: true })),
      length: fc.integer({ min: 0, max: 6 }),
    }),
    { minLength: 1, maxLength: 8 },
  )
  .filter((ts) => ts.some((t) => t.count > 0 && t.length > 0));

describe('trajectoryWeights', () => {
  test.prop([trajectories, fc.constantFrom('trajectory' as const, 'step' as const)])(
    'sums to one and follows its definition in trajectory then step order',
    (ts, normalize) => {
      const counts = ts.map((t) => t.count);
      const lengths = ts.map((t) => t.length);
      const w = trajectoryWeights(counts, lengths, { normalize });
      expect(w.length).toBe(lengths.reduce((s, l) => s + l, 0));
      const total = ts.reduce(
        (s, t) => s + (t.length > 0 ? (normalize === 'trajectory' ? t.count : t.count * t.length) : 0),
        0,
      );
      let row = 0;
      let sum = 0;
      for (const t of ts) {
        const expected = normalize === 'trajectory' ? t.count / (t.length * total) : t.count / total;
        for (let s = 0; s < t.length; s++) {
          expect(w[row]).toBeCloseTo(expected, 14);
          sum += w[row++]!;
        }
      }
      expect(Math.abs(sum - 1)).toBeLessThanOrEqual(1e-12);
    },
  );

  it('makes the FTW loss per trajectory the mean over selections of each trajectory’s mean step loss', () => {
    // Trajectory A (2 steps) selected twice, trajectory B (1 step) once; one action of two per step.
    const logits = new Float64Array([0.3, -0.2, 1.1, 0.4, -0.5, 0.9]);
    const selected = [0, 1, 1];
    const ce = [0, 1, 2].map((i) => {
      const a = logits[2 * i]!;
      const b = logits[2 * i + 1]!;
      const lse = Math.log(Math.exp(a) + Math.exp(b));
      return lse - logits[2 * i + selected[i]!]!;
    });
    const perTrajectory = (2 * ((ce[0]! + ce[1]!) / 2) + 1 * ce[2]!) / 3;
    const perStep = (2 * (ce[0]! + ce[1]!) + 1 * ce[2]!) / (2 * 2 + 1 * 1);
    const base = { logits, rows: 3, actions: 2, selected };
    const a = ftwLoss({ ...base, weights: trajectoryWeights([2, 1], [2, 1]) });
    const b = ftwLoss({ ...base, weights: trajectoryWeights([2, 1], [2, 1], { normalize: 'step' }) });
    expect(a.crossEntropy).toBeCloseTo(perTrajectory, 14);
    expect(b.crossEntropy).toBeCloseTo(perStep, 14);
  });

  it('gives zero-length trajectories no rows and zero counts zero weight', () => {
    expect(Array.from(trajectoryWeights([5, 0, 1], [0, 2, 1]))).toEqual([0, 0, 1]);
  });

  it('fills and returns out', () => {
    const out = new Float64Array(3);
    expect(trajectoryWeights([3, 1], [2, 1], undefined, out)).toBe(out);
    expect(Array.from(out)).toEqual([0.375, 0.375, 0.25]);
  });

  describe('rejects bad input', () => {
    it('rejects non-array lengths and counts', () => {
      expect(() => trajectoryWeights([1], 3 as unknown as number[])).toThrow(
        /^lengths must be an array or typed array of step counts, got 3/,
      );
      expect(() => trajectoryWeights(null as unknown as number[], [1])).toThrow(
        /^counts must be an array or typed array of lengths.length, got null/,
      );
    });
    it('rejects a length mismatch', () => {
      expect(() => trajectoryWeights([1, 2], [1])).toThrow(
        /^counts.length must be lengths.length = 1, got 2/,
      );
    });
    it('rejects negative or non-finite counts', () => {
      expect(() => trajectoryWeights([-1], [1])).toThrow(
        /^counts\[0\] must be a finite number in \[0, 1e\+50\], got -1/,
      );
      expect(() => trajectoryWeights([Number.NaN], [1])).toThrow(/^counts\[0\] must be .* got NaN/);
      expect(() => trajectoryWeights([Number.POSITIVE_INFINITY], [1])).toThrow(
        /^counts\[0\] must be .* got Infinity/,
      );
    });
    it('rejects lengths that are not non-negative integers', () => {
      expect(() => trajectoryWeights([1], [1.5])).toThrow(/^lengths\[0\] must be an integer >= 0, got 1.5/);
      expect(() => trajectoryWeights([1], [-1])).toThrow(/^lengths\[0\] must be an integer >= 0, got -1/);
    });
    it('rejects an unknown normalisation', () => {
      expect(() => trajectoryWeights([1], [1], { normalize: 'episode' as 'step' })).toThrow(
        /^options.normalize must be 'trajectory' or 'step', got "episode"/,
      );
    });
    it('rejects a zero total weight', () => {
      expect(() => trajectoryWeights([0, 3], [2, 0])).toThrow(
        /^counts must give a positive total weight over trajectories with at least one step, got 0/,
      );
      expect(() => trajectoryWeights([], [])).toThrow(/^counts must give a positive total weight/);
    });
    it('rejects an out buffer of the wrong length', () => {
      expect(() => trajectoryWeights([1], [2], {}, new Float64Array(3))).toThrow(
        /^out must be a Float64Array of length 2, got a Float64Array of length 3/,
      );
    });
  });
});
