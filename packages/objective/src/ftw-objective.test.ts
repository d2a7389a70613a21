import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { extremeLogit, moderateLogit } from '../test/arbitraries.js';
import { naiveFtwLoss } from '../test/naive.js';
import { type FtwLossInput, ftwLoss } from './ftw-loss.js';
import { FtwObjective } from './ftw-objective.js';

interface Problem {
  rows: number;
  actions: number;
  logits: number[];
  reference: number[];
  selected: number[];
  weights: number[];
  beta: number;
  kl: 'reverse' | 'forward';
  perRow: boolean;
  normalize: 'mean' | 'sum';
}

function problem(logit: fc.Arbitrary<number>): fc.Arbitrary<Problem> {
  return fc
    .record({ rows: fc.integer({ min: 1, max: 6 }), actions: fc.integer({ min: 1, max: 5 }) })
    .chain(({ rows, actions }) =>
      fc.record({
        rows: fc.constant(rows),
        actions: fc.constant(actions),
        logits: fc.array(logit, { minLength: rows * actions, maxLength: rows * actions }),
        reference: fc.array(logit, { minLength: rows * actions, maxLength: rows * actions }),
        selected: fc.array(fc.integer({ min: 0, max: actions - 1 }), { minLength: rows, maxLength: rows }),
        // A positive first weight keeps Σw > 0, which 'mean' requires.
        weights: fc
          .tuple(
            fc.double({ min: 0.1, max: 5, noNaN: true }),
            fc.array(fc.double({ min: 0, max: 5, noNaN: true }), {
              minLength: rows - 1,
              maxLength: rows - 1,
            }),
          )
          .map(([first, rest]) => [first, ...rest]),
        beta: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 10, noNaN: true })),
        kl: fc.constantFrom('reverse' as const, 'forward' as const),
        perRow: fc.boolean(),
        normalize: fc.constantFrom('mean' as const, 'sum' as const),
      }),
    );
}

/** An objective for the problem, with its rows filled. */
function objectiveOf(p: Problem): FtwObjective {
  const objective = new FtwObjective({
    actions: p.actions,
    beta: p.beta,
    kl: p.kl,
    reference: p.perRow ? 'rows' : 'uniform',
  });
  const rows = objective.rows(p.rows);
  rows.logits.set(p.logits);
  if (p.perRow) rows.reference.set(p.reference);
  rows.selected.set(p.selected);
  rows.weights.set(p.weights);
  return objective;
}

function ftwLossOf(p: Problem): ReturnType<typeof ftwLoss> {
  const input: FtwLossInput = {
    logits: Float64Array.from(p.logits),
    rows: p.rows,
    actions: p.actions,
    selected: p.selected,
    weights: p.weights,
    beta: p.beta,
    kl: p.kl,
    normalize: p.normalize,
  };
  if (p.perRow) input.reference = { logits: Float64Array.from(p.reference) };
  return ftwLoss(input);
}

const FIELDS = ['loss', 'crossEntropy', 'klMean', 'klMax', 'entropy'] as const;

describe('FtwObjective', () => {
  test.prop([problem(moderateLogit)])('equals the definition of the loss on moderate logits', (p) => {
    const r = objectiveOf(p).evaluate(p.rows, p.normalize);
    const naive = naiveFtwLoss({
      logits: p.logits,
      rows: p.rows,
      actions: p.actions,
      selected: p.selected,
      weights: p.weights,
      beta: p.beta,
      kl: p.kl,
      ...(p.perRow ? { ref: p.reference } : {}),
      normalize: p.normalize,
    });
    for (const key of FIELDS) {
      // Sums of a few dozen terms of magnitude up to ~10 · (1 + β): 1e-12 of that scale is a thousand
      // times their rounding error.
      const scale = (1 + Math.abs(naive[key])) * (1 + p.beta) * 10;
      expect(Math.abs(r[key] - naive[key]), key).toBeLessThanOrEqual(1e-12 * scale);
    }
  });

  test.prop([problem(extremeLogit)])('gives the results of ftwLoss on the same rows, bit for bit', (p) => {
    const r = objectiveOf(p).evaluate(p.rows, p.normalize);
    const expected = ftwLossOf(p);
    for (const key of FIELDS) expect(Object.is(r[key], expected[key]), key).toBe(true);
    expect(Array.from(r.grad)).toEqual(Array.from(expected.grad));
  });

  it('keeps its settings and reuses its buffers and result across calls of different sizes', () => {
    const objective = new FtwObjective({ actions: 2, beta: 0.05 });
    const big = objective.rows(20); // grows past the first capacity
    big.logits.fill(0.5);
    big.weights.fill(1);
    const first = objective.evaluate(20);
    const small = objective.rows(3);
    small.logits.set([0, 1, 0, 1, 2, -1]);
    small.selected.set([1, 0, 1]);
    small.weights.set([1, 2, 1]);
    const r = objective.evaluate(3, 'sum');
    expect(r).toBe(first);
    expect(r.grad.length).toBe(6);
    const expected = ftwLoss({
      logits: new Float64Array([0, 1, 0, 1, 2, -1]),
      rows: 3,
      actions: 2,
      selected: [1, 0, 1],
      weights: [1, 2, 1],
      beta: 0.05,
      normalize: 'sum',
    });
    expect(r.loss).toBe(expected.loss);
    expect(Array.from(r.grad)).toEqual(Array.from(expected.grad));
  });

  it('matches the README example', () => {
    const objective = new FtwObjective({ actions: 2, beta: 0.05 });
    const rows = objective.rows(4);
    rows.logits.set([0, 1, 0, 1, 0, 1, 0, 1]);
    rows.selected.set([1, 1, 0, 1]);
    rows.weights.fill(1);
    const r = objective.evaluate(4);
    expect([r.loss.toFixed(6), r.klMean.toFixed(6)]).toEqual(['0.568809', '0.110944']);
  });

  describe('rejects bad input', () => {
    it('in its options', () => {
      expect(() => new FtwObjective(null as never)).toThrow(TypeError);
      expect(() => new FtwObjective({ actions: 0 })).toThrow(/actions must be an integer >= 1, got 0/);
      expect(() => new FtwObjective({ actions: 1.5 })).toThrow(RangeError);
      expect(() => new FtwObjective({ actions: 2, beta: -1 })).toThrow(/beta must be a finite number/);
      expect(() => new FtwObjective({ actions: 2, beta: Number.NaN })).toThrow(/beta/);
      expect(() => new FtwObjective({ actions: 2, kl: 'both' as never })).toThrow(
        /kl must be 'reverse' or 'forward'/,
      );
      expect(() => new FtwObjective({ actions: 2, reference: 'initial' as never })).toThrow(
        /reference must be 'uniform' or 'rows', got .*initial/,
      );
    });

    it('in the row count', () => {
      const objective = new FtwObjective({ actions: 2 });
      expect(() => objective.rows(0)).toThrow(/count must be an integer >= 1, got 0/);
      expect(() => objective.rows(2.5)).toThrow(RangeError);
      expect(() => objective.evaluate(1)).toThrow(/count must be an integer in \[1, 0\]/);
      objective.rows(4).weights.fill(1);
      expect(() => objective.evaluate(9)).toThrow(/count must be an integer in \[1, 8\]/);
      expect(() => objective.evaluate(0)).toThrow(RangeError);
      expect(() => objective.evaluate(2, 'avg' as never)).toThrow(
        /normalize must be 'mean' or 'sum', got .*avg/,
      );
    });

    const cases: [string, (rows: ReturnType<FtwObjective['rows']>) => void, RegExp, 'mean' | 'sum'][] = [
      [
        'a NaN logit',
        (r) => r.logits.set([Number.NaN], 3),
        /rows\.logits\[3\] must be a finite number/,
        'mean',
      ],
      ['a logit above MAX_MAGNITUDE', (r) => r.logits.set([1e51], 0), /rows\.logits\[0\]/, 'mean'],
      [
        'an infinite reference logit',
        (r) => r.reference.set([Number.NEGATIVE_INFINITY], 5),
        /rows\.reference\[5\]/,
        'mean',
      ],
      [
        'a negative action',
        (r) => r.selected.set([-1], 1),
        /rows\.selected\[1\] must be an action index in \[0, 2\), got -1/,
        'mean',
      ],
      ['an action past the last', (r) => r.selected.set([2], 2), /rows\.selected\[2\].*got 2/, 'mean'],
      [
        'a negative weight',
        (r) => r.weights.set([-0.5], 0),
        /rows\.weights\[0\] must be a finite number in \[0, 1e\+50\], got -0.5/,
        'sum',
      ],
      ['a NaN weight', (r) => r.weights.set([Number.NaN], 2), /rows\.weights\[2\]/, 'mean'],
      [
        'weights summing to zero with mean',
        (r) => r.weights.fill(0),
        /rows\.weights must have a positive sum/,
        'mean',
      ],
    ];
    for (const [what, spoil, message, normalize] of cases) {
      it(`rejects ${what}, writing nothing`, () => {
        const objective = new FtwObjective({ actions: 2, beta: 0.1, reference: 'rows' });
        const rows = objective.rows(3);
        rows.logits.set([0, 1, 0.5, -0.5, 2, 0]);
        rows.reference.set([0, 0, 1, 0, 0, 1]);
        rows.selected.set([1, 0, 1]);
        rows.weights.set([1, 1, 1]);
        const before = objective.evaluate(3);
        const grad = Array.from(before.grad);
        const loss = before.loss;
        spoil(rows);
        expect(() => objective.evaluate(3, normalize)).toThrow(message);
        expect(Array.from(before.grad)).toEqual(grad);
        expect(before.loss).toBe(loss);
      });
    }

    it('accepts weights summing to zero with sum (the KL term alone)', () => {
      const objective = new FtwObjective({ actions: 2, beta: 0.1 });
      const rows = objective.rows(2);
      rows.logits.set([0, 1, 0, 1]);
      const r = objective.evaluate(2, 'sum');
      expect(r.crossEntropy).toBe(0);
      expect(r.loss).toBeCloseTo(0.1 * r.klMean, 15);
    });
  });
});
