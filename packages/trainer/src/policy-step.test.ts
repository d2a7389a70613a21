import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { createOptimizer } from './optimizer.js';
import type { Policy } from './policy.js';
import { PolicyStep, stepsBlocksOnly } from './policy-step.js';
import { TabularPolicy } from './tabular-policy.js';

const ACTIONS = 3;

/** One `apply`: rows over observations 0..11 (the policy meets them first), their logit gradients. */
const applyArbitrary = fc.integer({ min: 1, max: 6 }).chain((rows) =>
  fc.record({
    observations: fc.array(fc.integer({ min: 0, max: 11 }), { minLength: rows, maxLength: rows }),
    logitGrad: fc.array(fc.double({ min: -3, max: 3, noNaN: true }), {
      minLength: rows * ACTIONS,
      maxLength: rows * ACTIONS,
    }),
  }),
);

/** Updates: each a `begin` and one or more `apply` calls (epochs), the rows the same or not. */
const updatesArbitrary = fc.array(fc.array(applyArbitrary, { minLength: 1, maxLength: 3 }), {
  minLength: 1,
  maxLength: 12,
});

describe('PolicyStep', () => {
  test.prop([updatesArbitrary, fc.double({ min: 1e-3, max: 0.5, noNaN: true })], { numRuns: 150 })(
    'under SGD, moves a tabular θ by −η Σ_rows g_r on the rows’ observations, bit for bit, and lists them',
    (updates, lr) => {
      const policy = new TabularPolicy(ACTIONS);
      const step = new PolicyStep(policy, createOptimizer('sgd', lr));
      expect(stepsBlocksOnly(policy, createOptimizer('sgd', lr))).toBe(true);
      // The reference, from the definitions: ∂L/∂θ sums each row's logit gradient into its observation's
      // row of the table (∂z(o)/∂θ is the identity on row o); SGD subtracts η times it from every entry.
      let reference: number[] = [];
      for (const applies of updates) {
        step.begin();
        const movedRows = new Set<number>();
        let whole = false;
        for (const { observations, logitGrad } of applies) {
          policy.logits(
            Int32Array.from(observations),
            observations.length,
            new Float64Array(observations.length * ACTIONS),
          ); // meets them (rows at 0)
          while (reference.length < policy.parameters.length) reference.push(0);
          const grad = reference.map(() => 0);
          observations.forEach((o, r) => {
            for (let a = 0; a < ACTIONS; a++) grad[o * ACTIONS + a]! += logitGrad[r * ACTIONS + a]!;
          });
          reference = reference.map((theta, i) => theta - lr * grad[i]!);
          for (const o of observations) movedRows.add(o);
          // θ no larger than the rows' blocks is stepped whole.
          if (policy.parameters.length <= observations.length * ACTIONS) whole = true;
          step.apply(Int32Array.from(observations), observations.length, Float64Array.from(logitGrad));
          expect(Array.from(policy.parameters)).toEqual(reference);
        }
        const moved = step.moved();
        if (whole) expect(moved).toBeNull();
        else expect(Array.from(moved ?? [])).toEqual([...movedRows].sort((a, b) => a - b));
      }
    },
  );

  it('steps θ whole and lists nothing under Adam, whose momentum moves parameters without gradient', () => {
    const policy = new TabularPolicy(2);
    policy.logits(Int32Array.of(9), 1, new Float64Array(2));
    const adam = createOptimizer('adam', 0.1);
    expect(stepsBlocksOnly(policy, adam)).toBe(false);
    const step = new PolicyStep(policy, adam);
    step.begin();
    step.apply(Int32Array.of(1), 1, Float64Array.of(1, -1));
    step.begin();
    step.apply(Int32Array.of(2), 1, Float64Array.of(1, -1));
    // Row 1 moves again at the second step (momentum), with no gradient of its own.
    expect(policy.parameters[2]).toBeLessThan(-0.1);
    expect(step.moved()).toBeNull();
  });

  it('steps θ whole and lists nothing for a policy whose parameters are shared between observations', () => {
    // z(o) = (θ₀ · o, θ₁): θ₀ feeds every observation's logits.
    const parameters = new Float64Array(2);
    const shared: Policy = {
      numActions: 2,
      observationSize: 1,
      parameters,
      memoryBytes: 16,
      logits(observations, rows, out, at = parameters) {
        for (let r = 0; r < rows; r++) {
          out[2 * r] = at[0]! * observations[r]!;
          out[2 * r + 1] = at[1]!;
        }
        return out;
      },
      backward(observations, rows, g, grad) {
        for (let r = 0; r < rows; r++) {
          grad[0] = grad[0]! + g[2 * r]! * observations[r]!;
          grad[1] = grad[1]! + g[2 * r + 1]!;
        }
      },
    };
    expect(stepsBlocksOnly(shared, createOptimizer('sgd', 0.5))).toBe(false);
    const step = new PolicyStep(shared, createOptimizer('sgd', 0.5));
    step.begin();
    step.apply(Int32Array.of(3, 1, 2), 3, Float64Array.of(1, 2, -1, 0, 0.5, 1));
    // ∂L/∂θ = (1·3 − 1·1 + 0.5·2, 2 + 0 + 1) = (3, 3).
    expect(Array.from(parameters)).toEqual([-1.5, -1.5]);
    expect(step.moved()).toBeNull();
  });

  it('lists each observation once per update and starts afresh at begin', () => {
    const policy = new TabularPolicy(2, 20);
    const step = new PolicyStep(policy, createOptimizer('sgd', 0.1));
    const g = Float64Array.of(1, -1, 1, -1, 1, -1);
    step.begin();
    step.apply(Int32Array.of(7, 3, 7), 3, g);
    step.apply(Int32Array.of(3, 12, 3), 3, g);
    expect(Array.from(step.moved()!)).toEqual([3, 7, 12]);
    step.begin();
    step.apply(Int32Array.of(5, 5, 5), 3, g);
    expect(Array.from(step.moved()!)).toEqual([5]);
    // Row 5 got three rows' gradients in one step: 3 · (−0.1) · (1, −1).
    expect(Array.from(policy.parameters.subarray(10, 12))).toEqual([-0.1 * 3, 0.1 * 3]);
  });
});
