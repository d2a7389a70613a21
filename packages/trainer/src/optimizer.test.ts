import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { createOptimizer, type Optimizer, type OptimizerState } from './optimizer.js';

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

describe('optimiser state', () => {
  /** Steps of a run whose policy grows: gradient k has length lengths[k] (non-decreasing). */
  const run = (opt: Optimizer, theta: Float64Array, grads: readonly number[][]): Float64Array => {
    let params = theta;
    for (const g of grads) {
      if (g.length > params.length) {
        const grown = new Float64Array(g.length);
        grown.set(params);
        params = grown;
      }
      opt.step(params, Float64Array.from(g));
    }
    return params;
  };
  const growingGrads = fc
    .array(fc.array(fc.double({ min: -5, max: 5, noNaN: true }), { minLength: 1, maxLength: 6 }), {
      minLength: 2,
      maxLength: 12,
    })
    .map((gs) => {
      // Lengths never shrink: each gradient is padded to the longest so far (a policy that grew).
      let longest = 0;
      return gs.map((g) => {
        longest = Math.max(longest, g.length);
        return [...g, ...new Array<number>(longest - g.length).fill(0.25)];
      });
    });

  it('resumes bit for bit: save after k steps, go on with a new optimiser from the state', () => {
    fc.assert(
      fc.property(
        growingGrads,
        fc.nat(),
        fc.constantFrom('sgd' as const, 'adam' as const),
        (grads, cut, kind) => {
          const k = cut % (grads.length + 1);
          const whole = run(createOptimizer(kind, 0.01), new Float64Array(0), grads);
          const first = createOptimizer(kind, 0.01);
          const half = run(first, new Float64Array(0), grads.slice(0, k));
          const saved = first.state!();
          expect(saved.steps).toBe(k);
          const resumed = run(createOptimizer(kind, 0.01, saved), Float64Array.from(half), grads.slice(k));
          expect(Array.from(resumed)).toEqual(Array.from(whole));
        },
      ),
      { seed: 40, numRuns: 300 },
    );
  });

  it('gives a copy: stepping on does not change a saved state', () => {
    const opt = createOptimizer('adam', 0.1);
    const theta = new Float64Array(2);
    opt.step(theta, new Float64Array([1, -1]));
    const saved = opt.state!();
    opt.step(theta, new Float64Array([3, 3]));
    expect(saved.steps).toBe(1);
    expect(Array.from(saved.m)).toEqual([(1 - 0.9) * 1, (1 - 0.9) * -1]);
  });

  it('refuses a state of the wrong kind or shape, naming the field', () => {
    const opt = createOptimizer('adam', 0.1);
    const theta = new Float64Array(2);
    opt.step(theta, new Float64Array([1, -1]));
    opt.step(theta, new Float64Array([1, -1]));
    const good = opt.state!();
    expect(() => createOptimizer('sgd', 0.1, good)).toThrow(/state\.kind must be sgd .*got adam/);
    expect(() => createOptimizer('adam', 0.1, { ...good, steps: 1.5 })).toThrow(
      /state\.steps must be an integer/,
    );
    expect(() => createOptimizer('adam', 0.1, { ...good, v: new Float64Array(1) })).toThrow(
      /state\.v must be a Float64Array of length 2 .*got length 1/,
    );
    expect(() => createOptimizer('adam', 0.1, { ...good, m: Float64Array.of(Number.NaN, 0) })).toThrow(
      /state\.m\[0\] must be finite, got NaN/,
    );
    expect(() => createOptimizer('adam', 0.1, { ...good, v: Float64Array.of(0, -1) })).toThrow(
      /state\.v\[1\] must be finite and >= 0, got -1/,
    );
    expect(() => createOptimizer('adam', 0.1, { ...good, born: Float64Array.of(0, 2) })).toThrow(
      /state\.born\[1\] must be an integer in \[0, 2\), got 2/,
    );
    expect(() => createOptimizer('adam', 0.1, null as unknown as OptimizerState)).toThrow(/state must be/);
  });
});
