import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { LinearPolicy } from './linear-policy.js';

const value = fc.double({ min: -3, max: 3, noNaN: true });

describe('LinearPolicy', () => {
  test.prop([fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 3 })])(
    'computes z = W x per row, as the definition Σ_f W[a, f] x[f]',
    (A, F, rows) => {
      const policy = new LinearPolicy(A, F);
      policy.parameters.set(Array.from({ length: A * F }, (_, i) => Math.sin(i + 1)));
      const x = Float64Array.from({ length: rows * F }, (_, i) => Math.cos(3 * i));
      const z = policy.logits(x, rows, new Float64Array(rows * A));
      for (let r = 0; r < rows; r++) {
        for (let a = 0; a < A; a++) {
          let expected = 0;
          for (let f = 0; f < F; f++) expected += policy.parameters[a * F + f]! * x[r * F + f]!;
          expect(z[r * A + a]).toBeCloseTo(expected, 12);
        }
      }
    },
  );

  test.prop([
    fc.array(value, { minLength: 6, maxLength: 6 }),
    fc.array(value, { minLength: 6, maxLength: 6 }),
  ])("back-propagates the logits' gradient as finite differences of Σ g·z do", (x, g) => {
    // Two rows of 3 features, 2 actions.
    const policy = new LinearPolicy(2, 3);
    policy.parameters.set([0.3, -0.2, 0.1, 0.5, 0.4, -0.6]);
    const observations = Float64Array.from(x);
    const logitGrad = Float64Array.from(g.slice(0, 4));
    const grad = new Float64Array(6);
    policy.backward(observations, 2, logitGrad, grad);
    const h = 1e-6;
    const objective = (): number =>
      policy.logits(observations, 2, new Float64Array(4)).reduce((s, z, i) => s + z * logitGrad[i]!, 0);
    for (let k = 0; k < 6; k++) {
      const saved = policy.parameters[k]!;
      policy.parameters[k] = saved + h;
      const up = objective();
      policy.parameters[k] = saved - h;
      const down = objective();
      policy.parameters[k] = saved;
      expect(grad[k]).toBeCloseTo((up - down) / (2 * h), 5);
    }
  });

  it('reads a snapshot of W instead of its own', () => {
    const policy = new LinearPolicy(2, 1);
    const z = policy.logits(Float64Array.of(2), 1, new Float64Array(2), Float64Array.of(1, -1));
    expect(Array.from(z)).toEqual([2, -2]);
    expect(Array.from(policy.parameters)).toEqual([0, 0]);
  });

  it('refuses a bad shape, naming it', () => {
    expect(() => new LinearPolicy(0, 2)).toThrow('numActions must be an integer >= 1, got 0');
    expect(() => new LinearPolicy(2, 1.5)).toThrow('features must be an integer >= 1, got 1.5');
  });
});
