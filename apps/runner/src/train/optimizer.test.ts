import { describe, expect, it } from 'vitest';
import { createOptimizer } from './optimizer.js';

describe('createOptimizer', () => {
  it('takes a plain gradient step with sgd', () => {
    const theta = new Float64Array([0, 1]);
    createOptimizer('sgd', 0.08, 2).step(theta, new Float64Array([-0.5, 0.25]));
    expect(Array.from(theta)).toEqual([0.04, 1 - 0.02]);
  });

  it('moves each coordinate by about lr on the first adam step, whatever the gradient scale', () => {
    const theta = new Float64Array([0, 0]);
    createOptimizer('adam', 0.1, 2).step(theta, new Float64Array([1e-3, -50]));
    // m̂ / √v̂ = g / |g| on the first step; ε = 1e-8 changes the result by at most lr·ε/|g|.
    expect(Math.abs(theta[0]! + 0.1)).toBeLessThan(1e-5);
    expect(Math.abs(theta[1]! - 0.1)).toBeLessThan(1e-9);
  });

  it('minimises a quadratic with adam', () => {
    const theta = new Float64Array([3, -2]);
    const opt = createOptimizer('adam', 0.05, 2);
    for (let i = 0; i < 2000; i++)
      opt.step(theta, new Float64Array([2 * (theta[0]! - 1), 2 * (theta[1]! + 1)]));
    expect(Math.abs(theta[0]! - 1)).toBeLessThan(1e-3);
    expect(Math.abs(theta[1]! + 1)).toBeLessThan(1e-3);
  });
});
