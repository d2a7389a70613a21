import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { importanceWeights } from './importance-weights.js';

const trajectories = fc.array(
  fc.array(
    fc.record({
      current: fc.double({ min: -8, max: 0, noNaN: true }),
      behaviour: fc.double({ min: -8, max: 0, noNaN: true }),
    }),
    { minLength: 0, maxLength: 5 },
  ),
  { minLength: 1, maxLength: 6 },
);

function flatten(ts: { current: number; behaviour: number }[][]) {
  return {
    logProbs: ts.flat().map((s) => s.current),
    behaviourLogProbs: ts.flat().map((s) => s.behaviour),
    lengths: ts.map((t) => t.length),
  };
}

describe('importanceWeights', () => {
  test.prop([trajectories, fc.double({ min: 0.1, max: 10, noNaN: true })])(
    'follows the definitions of w(τ), the ESS and the truncated weights',
    (ts, cap) => {
      const r = importanceWeights(flatten(ts), { truncation: cap });
      const w = ts.map((t) => t.reduce((p, s) => (p * Math.exp(s.current)) / Math.exp(s.behaviour), 1));
      const sum = w.reduce((s, x) => s + x, 0);
      const ess = sum ** 2 / w.reduce((s, x) => s + x * x, 0);
      const tw = w.map((x) => Math.min(x, cap));
      const tsum = tw.reduce((s, x) => s + x, 0);
      const tess = tsum ** 2 / tw.reduce((s, x) => s + x * x, 0);
      ts.forEach((_, k) => {
        expect(Math.exp(r.logWeights[k]!) / w[k]! - 1).toBeCloseTo(0, 12);
        expect(r.normalizedWeights[k]! / (w[k]! / sum) - 1).toBeCloseTo(0, 12);
        expect(r.truncatedWeights[k]! / tw[k]! - 1).toBeCloseTo(0, 12);
      });
      expect(r.ess / ess - 1).toBeCloseTo(0, 12);
      expect(r.truncatedEss / tess - 1).toBeCloseTo(0, 12);
      expect(r.ess).toBeGreaterThanOrEqual(1 - 1e-12);
      expect(r.ess).toBeLessThanOrEqual(ts.length + 1e-12);
    },
  );

  it('gives ESS n for equal weights and 1 when one trajectory dominates', () => {
    const equal = importanceWeights({
      logProbs: [-1, -2, -3],
      behaviourLogProbs: [-1, -2, -3],
      lengths: [1, 1, 1],
    });
    expect(equal.ess).toBe(3);
    const one = importanceWeights({ logProbs: [0, -1000], behaviourLogProbs: [-1000, 0], lengths: [1, 1] });
    expect(one.ess).toBe(1);
  });

  it('stays finite for log-weights of ±1e4 that overflow a direct product', () => {
    const r = importanceWeights(
      { logProbs: [0, -1e4, -5000], behaviourLogProbs: [-1e4, 0, -5000], lengths: [1, 1, 1] },
      { truncation: 2 },
    );
    expect(Array.from(r.logWeights)).toEqual([1e4, -1e4, 0]);
    expect(Array.from(r.normalizedWeights)).toEqual([1, 0, 0]);
    expect(Array.from(r.truncatedWeights)).toEqual([2, 0, 1]);
    expect(r.ess).toBe(1);
    // Truncated weights 2, 0, 1: (2 + 0 + 1)² / (4 + 0 + 1) = 9/5.
    expect(r.truncatedEss).toBeCloseTo(1.8, 14);
  });

  it('gives an empty trajectory the weight 1', () => {
    const r = importanceWeights({ logProbs: [-1], behaviourLogProbs: [-2], lengths: [0, 1] });
    expect(Array.from(r.logWeights)).toEqual([0, 1]);
  });

  it('fills and returns out', () => {
    const out = {};
    const r = importanceWeights({ logProbs: [-1], behaviourLogProbs: [-1], lengths: [1] }, {}, out);
    expect(r).toBe(out);
    expect(r.ess).toBe(1);
  });

  it('gives both ESS of equal tiny weights as the count, without underflow', () => {
    // Two trajectories of weight e^-700 each: ESS = (Σw)² / Σw² = 2 for the weights and for their
    // truncation at 1 (which leaves them). e^-1400 underflows to 0, so the sums must be taken relative to
    // the largest weight.
    const r = importanceWeights({ logProbs: [-700, -700], behaviourLogProbs: [0, 0], lengths: [1, 1] });
    expect(r.ess).toBe(2);
    expect(r.truncatedEss).toBe(2);
  });

  describe('rejects bad input', () => {
    it('rejects input that is not an object', () => {
      expect(() => importanceWeights(0 as never)).toThrow(/^input must be an object, got 0/);
    });
    it('rejects empty or malformed lengths', () => {
      expect(() => importanceWeights({ logProbs: [], behaviourLogProbs: [], lengths: [] })).toThrow(
        /^lengths must be a non-empty array of steps per trajectory, got an array of length 0/,
      );
      expect(() => importanceWeights({ logProbs: [-1], behaviourLogProbs: [-1], lengths: [0.5] })).toThrow(
        /^lengths\[0\] must be an integer >= 0, got 0.5/,
      );
    });
    it('rejects log-probabilities that do not match the lengths or are invalid', () => {
      expect(() => importanceWeights({ logProbs: [-1], behaviourLogProbs: [-1], lengths: [2] })).toThrow(
        /^logProbs.length must be the sum of lengths = 2, got 1/,
      );
      expect(() =>
        importanceWeights({ logProbs: [-1], behaviourLogProbs: [Number.NaN], lengths: [1] }),
      ).toThrow(/^behaviourLogProbs\[0\] must be a log-probability in \[-1e\+50, 0\], got NaN/);
      expect(() => importanceWeights({ logProbs: [1], behaviourLogProbs: [-1], lengths: [1] })).toThrow(
        /^logProbs\[0\] must be a log-probability .* got 1/,
      );
    });
    it('rejects a truncation cap that is not positive and finite', () => {
      const input = { logProbs: [-1], behaviourLogProbs: [-1], lengths: [1] };
      expect(() => importanceWeights(input, { truncation: 0 })).toThrow(
        /^options.truncation must be > 0, got 0/,
      );
      expect(() => importanceWeights(input, { truncation: -1 })).toThrow(
        /^options.truncation must be a finite number in \[0, 1e\+50\], got -1/,
      );
    });
    it('rejects an out buffer of the wrong length', () => {
      const input = { logProbs: [-1], behaviourLogProbs: [-1], lengths: [1] };
      expect(() => importanceWeights(input, {}, { logWeights: new Float64Array(2) })).toThrow(
        /^out.logWeights must be a Float64Array of length 1, got a Float64Array of length 2/,
      );
    });
  });
});
