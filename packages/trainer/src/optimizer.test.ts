import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { createOptimizer } from './optimizer.js';

describe('createOptimizer', () => {
  it('takes a plain gradient step with sgd', () => {
    const theta = new Float64Array([0, 1]);
    createOptimizer('sgd', 0.08).step(theta, new Float64Array([-0.5, 0.25]));
    expect(Array.from(theta)).toEqual([0.04, 1 - 0.02]);
  });

  it('moves each coordinate by about lr on the first adam step, whatever the gradient scale', () => {
    const theta = new Float64Array([0, 0]);
    createOptimizer('adam', 0.1).step(theta, new Float64Array([1e-3, -50]));
    // m̂ / √v̂ = g / |g| on the first step; ε = 1e-8 changes the result by at most lr·ε/|g|.
    expect(Math.abs(theta[0]! + 0.1)).toBeLessThan(1e-5);
    expect(Math.abs(theta[1]! - 0.1)).toBeLessThan(1e-9);
  });

  it('minimises a quadratic with adam', () => {
    const theta = new Float64Array([3, -2]);
    const opt = createOptimizer('adam', 0.05);
    for (let i = 0; i < 2000; i++)
      opt.step(theta, new Float64Array([2 * (theta[0]! - 1), 2 * (theta[1]! + 1)]));
    expect(Math.abs(theta[0]! - 1)).toBeLessThan(1e-3);
    expect(Math.abs(theta[1]! + 1)).toBeLessThan(1e-3);
  });

  it('lets parameters join later: a new one takes the first step of a fresh adam', () => {
    const opt = createOptimizer('adam', 0.1);
    const theta = new Float64Array([0]);
    for (let i = 0; i < 50; i++) opt.step(theta, new Float64Array([1]));
    const grown = new Float64Array([theta[0]!, 0, 0]);
    opt.step(grown, new Float64Array([1, -3, 0]));
    // First step of a fresh adam on each new parameter: −lr·sign(g), and 0 for g = 0.
    expect(Math.abs(grown[1]! - 0.1)).toBeLessThan(1e-9);
    expect(grown[2]).toBe(0);
  });

  test.prop(
    [
      fc.array(
        fc.record({
          grow: fc.integer({ min: 0, max: 3 }),
          grad: fc.array(fc.double({ min: -5, max: 5, noNaN: true }), { minLength: 12, maxLength: 12 }),
        }),
        { minLength: 1, maxLength: 150 },
      ),
      fc.double({ min: 1e-3, max: 0.5, noNaN: true }),
    ],
    { numRuns: 60 },
  )(
    'is, for every parameter, the adam of Kingma and Ba (Algorithm 1) from the step it joined, bit for bit',
    (steps, lr) => {
      const opt = createOptimizer('adam', lr);
      let theta = new Float64Array(0);
      // The reference: each parameter's own m, v and step count k, as in the paper.
      const reference: { theta: number; m: number; v: number; k: number }[] = [];
      for (const { grow, grad } of steps) {
        if (theta.length + grow <= 12) {
          const grown = new Float64Array(theta.length + grow);
          grown.set(theta);
          theta = grown;
          for (let j = 0; j < grow; j++) reference.push({ theta: 0, m: 0, v: 0, k: 0 });
        }
        if (theta.length === 0) continue;
        opt.step(theta, Float64Array.from(grad));
        reference.forEach((p, i) => {
          const g = grad[i]!;
          p.k += 1;
          p.m = 0.9 * p.m + (1 - 0.9) * g;
          p.v = 0.999 * p.v + (1 - 0.999) * g * g;
          const mHat = p.m / (1 - 0.9 ** p.k);
          const vHat = p.v / (1 - 0.999 ** p.k);
          p.theta = p.theta - (lr * mHat) / (Math.sqrt(vHat) + 1e-8);
        });
        expect(Array.from(theta)).toEqual(reference.map((p) => p.theta));
      }
    },
  );

  it('steps every parameter with sgd, whatever the length', () => {
    const opt = createOptimizer('sgd', 0.5);
    const theta = new Float64Array([1]);
    opt.step(theta, new Float64Array([2]));
    const grown = new Float64Array([theta[0]!, 1]);
    opt.step(grown, new Float64Array([0, 4]));
    expect(Array.from(grown)).toEqual([0, -1]);
  });
});
