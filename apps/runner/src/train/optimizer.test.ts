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

  it('steps every parameter with sgd, whatever the length', () => {
    const opt = createOptimizer('sgd', 0.5);
    const theta = new Float64Array([1]);
    opt.step(theta, new Float64Array([2]));
    const grown = new Float64Array([theta[0]!, 1]);
    opt.step(grown, new Float64Array([0, 4]));
    expect(Array.from(grown)).toEqual([0, -1]);
  });
});
