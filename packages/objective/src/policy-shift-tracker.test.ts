import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { extremeLogit, moderateLogit } from '../test/arbitraries.js';
import { naiveSoftmax } from '../test/naive.js';
import { policyShift } from './policy-shift.js';
import { PolicyShiftTracker } from './policy-shift-tracker.js';

/** Successive versions of a policy of `rows × actions` logits. */
const versions = (logit: fc.Arbitrary<number>) =>
  fc
    .record({ rows: fc.integer({ min: 1, max: 4 }), actions: fc.integer({ min: 1, max: 5 }) })
    .chain(({ rows, actions }) =>
      fc.record({
        rows: fc.constant(rows),
        actions: fc.constant(actions),
        tables: fc.array(fc.array(logit, { minLength: rows * actions, maxLength: rows * actions }), {
          minLength: 2,
          maxLength: 5,
        }),
      }),
    );

/**
 * Versions in which rows often stay as they were (each row of each later version is, at random, the
 * previous version's row copied or new values): the rows a tabular update does not touch.
 */
const versionsKeepingRows = (logit: fc.Arbitrary<number>) =>
  versions(logit).chain(({ rows, actions, tables }) =>
    fc
      .array(fc.array(fc.boolean(), { minLength: rows, maxLength: rows }), {
        minLength: tables.length,
        maxLength: tables.length,
      })
      .map((keep) => {
        const kept = tables.map((table) => [...table]);
        for (let k = 1; k < kept.length; k++) {
          for (let i = 0; i < rows; i++) {
            if (!keep[k]![i]) continue;
            for (let j = i * actions; j < (i + 1) * actions; j++) kept[k]![j] = kept[k - 1]![j]!;
          }
        }
        return { rows, actions, tables: kept };
      }),
  );

/** The tracker's shifts along the versions, the first one started. */
function track(rows: number, actions: number, tables: number[][]) {
  const tracker = new PolicyShiftTracker(actions);
  tracker.logits(rows).set(tables[0]!);
  tracker.start(rows);
  return tables.slice(1).map((table) => {
    tracker.logits(rows).set(table);
    return { ...tracker.measure(rows) };
  });
}

describe('PolicyShiftTracker', () => {
  test.prop([versions(moderateLogit)])(
    'follows the definitions of KL and total variation at every step',
    ({ rows, actions, tables }) => {
      const shifts = track(rows, actions, tables);
      shifts.forEach((s, k) => {
        const kls: number[] = [];
        const tvs: number[] = [];
        for (let i = 0; i < rows; i++) {
          const p = naiveSoftmax(tables[k]!, i * actions, actions);
          const q = naiveSoftmax(tables[k + 1]!, i * actions, actions);
          kls.push(
            Math.max(
              0,
              p.reduce((sum, pj, j) => sum + pj * Math.log(pj / q[j]!), 0),
            ),
          );
          tvs.push(0.5 * p.reduce((sum, pj, j) => sum + Math.abs(pj - q[j]!), 0));
        }
        const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
        expect(Math.abs(s.klMean - mean(kls))).toBeLessThanOrEqual(1e-12);
        expect(Math.abs(s.klMax - Math.max(...kls))).toBeLessThanOrEqual(1e-12);
        expect(Math.abs(s.tvMean - mean(tvs))).toBeLessThanOrEqual(1e-14);
        expect(Math.abs(s.tvMax - Math.max(...tvs))).toBeLessThanOrEqual(1e-14);
      });
    },
  );

  test.prop(
    [fc.oneof(versions(extremeLogit), versionsKeepingRows(extremeLogit), versionsKeepingRows(moderateLogit))],
    { numRuns: 300 },
  )(
    "gives policyShift's results between each two successive versions, bit for bit, rows changed or kept",
    ({ rows, actions, tables }) => {
      const shifts = track(rows, actions, tables);
      shifts.forEach((s, k) => {
        expect(s).toEqual(
          policyShift(Float64Array.from(tables[k]!), Float64Array.from(tables[k + 1]!), actions),
        );
      });
    },
  );

  test.prop([
    fc.integer({ min: 1, max: 4 }).chain((actions) =>
      fc.record({
        actions: fc.constant(actions),
        phases: fc.array(
          fc.record({
            rows: fc.integer({ min: 1, max: 6 }),
            fresh: fc.array(fc.array(moderateLogit, { minLength: actions, maxLength: actions }), {
              minLength: 12,
              maxLength: 12,
            }),
            keepBefore: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
            keepAfter: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
          }),
          { minLength: 1, maxLength: 5 },
        ),
      }),
    ),
  ])(
    'starting again with more or fewer rows, the rows it had kept as they were, still gives policyShift bit for bit',
    ({ actions, phases }) => {
      const tracker = new PolicyShiftTracker(actions);
      let last: number[] = [];
      for (const { rows, fresh, keepBefore, keepAfter } of phases) {
        // A restart: each row is the last version's (when it had one and keepBefore says so) or new.
        const before = Array.from({ length: rows }, (_, i) =>
          keepBefore[i] && i * actions < last.length ? last.slice(i * actions, (i + 1) * actions) : fresh[i]!,
        ).flat();
        const after = Array.from({ length: rows }, (_, i) =>
          keepAfter[i] ? before.slice(i * actions, (i + 1) * actions) : fresh[6 + i]!,
        ).flat();
        tracker.logits(rows).set(before);
        tracker.start(rows);
        tracker.logits(rows).set(after);
        expect({ ...tracker.measure(rows) }).toEqual(
          policyShift(Float64Array.from(before), Float64Array.from(after), actions),
        );
        last = after;
      }
    },
  );

  it('starts again after any number of measured versions, odd or even, and after a start', () => {
    // start and measure each make the written logits current (they swap two buffers), so a restart
    // after an odd number of them reads the other buffer than a restart after an even number. Expected
    // shifts: the definitions, KL = Σ p log(p/q) and TV = ½ Σ |p − q|, with naive softmax.
    const actions = 3;
    const table = (rows: number, seed: number) =>
      Array.from({ length: rows * actions }, (_, k) => Math.sin(seed * 7.1 + k * 1.3) * 2);
    const naive = (before: number[], after: number[]) => {
      const kls: number[] = [];
      const tvs: number[] = [];
      for (let i = 0; i < before.length / actions; i++) {
        const p = naiveSoftmax(before, i * actions, actions);
        const q = naiveSoftmax(after, i * actions, actions);
        kls.push(p.reduce((s, pj, j) => s + pj * Math.log(pj / q[j]!), 0));
        tvs.push(0.5 * p.reduce((s, pj, j) => s + Math.abs(pj - q[j]!), 0));
      }
      return { kls, tvs };
    };
    for (let measures = 0; measures <= 3; measures++) {
      for (const restartRows of [1, 2, 3]) {
        const tracker = new PolicyShiftTracker(actions);
        let seed = 1;
        tracker.logits(2).set(table(2, seed));
        tracker.start(2);
        for (let k = 0; k < measures; k++) {
          tracker.logits(2).set(table(2, ++seed));
          tracker.measure(2);
        }
        // The restart keeps no row as it was (each is new), then one version is measured.
        const before = table(restartRows, ++seed);
        const after = table(restartRows, ++seed);
        tracker.logits(restartRows).set(before);
        tracker.start(restartRows);
        tracker.logits(restartRows).set(after);
        const s = tracker.measure(restartRows);
        const { kls, tvs } = naive(before, after);
        const what = `${measures} measures, restart with ${restartRows} rows`;
        expect(Math.abs(s.klMean - kls.reduce((a, b) => a + b, 0) / restartRows), what).toBeLessThan(1e-12);
        expect(Math.abs(s.klMax - Math.max(...kls)), what).toBeLessThan(1e-12);
        expect(Math.abs(s.tvMean - tvs.reduce((a, b) => a + b, 0) / restartRows), what).toBeLessThan(1e-14);
        expect(Math.abs(s.tvMax - Math.max(...tvs)), what).toBeLessThan(1e-14);
      }
    }
  });

  it('starts again when the number of rows changes, and fills and returns out', () => {
    const tracker = new PolicyShiftTracker(2);
    expect(tracker.rows).toBe(0);
    tracker.logits(1).set([0, 0]);
    tracker.start(1);
    expect(tracker.rows).toBe(1);
    tracker.logits(1).set([Math.log(3), 0]);
    const out = { klMean: -1, klMax: -1, tvMean: -1, tvMax: -1 };
    expect(tracker.measure(1, out)).toBe(out);
    expect([out.klMean.toFixed(4), out.tvMax]).toEqual(['0.1438', 0.25]);
    // Six rows: more than the buffers held, so the current version is forgotten.
    const grown = tracker.logits(6);
    expect(tracker.rows).toBe(0);
    grown.set([0, 0, 1, 0, 0, 1, 2, 2, -1, 0, 0, 0]);
    tracker.start(6);
    tracker.logits(6).set([0, 0, 1, 0, 0, 1, 2, 2, -1, 0, 0, 5]);
    const s = tracker.measure(6);
    const expected = policyShift(
      new Float64Array([0, 0, 1, 0, 0, 1, 2, 2, -1, 0, 0, 0]),
      new Float64Array([0, 0, 1, 0, 0, 1, 2, 2, -1, 0, 0, 5]),
      2,
    );
    expect(s).toEqual(expected);
  });

  describe('rejects bad input', () => {
    it('in the number of actions and rows', () => {
      expect(() => new PolicyShiftTracker(0)).toThrow(/actions must be an integer >= 1, got 0/);
      expect(() => new PolicyShiftTracker(1.5)).toThrow(RangeError);
      const tracker = new PolicyShiftTracker(2);
      expect(() => tracker.logits(0)).toThrow(/rows must be an integer >= 1, got 0/);
      expect(() => tracker.start(1)).toThrow(/rows must be an integer in \[1, 0\]/);
      tracker.logits(2).set([0, 1, 1, 0]);
      expect(() => tracker.measure(2)).toThrow(/rows must be the current version's, 0 \(call start first/);
      tracker.start(2);
      tracker.logits(1).set([0, 0]);
      expect(() => tracker.measure(1)).toThrow(/rows must be the current version's, 2 .*got 1/);
    });

    it('rejects a logit that is not finite or too large, keeping the current version', () => {
      const tracker = new PolicyShiftTracker(2);
      tracker.logits(2).set([0, 1, 1, 0]);
      expect(() => tracker.start(2)).not.toThrow();
      tracker.logits(2).set([0, 1, Number.NaN, 0]);
      expect(() => tracker.measure(2)).toThrow(/logits\[2\] must be a finite number/);
      tracker.logits(2).set([0, 1, 1e51, 0]);
      expect(() => tracker.measure(2)).toThrow(/logits\[2\]/);
      tracker.logits(2).set([0, 2, 1, 0]);
      const s = tracker.measure(2);
      expect(s).toEqual(policyShift(new Float64Array([0, 1, 1, 0]), new Float64Array([0, 2, 1, 0]), 2));
      tracker.logits(2).set([Number.POSITIVE_INFINITY, 0, 0, 0]);
      expect(() => tracker.start(2)).toThrow(/logits\[0\]/);
      expect(tracker.rows).toBe(2);
    });
  });
});
