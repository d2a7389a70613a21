import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { TabularPolicy } from './tabular-policy.js';

describe('TabularPolicy', () => {
  it('starts with the rows it is given, all logits 0', () => {
    const policy = new TabularPolicy(4, 2);
    expect(policy.observations).toBe(2);
    expect(Array.from(policy.parameters)).toEqual(new Array(8).fill(0));
  });

  it('creates rows on first use, zero-initialised, keeping the rows it had', () => {
    const policy = new TabularPolicy(3);
    expect(policy.parameters.length).toBe(0);
    policy.logits(0, new Float64Array(3));
    policy.parameters.set([1, 2, 3]);
    const out = policy.logits(20, new Float64Array(3));
    expect(Array.from(out)).toEqual([0, 0, 0]);
    expect(policy.observations).toBe(21);
    expect(policy.parameters.length).toBe(63);
    expect(Array.from(policy.parameters.subarray(0, 3))).toEqual([1, 2, 3]);
    expect(policy.memoryBytes).toBe(32 * 3 * 8);
  });

  it('reads a snapshot without growing, with rows past its end read as 0', () => {
    const policy = new TabularPolicy(2, 1);
    const snapshot = Float64Array.of(5, 6);
    expect(Array.from(policy.logits(0, new Float64Array(2), 0, snapshot))).toEqual([5, 6]);
    expect(Array.from(policy.logits(3, Float64Array.of(7, 7, 7), 1, snapshot))).toEqual([7, 0, 0]);
    expect(policy.observations).toBe(1);
  });

  test.prop([
    fc.integer({ min: 1, max: 5 }),
    fc.integer({ min: 0, max: 9 }),
    fc.array(fc.double({ min: -5, max: 5, noNaN: true }), { minLength: 5, maxLength: 5 }),
  ])('back-propagates onto its own row only (the Jacobian is the identity there)', (A, o, g) => {
    const policy = new TabularPolicy(A, 10);
    const grad = new Float64Array(policy.parameters.length).fill(1);
    const logitGrad = Float64Array.from([9, ...g]);
    policy.backward(o, logitGrad, 1, grad);
    for (let i = 0; i < grad.length; i++) {
      const row = Math.floor(i / A);
      expect(grad[i]).toBe(row === o ? 1 + g[i % A]! : 1);
    }
  });

  it('refuses a bad shape or observation', () => {
    expect(() => new TabularPolicy(0)).toThrow(/numActions must be an integer >= 1, got 0/);
    expect(() => new TabularPolicy(2, -1)).toThrow(/observations must be an integer >= 0, got -1/);
    expect(() => new TabularPolicy(2).logits(-1, new Float64Array(2))).toThrow(/observation must be/);
    expect(() => new TabularPolicy(2).logits(1.5, new Float64Array(2))).toThrow(/observation must be/);
  });
});
