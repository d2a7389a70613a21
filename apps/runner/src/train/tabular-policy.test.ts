import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { TabularPolicy } from './tabular-policy.js';

const logitsArb = fc.array(fc.double({ min: -50, max: 50, noNaN: true }), { minLength: 2, maxLength: 6 });

describe('TabularPolicy', () => {
  it('starts uniform', () => {
    const policy = new TabularPolicy(2, 4);
    expect(Array.from(policy.probabilities(1))).toEqual([0.25, 0.25, 0.25, 0.25]);
  });

  test.prop([logitsArb])('gives a softmax that sums to 1 and matches exp(logProbability)', (logits) => {
    const policy = new TabularPolicy(1, logits.length);
    policy.logits.set(logits);
    const p = policy.probabilities(0);
    expect(Math.abs(p.reduce((a, b) => a + b, 0) - 1)).toBeLessThan(1e-12);
    for (let a = 0; a < logits.length; a++) {
      const naive = Math.exp(logits[a]!) / logits.reduce((s, z) => s + Math.exp(z), 0);
      expect(Math.abs(p[a]! - naive)).toBeLessThanOrEqual(1e-12);
      expect(Math.abs(Math.exp(policy.logProbability(0, a)) - p[a]!)).toBeLessThanOrEqual(1e-12);
    }
  });

  it('keeps log-probabilities finite where probabilities underflow', () => {
    const policy = new TabularPolicy(1, 2);
    policy.logits.set([0, -2000]);
    expect(policy.probability(0, 1)).toBe(0);
    expect(policy.logProbability(0, 1)).toBe(-2000);
  });

  test.prop([logitsArb, fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true })])(
    'samples by inverting the CDF: the first action whose cumulative probability exceeds u',
    (logits, u) => {
      const policy = new TabularPolicy(1, logits.length);
      policy.logits.set(logits);
      const p = policy.probabilities(0);
      const a = policy.sample(0, u);
      let before = 0;
      for (let k = 0; k < a; k++) before += p[k]!;
      expect(u).toBeGreaterThanOrEqual(before - 1e-12);
      if (a < logits.length - 1) expect(u).toBeLessThan(before + p[a]! + 1e-12);
    },
  );

  it('reads the right row for each observation', () => {
    const policy = new TabularPolicy(2, 2);
    policy.logits.set([0, 0, 5, 0]);
    expect(policy.probability(0, 0)).toBe(0.5);
    expect(policy.probability(1, 0)).toBeCloseTo(1 / (1 + Math.exp(-5)), 15);
    expect(policy.sample(1, 0.9)).toBe(0);
  });
});
