import { fc, test } from '@fast-check/vitest';
import { policyShift } from '@ftw/objective';
import { describe, expect } from 'vitest';
import { createOptimizer } from './optimizer.js';
import { PolicyShiftMeter } from './policy-shift-meter.js';
import { PolicyStep, stepsBlocksOnly } from './policy-step.js';
import { TabularPolicy } from './tabular-policy.js';

const ACTIONS = 2;

/**
 * One iteration: the observations the environment hands out first (the table grows to `known`), then
 * an update on some rows, or none (FTW's warm-up). Few rows against many known give sparse measures,
 * many rows dense ones, so a run moves between the two ways.
 */
const iterationArbitrary = fc.record({
  // Often none, so that a dense measure can follow a sparse one on the same rows.
  grow: fc.oneof(
    { arbitrary: fc.constant(0), weight: 2 },
    { arbitrary: fc.integer({ min: 1, max: 12 }), weight: 1 },
  ),
  update: fc.option(
    fc.integer({ min: 1, max: 10 }).chain((rows) =>
      fc.record({
        // Indices into the known rows (taken modulo their number).
        rows: fc.array(fc.nat(), { minLength: rows, maxLength: rows }),
        logitGrad: fc.array(fc.double({ min: -2, max: 2, noNaN: true }), {
          minLength: rows * ACTIONS,
          maxLength: rows * ACTIONS,
        }),
      }),
    ),
    { nil: null, freq: 4 },
  ),
});

describe('PolicyShiftMeter', () => {
  test.prop(
    [
      fc.array(iterationArbitrary, { minLength: 1, maxLength: 60 }),
      fc.constantFrom('sgd' as const, 'adam' as const),
      fc.integer({ min: 1, max: 6 }),
    ],
    { numRuns: 200 },
  )(
    'gives policyShift of the whole tables before and after each update, bit for bit',
    (iterations, optimizerKind, initialRows) => {
      const policy = new TabularPolicy(ACTIONS, initialRows);
      const optimizer = createOptimizer(optimizerKind, 0.3);
      const step = new PolicyStep(policy, optimizer);
      const meter = new PolicyShiftMeter(policy, stepsBlocksOnly(policy, optimizer));
      let known = initialRows;
      for (const { grow, update } of iterations) {
        known += grow;
        if (grow > 0) policy.logits(Int32Array.of(known - 1), 1, new Float64Array(ACTIONS)); // rows met, at 0
        meter.beforeUpdate(known);
        if (update === null) continue;
        // The reference: the whole table (θ is the logits, one row per observation) before and after.
        const before = Float64Array.from(policy.parameters);
        const observations = Int32Array.from(update.rows, (r) => r % known);
        step.begin();
        step.apply(observations, observations.length, Float64Array.from(update.logitGrad));
        const expected = policyShift(before, Float64Array.from(policy.parameters), ACTIONS);
        const shift = meter.measure(step.moved(), known);
        for (const key of ['klMean', 'klMax', 'tvMean', 'tvMax'] as const) {
          expect(Object.is(shift[key], expected[key]), `${key}: ${shift[key]} against ${expected[key]}`).toBe(
            true,
          );
        }
      }
    },
  );
});
