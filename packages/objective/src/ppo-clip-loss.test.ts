import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { type Batch, batch, extremeLogit, maxAbs, moderateLogit } from '../test/arbitraries.js';
import { centralDifferences, gradientMismatch, naiveSoftmax } from '../test/naive.js';
import { logSoftmax } from './log-softmax.js';
import { ObjectiveError } from './objective-error.js';
import { policyGradientLoss } from './policy-gradient-loss.js';
import { type PpoClipInput, ppoClipLoss } from './ppo-clip-loss.js';

function inputOf(b: Batch, logits: Float64Array, behaviour: ArrayLike<number>, clip: number): PpoClipInput {
  const input: PpoClipInput = {
    logits,
    rows: b.rows,
    actions: b.actions,
    selected: b.selected,
    behaviourLogProbs: behaviour,
    advantages: b.values,
    clip,
    normalize: b.normalize,
  };
  if (b.weights !== undefined) input.weights = b.weights;
  return input;
}

/** log π_i(a_i) of the current policy. */
function takenLogProbs(b: Batch, logits: Float64Array): number[] {
  const lp = logSoftmax(logits, b.rows, b.actions);
  return b.selected.map((a, i) => lp[i * b.actions + a]!);
}

const clipRange = fc.double({ min: 0.05, max: 0.5, noNaN: true });

describe('ppoClipLoss', () => {
  test.prop([batch(extremeLogit), clipRange])(
    'has the policy-gradient gradient and loss −Σ w A / Σ w when the policies coincide',
    (b, clip) => {
      const z = Float64Array.from(b.logits);
      const behaviour = takenLogProbs(b, z);
      const r = ppoClipLoss(inputOf(b, z, behaviour, clip));
      const p = policyGradientLoss({ ...inputOf(b, z, behaviour, clip), advantages: b.values });
      for (let k = 0; k < z.length; k++) {
        expect(Math.abs(r.grad[k]! - p.grad[k]!)).toBeLessThanOrEqual(1e-13 * (1 + maxAbs(p.grad)));
      }
      const w = b.weights ?? b.values.map(() => 1);
      const sum = b.values.reduce((s, a, i) => s + w[i]! * a, 0);
      const expected = -(b.normalize === 'mean' ? sum / w.reduce((s, x) => s + x, 0) : sum);
      expect(Math.abs(r.loss - expected)).toBeLessThanOrEqual(1e-12 * (1 + Math.abs(expected)));
      expect(r.clipFraction).toBe(0);
      expect(r.approxKl).toBeLessThanOrEqual(1e-15);
    },
  );

  test.prop([batch(moderateLogit), clipRange])(
    'equals −Σ w min(rA, clip(r)A) / Σ w by definition',
    (b, clip) => {
      const z = Float64Array.from(b.logits);
      const r = ppoClipLoss(inputOf(b, z, b.logProbs, clip));
      const current = takenLogProbs(b, z);
      let loss = 0;
      let total = 0;
      let clipped = 0;
      let kl = 0;
      let entropy = 0;
      for (let i = 0; i < b.rows; i++) {
        const ratio = Math.exp(current[i]! - b.logProbs[i]!);
        const a = b.values[i]!;
        const w = b.weights?.[i] ?? 1;
        loss -= w * Math.min(ratio * a, Math.min(Math.max(ratio, 1 - clip), 1 + clip) * a);
        total += w;
        if (Math.abs(ratio - 1) > clip) clipped++;
        kl += ratio - 1 - Math.log(ratio);
        entropy -= naiveSoftmax(z, i * b.actions, b.actions).reduce((s, p) => s + p * Math.log(p), 0);
      }
      const expected = b.normalize === 'mean' ? loss / total : loss;
      expect(Math.abs(r.loss - expected)).toBeLessThanOrEqual(1e-12 * (1 + Math.abs(expected)) * 1e3);
      expect(r.clipFraction).toBe(clipped / b.rows);
      expect(Math.abs(r.approxKl - kl / b.rows)).toBeLessThanOrEqual(1e-12 * (1 + kl));
      // Mean entropy −Σ π log π of at most 5 actions (≤ log 5): rounding is far below 1e-12.
      expect(Math.abs(r.entropy - entropy / b.rows)).toBeLessThanOrEqual(1e-12);
    },
  );

  test.prop([batch(extremeLogit), clipRange], { numRuns: 150 })(
    'has the gradient of central finite differences away from the clip kinks',
    (b, clip) => {
      const z = Float64Array.from(b.logits);
      const current = takenLogProbs(b, z);
      // The surrogate has kinks where r = 1 ± ε; a step of h = 1e-5 moves r by a factor within 1 ± 3e-5,
      // so rows at least 1e-3 (relative) from a kink stay on one smooth piece.
      const ratios = current.map((l, i) => Math.exp(l - b.logProbs[i]!));
      fc.pre(ratios.every((q) => Math.abs(q / (1 - clip) - 1) > 1e-3 && Math.abs(q / (1 + clip) - 1) > 1e-3));
      const r = ppoClipLoss(inputOf(b, z, b.logProbs, clip));
      const h = 1e-5;
      const fd = centralDifferences((x) => ppoClipLoss(inputOf(b, x, b.logProbs, clip)).loss, z, h);
      const scale = 1 + Math.abs(r.loss) + 3 * maxAbs(b.weights ?? [1]) * b.rows * (1 + Math.max(...ratios));
      expect(gradientMismatch(r.grad, fd, scale, h)).toBe(0);
    },
  );

  it('zeroes the gradient of a row whose clipped term is the minimum', () => {
    // π(a) = 0.5 against q(a) = 0.25: r = 2 > 1.2; with A > 0 the clipped term 1.2·A is the minimum.
    const base = { logits: new Float64Array([0, 0]), rows: 1, actions: 2, selected: [0] };
    const up = ppoClipLoss({ ...base, behaviourLogProbs: [Math.log(0.25)], advantages: [1] });
    expect(Array.from(up.grad, (v) => v + 0)).toEqual([0, 0]);
    expect(up.loss).toBeCloseTo(-1.2, 15);
    expect(up.clipFraction).toBe(1);
    // With A < 0 the unclipped term r·A = −2 is the minimum and keeps its gradient r·A·(π − onehot).
    const down = ppoClipLoss({ ...base, behaviourLogProbs: [Math.log(0.25)], advantages: [-1] });
    expect(down.loss).toBeCloseTo(2, 14);
    expect(down.grad[0]).toBeCloseTo(-2 * (0.5 - 1), 14);
    expect(down.grad[1]).toBeCloseTo(-2 * 0.5, 14);
  });

  it('handles an overflowing ratio with a positive or zero advantage', () => {
    const base = {
      logits: new Float64Array([0, 0]),
      rows: 1,
      actions: 2,
      selected: [0],
      behaviourLogProbs: [-1000],
    };
    const pos = ppoClipLoss({ ...base, advantages: [1] });
    expect(pos.loss).toBeCloseTo(-1.2, 15);
    expect(pos.approxKl).toBe(Number.POSITIVE_INFINITY);
    const zero = ppoClipLoss({ ...base, advantages: [0] });
    expect(zero.loss + 0).toBe(0);
    expect(Array.from(zero.grad, (v) => v + 0)).toEqual([0, 0]);
  });

  it('throws NON_FINITE_RESULT when the unclipped term overflows', () => {
    const base = { logits: new Float64Array([0, 0]), rows: 1, actions: 2, selected: [0] };
    const call = () => ppoClipLoss({ ...base, behaviourLogProbs: [-1000], advantages: [-1] });
    expect(call).toThrow(ObjectiveError);
    expect(call).toThrow(/^NON_FINITE_RESULT: ppoClipLoss: row 0 has importance ratio/);
    // Four finite terms of 5e307 each: the sum overflows.
    const four = {
      logits: new Float64Array(8),
      rows: 4,
      actions: 2,
      selected: [0, 0, 0, 0],
      behaviourLogProbs: [-700, -700, -700, -700],
      advantages: [-1e4, -1e4, -1e4, -1e4],
      normalize: 'sum' as const,
    };
    expect(() => ppoClipLoss(four)).toThrow(
      /^NON_FINITE_RESULT: ppoClipLoss: the weighted sum of the surrogate terms overflows/,
    );
    try {
      ppoClipLoss(four);
    } catch (error) {
      expect((error as ObjectiveError).code).toBe('NON_FINITE_RESULT');
    }
  });

  describe('rejects bad input', () => {
    const good = (): PpoClipInput => ({
      logits: new Float64Array([0, 1, 2, 3]),
      rows: 2,
      actions: 2,
      selected: [0, 1],
      behaviourLogProbs: [-1, -0.5],
      advantages: [1, -1],
    });
    const cases: [string, (i: PpoClipInput) => unknown, RegExp][] = [
      ['input that is not an object', () => 1, /^input must be an object, got 1/],
      [
        'behaviour log-probabilities of the wrong length',
        (i) => ({ ...i, behaviourLogProbs: [-1] }),
        /^behaviourLogProbs.length must be rows = 2, got 1/,
      ],
      [
        'a positive behaviour log-probability',
        (i) => ({ ...i, behaviourLogProbs: [0.1, -1] }),
        /^behaviourLogProbs\[0\] must be a log-probability in \[-1e\+50, 0\], got 0.1/,
      ],
      [
        'a NaN behaviour log-probability',
        (i) => ({ ...i, behaviourLogProbs: [-1, Number.NaN] }),
        /^behaviourLogProbs\[1\] .* got NaN/,
      ],
      [
        'a non-finite advantage',
        (i) => ({ ...i, advantages: [Number.POSITIVE_INFINITY, 0] }),
        /^advantages\[0\] must be a finite number .* got Infinity/,
      ],
      [
        'a negative clip range',
        (i) => ({ ...i, clip: -0.1 }),
        /^clip must be a finite number in \[0, 1e\+50\], got -0.1/,
      ],
      ['a NaN clip range', (i) => ({ ...i, clip: Number.NaN }), /^clip must be .* got NaN/],
      [
        'an action out of range',
        (i) => ({ ...i, selected: [0, -1] }),
        /^selected\[1\] must be an integer action index/,
      ],
      [
        'a logits shape mismatch',
        (i) => ({ ...i, rows: 3 }),
        /^logits.length must equal rows × actions = 6, got 4/,
      ],
      [
        'a zero weight sum',
        (i) => ({ ...i, weights: [0, 0] }),
        /^weights must have a positive sum to average over, got 0/,
      ],
    ];
    for (const [what, make, message] of cases) {
      it(`rejects ${what}`, () => {
        expect(() => ppoClipLoss(make(good()) as PpoClipInput)).toThrow(message);
      });
    }
    it('rejects an out.grad of the wrong length', () => {
      expect(() => ppoClipLoss(good(), { grad: new Float64Array(8) })).toThrow(
        /^out.grad must be a Float64Array of length 4, got a Float64Array of length 8/,
      );
    });
  });
});
