import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { createOptimizer } from './optimizer.js';
import { ParameterSnapshots } from './parameter-snapshots.js';
import { PolicyStep } from './policy-step.js';
import { TabularPolicy } from './tabular-policy.js';

const ACTIONS = 3;

/** One operation of a run: meet new observations, update some rows (SGD or Adam), or release versions. */
const operationArbitrary = fc.oneof(
  fc.record({ kind: fc.constant('grow' as const), rows: fc.integer({ min: 1, max: 5 }) }),
  fc.record({
    kind: fc.constant('update' as const),
    adam: fc.boolean(),
    observations: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
    logitGrad: fc.array(fc.double({ min: -2, max: 2, noNaN: true }), { minLength: 12, maxLength: 12 }),
  }),
  fc.record({ kind: fc.constant('release' as const), back: fc.nat({ max: 4 }) }),
);

describe('ParameterSnapshots', () => {
  test.prop([fc.array(operationArbitrary, { minLength: 1, maxLength: 60 }), fc.integer({ min: 0, max: 6 })], {
    numRuns: 200,
  })(
    'gives at every retained version the θ a whole copy took then, bit for bit',
    (operations, initialRows) => {
      const policy = new TabularPolicy(ACTIONS, initialRows);
      // SGD moves the rows it trains on and lists them; Adam moves the whole table (moved: null).
      const sgd = new PolicyStep(policy, createOptimizer('sgd', 0.3));
      const adam = new PolicyStep(policy, createOptimizer('adam', 0.05));
      const snapshots = new ParameterSnapshots(policy);
      // The definition: a whole copy of θ at each version.
      const copies = new Map<number, Float64Array>([[0, Float64Array.from(policy.parameters)]]);
      let version = 0;
      let oldest = 0;
      const out = new Float64Array(ACTIONS);
      const expected = new Float64Array(ACTIONS);
      for (const operation of operations) {
        if (operation.kind === 'grow') {
          policy.logits(Float64Array.of(policy.observations + operation.rows - 1), 1, out);
        } else if (operation.kind === 'update') {
          if (policy.observations === 0) policy.logits(Float64Array.of(0), 1, out);
          const rows = operation.observations.map((o) => o % policy.observations);
          const step = operation.adam ? adam : sgd;
          step.begin();
          step.apply(Int32Array.from(rows), rows.length, Float64Array.from(operation.logitGrad));
          version++;
          snapshots.record(version, step.moved());
          copies.set(version, Float64Array.from(policy.parameters));
        } else {
          oldest = Math.max(oldest, version - operation.back);
          snapshots.release(oldest);
          for (const v of copies.keys()) if (v < oldest) copies.delete(v);
        }
        expect(snapshots.version).toBe(version);
        for (const [v, copy] of copies) {
          const snapshot = snapshots.at(v);
          // Every row known now and two beyond: rows created after v read as 0 in both.
          for (let o = 0; o < policy.observations + 2; o++) {
            policy.logits(Float64Array.of(o), 1, out, snapshot);
            policy.logits(Float64Array.of(o), 1, expected, copy);
            for (let a = 0; a < ACTIONS; a++) expect(Object.is(out[a], expected[a])).toBe(true);
          }
        }
        for (let v = 0; v < oldest; v++) if (v !== version) expect(() => snapshots.at(v)).toThrow(RangeError);
      }
    },
  );

  it('reuses released buffers: a new version copies only what moved', () => {
    const policy = new TabularPolicy(2, 1000);
    const step = new PolicyStep(policy, createOptimizer('sgd', 0.1));
    const snapshots = new ParameterSnapshots(policy);
    const buffers = new Set<Float64Array>();
    for (let version = 1; version <= 50; version++) {
      step.begin();
      step.apply(Int32Array.of(version % 1000), 1, Float64Array.of(1, -1));
      snapshots.record(version, step.moved());
      snapshots.release(version - 1);
      buffers.add(snapshots.at(version));
      expect(snapshots.at(version - 1)[(version % 1000) * 2]).toBe(0);
      expect(snapshots.at(version)[(version % 1000) * 2]).toBe(-0.1);
    }
    // Two versions retained, at most two spare: a handful of buffers for 50 versions.
    expect(buffers.size).toBeLessThanOrEqual(4);
  });

  it('rejects a version out of order and one not retained', () => {
    const policy = new TabularPolicy(2, 3);
    const snapshots = new ParameterSnapshots(policy);
    expect(() => snapshots.record(2, null)).toThrow(/version must be the next version, 1, got 2/);
    snapshots.record(1, null);
    expect(() => snapshots.release(2)).toThrow(/oldest must be an integer <= the newest version, 1, got 2/);
    expect(() => snapshots.release(0.5)).toThrow(RangeError);
    expect(snapshots.at(0)).toHaveLength(6);
    snapshots.release(1);
    expect(() => snapshots.at(0)).toThrow(/version must be a retained version \(1\), got 0/);
  });
});
