import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { ActionDistribution } from './action-distribution.js';
import { TabularPolicy } from './tabular-policy.js';

const logitsArb = fc.array(fc.double({ min: -50, max: 50, noNaN: true }), { minLength: 2, maxLength: 6 });

function policyWith(logits: readonly number[]): TabularPolicy {
  const policy = new TabularPolicy(logits.length, 1);
  policy.parameters.set(logits);
  return policy;
}

describe('ActionDistribution', () => {
  test.prop([logitsArb])('is the softmax of the logits, and exp(logProbability) matches it', (logits) => {
    const d = new ActionDistribution(logits.length).of(policyWith(logits), 0);
    const p = d.probabilities;
    expect(Math.abs(p.reduce((a, b) => a + b, 0) - 1)).toBeLessThan(1e-12);
    for (let a = 0; a < logits.length; a++) {
      const naive = Math.exp(logits[a]!) / logits.reduce((s, z) => s + Math.exp(z), 0);
      expect(Math.abs(p[a]! - naive)).toBeLessThanOrEqual(1e-12);
      expect(Math.abs(Math.exp(d.logProbability(a)) - p[a]!)).toBeLessThanOrEqual(1e-12);
    }
  });

  it('keeps log-probabilities finite where probabilities underflow', () => {
    const d = new ActionDistribution(2).of(policyWith([0, -2000]), 0);
    expect(d.probabilities[1]).toBe(0);
    expect(d.logProbability(1)).toBe(-2000);
  });

  test.prop([logitsArb, fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true })])(
    'samples by inverting the CDF: the first action whose cumulative probability exceeds u',
    (logits, u) => {
      const d = new ActionDistribution(logits.length).of(policyWith(logits), 0);
      const p = d.probabilities;
      const a = d.sample(u);
      let before = 0;
      for (let k = 0; k < a; k++) before += p[k]!;
      expect(u).toBeGreaterThanOrEqual(before - 1e-12);
      if (a < logits.length - 1) expect(u).toBeLessThan(before + p[a]! + 1e-12);
    },
  );

  it('reads the right row, or a snapshot', () => {
    const policy = new TabularPolicy(2, 2);
    policy.parameters.set([0, 0, 5, 0]);
    const d = new ActionDistribution(2);
    expect(d.of(policy, 0).probabilities[0]).toBe(0.5);
    expect(d.of(policy, 1).probabilities[0]).toBeCloseTo(1 / (1 + Math.exp(-5)), 15);
    expect(d.of(policy, 1).sample(0.9)).toBe(0);
    expect(d.of(policy, 1, new Float64Array(4)).probabilities[0]).toBe(0.5);
  });
});
