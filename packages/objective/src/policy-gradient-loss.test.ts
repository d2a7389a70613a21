import { test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { type Batch, batch, extremeLogit, maxAbs, moderateLogit } from '../test/arbitraries.js';
import { centralDifferences, gradientMismatch, naiveSoftmax } from '../test/naive.js';
import { type PolicyGradientInput, policyGradientLoss } from './policy-gradient-loss.js';

function inputOf(b: Batch, logits: Float64Array): PolicyGradientInput {
  const input: PolicyGradientInput = {
    logits,
    rows: b.rows,
    actions: b.actions,
    selected: b.selected,
    advantages: b.values,
    normalize: b.normalize,
  };
  if (b.weights !== undefined) input.weights = b.weights;
  return input;
}

describe('policyGradientLoss', () => {
  test.prop([batch(moderateLogit)])(
    'equals −Σ w A log π(a) / Σ w and the mean entropy by definition',
    (b) => {
      const r = policyGradientLoss(inputOf(b, Float64Array.from(b.logits)));
      let loss = 0;
      let total = 0;
      let entropy = 0;
      for (let i = 0; i < b.rows; i++) {
        const pi = naiveSoftmax(b.logits, i * b.actions, b.actions);
        const w = b.weights?.[i] ?? 1;
        loss -= w * b.values[i]! * Math.log(pi[b.selected[i]!]!);
        total += w;
        entropy -= pi.reduce((s, p) => s + p * Math.log(p), 0);
      }
      const expected = b.normalize === 'mean' ? loss / total : loss;
      expect(Math.abs(r.loss - expected)).toBeLessThanOrEqual(1e-12 * (1 + Math.abs(expected)) * 100);
      expect(Math.abs(r.entropy - entropy / b.rows)).toBeLessThanOrEqual(1e-12 * (1 + entropy));
    },
  );

  test.prop([batch(extremeLogit)], { numRuns: 150 })(
    'has the gradient of central finite differences, extreme logits included',
    (b) => {
      const z = Float64Array.from(b.logits);
      const r = policyGradientLoss(inputOf(b, z));
      const h = 1e-4;
      const fd = centralDifferences((x) => policyGradientLoss(inputOf(b, x)).loss, z, h);
      const scale = Math.abs(r.loss) + 3 * (1 + maxAbs(b.weights ?? [1]) * b.rows) * (1 + maxAbs(b.logits));
      expect(gradientMismatch(r.grad, fd, scale, h)).toBe(0);
    },
  );

  it('fills and returns out', () => {
    const out = { grad: new Float64Array(2) };
    const input = { logits: new Float64Array([0, 0]), rows: 1, actions: 2, selected: [1], advantages: [2] };
    const r = policyGradientLoss(input, out);
    expect(r).toBe(out);
    expect(Array.from(out.grad)).toEqual([1, -1]);
    expect(r.loss).toBeCloseTo(2 * Math.LN2, 15);
  });

  describe('rejects bad input', () => {
    const good = (): PolicyGradientInput => ({
      logits: new Float64Array([0, 1, 2, 3]),
      rows: 2,
      actions: 2,
      selected: [0, 1],
      advantages: [1, -1],
    });
    const cases: [string, (i: PolicyGradientInput) => unknown, RegExp][] = [
      ['input that is not an object', () => undefined, /^input must be an object, got undefined/],
      ['a zero row count', (i) => ({ ...i, rows: 0 }), /^rows must be an integer >= 1, got 0/],
      [
        'a logits shape mismatch',
        (i) => ({ ...i, logits: new Float64Array(3) }),
        /^logits.length must equal rows × actions = 4, got 3/,
      ],
      [
        'a non-finite logit',
        (i) => ({ ...i, logits: new Float64Array([0, Number.NaN, 0, 0]) }),
        /^logits\[1\] must be a finite number/,
      ],
      [
        'an action out of range',
        (i) => ({ ...i, selected: [2, 0] }),
        /^selected\[0\] must be an integer action index in \[0, 2\), got 2/,
      ],
      [
        'advantages of the wrong length',
        (i) => ({ ...i, advantages: [1] }),
        /^advantages.length must be rows = 2, got 1/,
      ],
      [
        'a non-finite advantage',
        (i) => ({ ...i, advantages: [1, Number.POSITIVE_INFINITY] }),
        /^advantages\[1\] must be a finite number with \|value\| <= 1e\+50, got Infinity/,
      ],
      [
        'a negative weight',
        (i) => ({ ...i, weights: [1, -2] }),
        /^weights\[1\] must be a finite number in \[0, 1e\+50\], got -2/,
      ],
      [
        'weights summing to zero',
        (i) => ({ ...i, weights: [0, 0] }),
        /^weights must have a positive sum to average over, got 0/,
      ],
      [
        'an unknown normalisation',
        (i) => ({ ...i, normalize: 'median' }),
        /^normalize must be 'mean' or 'sum', got "median"/,
      ],
    ];
    for (const [what, make, message] of cases) {
      it(`rejects ${what}`, () => {
        expect(() => policyGradientLoss(make(good()) as PolicyGradientInput)).toThrow(message);
      });
    }
    it('rejects an out.grad of the wrong length or sharing memory with the logits', () => {
      expect(() => policyGradientLoss(good(), { grad: new Float64Array(3) })).toThrow(
        /^out.grad must be a Float64Array of length 4, got a Float64Array of length 3/,
      );
      const shared = new Float64Array(4);
      expect(() => policyGradientLoss({ ...good(), logits: shared }, { grad: shared })).toThrow(
        /^out.grad must not share memory with logits/,
      );
    });
  });
});
