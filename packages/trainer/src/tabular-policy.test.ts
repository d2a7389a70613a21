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
    policy.logits(Int32Array.of(0), 1, new Float64Array(3));
    policy.parameters.set([1, 2, 3]);
    const out = policy.logits(Int32Array.of(20), 1, new Float64Array(3));
    expect(Array.from(out)).toEqual([0, 0, 0]);
    expect(policy.observations).toBe(21);
    expect(policy.parameters.length).toBe(63);
    expect(Array.from(policy.parameters.subarray(0, 3))).toEqual([1, 2, 3]);
    expect(policy.memoryBytes).toBe(32 * 3 * 8);
  });

  it('reads a snapshot without growing, with rows past its end read as 0', () => {
    const policy = new TabularPolicy(2, 1);
    const snapshot = Float64Array.of(5, 6);
    expect(Array.from(policy.logits(Int32Array.of(0), 1, new Float64Array(2), snapshot))).toEqual([5, 6]);
    const out = Float64Array.of(7, 7, 7, 7);
    expect(Array.from(policy.logits(Float64Array.of(3, 0), 2, out, snapshot))).toEqual([0, 0, 5, 6]);
    expect(policy.observations).toBe(1);
  });

  test.prop([
    fc.integer({ min: 1, max: 5 }),
    fc.integer({ min: 0, max: 9 }),
    fc.array(fc.double({ min: -5, max: 5, noNaN: true }), { minLength: 5, maxLength: 5 }),
  ])('back-propagates onto its own row only (the Jacobian is the identity there)', (A, o, g) => {
    const policy = new TabularPolicy(A, 10);
    const grad = new Float64Array(policy.parameters.length).fill(1);
    const logitGrad = Float64Array.from(g.slice(0, A));
    policy.backward(Int32Array.of(o), 1, logitGrad, grad);
    for (let i = 0; i < grad.length; i++) {
      const row = Math.floor(i / A);
      expect(grad[i]).toBe(row === o ? 1 + g[i % A]! : 1);
    }
  });

  it('adds the gradients of rows that share an id, in order', () => {
    const policy = new TabularPolicy(2, 2);
    const grad = new Float64Array(4);
    policy.backward(Int32Array.of(1, 0, 1), 3, Float64Array.of(1, 2, 3, 4, 5, 6), grad);
    expect(Array.from(grad)).toEqual([3, 4, 6, 8]);
  });

  it('refuses a bad shape or observation', () => {
    expect(() => new TabularPolicy(0)).toThrow(/numActions must be an integer >= 1, got 0/);
    expect(() => new TabularPolicy(2, -1)).toThrow(/observations must be an integer >= 0, got -1/);
    const one = (o: number) => () => new TabularPolicy(2).logits(Float64Array.of(o), 1, new Float64Array(2));
    expect(one(-1)).toThrow(/observation must be an integer >= 0, got -1/);
    expect(one(1.5)).toThrow(/observation must be an integer >= 0, got 1.5/);
    expect(one(Number.NaN)).toThrow(/observation must be an integer >= 0, got NaN/);
  });
});
