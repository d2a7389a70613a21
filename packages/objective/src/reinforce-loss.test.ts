import { test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { type Batch, batch, extremeLogit, maxAbs } from '../test/arbitraries.js';
import { centralDifferences, gradientMismatch } from '../test/naive.js';
import { policyGradientLoss } from './policy-gradient-loss.js';
import { type ReinforceInput, reinforceLoss } from './reinforce-loss.js';

function base(b: Batch, logits: Float64Array) {
  return {
    logits,
    rows: b.rows,
    actions: b.actions,
    selected: b.selected,
    normalize: b.normalize,
    ...(b.weights === undefined ? {} : { weights: b.weights }),
  };
}

describe('reinforceLoss', () => {
  test.prop([batch(extremeLogit)])(
    'is the policy-gradient loss with advantages G − b for every baseline kind',
    (b) => {
      const z = Float64Array.from(b.logits);
      const returns = b.values;
      const perRow = b.logProbs;
      const w = b.weights ?? returns.map(() => 1);
      const wsum = w.reduce((s, x) => s + x, 0);
      const mean = returns.reduce((s, g, i) => s + w[i]! * g, 0) / wsum;
      const kinds: [ReinforceInput['baseline'], number[]][] = [
        [undefined, returns.map((g) => g - mean)],
        ['mean', returns.map((g) => g - mean)],
        [0.25, returns.map((g) => g - 0.25)],
        [perRow, returns.map((g, i) => g - perRow[i]!)],
      ];
      for (const [baseline, advantages] of kinds) {
        const input: ReinforceInput = { ...base(b, z), returns };
        if (baseline !== undefined) input.baseline = baseline;
        const r = reinforceLoss(input);
        const p = policyGradientLoss({ ...base(b, z), advantages });
        expect(Math.abs(r.loss - p.loss)).toBeLessThanOrEqual(1e-12 * (1 + Math.abs(p.loss)));
        for (let k = 0; k < z.length; k++) {
          expect(Math.abs(r.grad[k]! - p.grad[k]!)).toBeLessThanOrEqual(1e-13 * (1 + maxAbs(p.grad)));
        }
      }
    },
  );

  test.prop([batch(extremeLogit)], { numRuns: 100 })(
    'has the gradient of central finite differences',
    (b) => {
      const z = Float64Array.from(b.logits);
      const input = (x: Float64Array): ReinforceInput => ({ ...base(b, x), returns: b.values });
      const r = reinforceLoss(input(z));
      const h = 1e-4;
      const fd = centralDifferences((x) => reinforceLoss(input(x)).loss, z, h);
      const scale = Math.abs(r.loss) + 6 * (1 + maxAbs(b.weights ?? [1]) * b.rows) * (1 + maxAbs(b.logits));
      expect(gradientMismatch(r.grad, fd, scale, h)).toBe(0);
    },
  );

  it('makes the weighted advantages sum to zero with the mean baseline', () => {
    // One state, equal logits: the gradient is Σ_i w_i A_i (π − onehot(a_i)) / W, and Σ w_i A_i = 0
    // leaves only −Σ w_i A_i onehot(a_i) / W.
    const r = reinforceLoss({
      logits: new Float64Array([0, 0, 0, 0, 0, 0]),
      rows: 3,
      actions: 2,
      selected: [0, 1, 1],
      returns: [1, 0, 3],
      weights: [1, 2, 1],
    });
    // mean = (1 + 0 + 3)/4 = 1; advantages 0, −1, 2; weighted sum 0 − 2 + 2 = 0.
    const perAction = [0, 0];
    for (let i = 0; i < 3; i++) for (let a = 0; a < 2; a++) perAction[a] = perAction[a]! + r.grad[i * 2 + a]!;
    expect(perAction[0]).toBeCloseTo(0, 15);
    expect(perAction[1]).toBeCloseTo(0, 15);
  });

  it('gives zero loss and gradient, not NaN, when every weight is 0 (normalize sum, mean baseline)', () => {
    // Σw = 0 leaves the weighted mean return undefined; every term is w_i · (G_i − b) · … = 0 whatever b is.
    const r = reinforceLoss({
      logits: new Float64Array([0, 1, 2, 0]),
      rows: 2,
      actions: 2,
      selected: [0, 1],
      returns: [3, -1],
      weights: [0, 0],
      normalize: 'sum',
    });
    expect(r.loss).toBe(0);
    expect(Array.from(r.grad).map(Math.abs)).toEqual([0, 0, 0, 0]);
  });

  describe('rejects bad input', () => {
    const good = (): ReinforceInput => ({
      logits: new Float64Array([0, 1, 2, 3]),
      rows: 2,
      actions: 2,
      selected: [0, 1],
      returns: [1, 0],
    });
    const cases: [string, (i: ReinforceInput) => unknown, RegExp][] = [
      ['input that is not an object', () => 'x', /^input must be an object, got "x"/],
      [
        'returns of the wrong length',
        (i) => ({ ...i, returns: [1, 2, 3] }),
        /^returns.length must be rows = 2, got 3/,
      ],
      [
        'a NaN return',
        (i) => ({ ...i, returns: [Number.NaN, 0] }),
        /^returns\[0\] must be a finite number .* got NaN/,
      ],
      [
        'a non-finite baseline',
        (i) => ({ ...i, baseline: Number.NaN }),
        /^baseline must be a finite number with \|value\| <= 1e\+50, got NaN/,
      ],
      [
        'a baseline of the wrong kind',
        (i) => ({ ...i, baseline: 'median' }),
        /^baseline must be a number, an array of rows numbers or 'mean', got "median"/,
      ],
      [
        'a baseline array of the wrong length',
        (i) => ({ ...i, baseline: [1] }),
        /^baseline.length must be rows = 2, got 1/,
      ],
      [
        'an infinite per-row baseline',
        (i) => ({ ...i, baseline: [0, Number.NEGATIVE_INFINITY] }),
        /^baseline\[1\] must be a finite number .* got -Infinity/,
      ],
      [
        'an action out of range',
        (i) => ({ ...i, selected: [0, 5] }),
        /^selected\[1\] must be an integer action index in \[0, 2\), got 5/,
      ],
      [
        'a zero weight sum',
        (i) => ({ ...i, weights: [0, 0] }),
        /^weights must have a positive sum to average over, got 0/,
      ],
    ];
    for (const [what, make, message] of cases) {
      it(`rejects ${what}`, () => {
        expect(() => reinforceLoss(make(good()) as ReinforceInput)).toThrow(message);
      });
    }
    it('rejects an out.grad of the wrong type', () => {
      expect(() => reinforceLoss(good(), { grad: [0, 0, 0, 0] as unknown as Float64Array })).toThrow(
        /^out.grad must be a Float64Array of length 4, got an array of length 4/,
      );
    });
  });
});
