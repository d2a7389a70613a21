import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { extremeLogit, maxAbs, moderateLogit } from '../test/arbitraries.js';
import { centralDifferences, gradientMismatch, naiveFtwLoss, naiveSoftmax } from '../test/naive.js';
import { forwardKlProjection } from './forward-kl-projection.js';
import { type FtwLossInput, ftwLoss } from './ftw-loss.js';
import { logSoftmax } from './log-softmax.js';

type RefKind = 'uniform' | 'broadcast-logits' | 'row-logits' | 'broadcast-logprobs' | 'row-logprobs';

interface Problem {
  rows: number;
  actions: number;
  logits: number[];
  selected: number[];
  weights: number[] | undefined;
  beta: number;
  kl: 'reverse' | 'forward';
  refKind: RefKind;
  ref: number[];
  normalize: 'mean' | 'sum';
}

function problem(logit: fc.Arbitrary<number>): fc.Arbitrary<Problem> {
  return fc
    .record({ rows: fc.integer({ min: 1, max: 4 }), actions: fc.integer({ min: 1, max: 5 }) })
    .chain(({ rows, actions }) =>
      fc.record({
        rows: fc.constant(rows),
        actions: fc.constant(actions),
        logits: fc.array(logit, { minLength: rows * actions, maxLength: rows * actions }),
        selected: fc.array(fc.integer({ min: 0, max: actions - 1 }), { minLength: rows, maxLength: rows }),
        // A positive first weight keeps Σw > 0, which 'mean' requires.
        weights: fc.option(
          fc
            .tuple(
              fc.double({ min: 0.1, max: 5, noNaN: true }),
              fc.array(fc.double({ min: 0, max: 5, noNaN: true }), {
                minLength: rows - 1,
                maxLength: rows - 1,
              }),
            )
            .map(([first, rest]) => [first, ...rest]),
          { nil: undefined },
        ),
        beta: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 10, noNaN: true })),
        kl: fc.constantFrom('reverse' as const, 'forward' as const),
        refKind: fc.constantFrom<RefKind>(
          'uniform',
          'broadcast-logits',
          'row-logits',
          'broadcast-logprobs',
          'row-logprobs',
        ),
        ref: fc.array(logit, { minLength: rows * actions, maxLength: rows * actions }),
        normalize: fc.constantFrom('mean' as const, 'sum' as const),
      }),
    );
}

/** The reference array the problem describes, or undefined for uniform. */
function referenceArray(p: Problem): Float64Array | undefined {
  if (p.refKind === 'uniform') return undefined;
  const broadcast = p.refKind.startsWith('broadcast');
  const rows = broadcast ? 1 : p.rows;
  const values = Float64Array.from(p.ref.slice(0, rows * p.actions));
  return p.refKind.endsWith('logprobs') ? logSoftmax(values, rows, p.actions) : values;
}

function inputOf(p: Problem, logits: Float64Array): FtwLossInput {
  const ref = referenceArray(p);
  const input: FtwLossInput = {
    logits,
    rows: p.rows,
    actions: p.actions,
    selected: p.selected,
    beta: p.beta,
    kl: p.kl,
    normalize: p.normalize,
  };
  if (p.weights !== undefined) input.weights = p.weights;
  if (ref !== undefined)
    input.reference = p.refKind.endsWith('logprobs') ? { logProbs: ref } : { logits: ref };
  return input;
}

/** How row i ≥ 1 of a generated array relates to row i − 1 (see {@link withRepeats}). */
type RowLink =
  | { kind: 'fresh' }
  | { kind: 'copy' }
  | { kind: 'change'; at: number; value: number }
  | { kind: 'signed-zero'; at: number };

const rowLink = (logit: fc.Arbitrary<number>): fc.Arbitrary<RowLink> =>
  fc.oneof(
    fc.constant({ kind: 'fresh' as const }),
    fc.constant({ kind: 'copy' as const }),
    fc.record({ kind: fc.constant('change' as const), at: fc.nat(), value: logit }),
    fc.record({ kind: fc.constant('signed-zero' as const), at: fc.nat() }),
  );

/**
 * Rows that repeat the row before them in every way a kernel could confuse with a repeat: copied whole,
 * copied with one entry changed (the last one included), or copied with one entry 0 in the earlier row
 * and −0 in the later one.
 */
function withRepeats(values: number[], rows: number, actions: number, links: RowLink[]): number[] {
  const out = [...values];
  for (let i = 1; i < rows; i++) {
    const link = links[i - 1]!;
    if (link.kind === 'fresh') continue;
    const row = i * actions;
    for (let j = 0; j < actions; j++) out[row + j] = out[row - actions + j]!;
    if (link.kind === 'change') out[row + (link.at % actions)] = link.value;
    if (link.kind === 'signed-zero') {
      out[row - actions + (link.at % actions)] = 0;
      out[row + (link.at % actions)] = -0;
    }
  }
  return out;
}

/** A problem whose logits and per-row references repeat rows (see {@link withRepeats}). */
function problemWithRepeats(logit: fc.Arbitrary<number>): fc.Arbitrary<Problem> {
  return problem(logit).chain((p) =>
    fc
      .record({
        logits: fc.array(rowLink(logit), { minLength: p.rows - 1, maxLength: p.rows - 1 }),
        ref: fc.array(rowLink(logit), { minLength: p.rows - 1, maxLength: p.rows - 1 }),
      })
      .map((links) => ({
        ...p,
        logits: withRepeats(p.logits, p.rows, p.actions, links.logits),
        ref: withRepeats(p.ref, p.rows, p.actions, links.ref),
      })),
  );
}

describe('ftwLoss', () => {
  it('equals mean cross-entropy + 0.05 · KL(π‖uniform) in the small reproduction setting', () => {
    // Two actions, four rows sharing the logits [z0, z1], elite actions, uniform reference, reverse KL.
    fc.assert(
      fc.property(
        fc.double({ min: -20, max: 20, noNaN: true }),
        fc.double({ min: -20, max: 20, noNaN: true }),
        fc.array(fc.integer({ min: 0, max: 1 }), { minLength: 4, maxLength: 4 }),
        (z0, z1, elites) => {
          const logits = new Float64Array([z0, z1, z0, z1, z0, z1, z0, z1]);
          const r = ftwLoss({ logits, rows: 4, actions: 2, selected: elites, beta: 0.05, kl: 'reverse' });
          // Two-action closed forms: log π_1 = −log(1 + e^{z0 − z1}), log π_0 = −log(1 + e^{z1 − z0}).
          const logPi = [-Math.log1p(Math.exp(z1 - z0)), -Math.log1p(Math.exp(z0 - z1))];
          const pi = logPi.map(Math.exp);
          const meanCe = elites.reduce((s, a) => s - logPi[a]!, 0) / 4;
          const kl = pi[0]! * (logPi[0]! + Math.LN2) + pi[1]! * (logPi[1]! + Math.LN2);
          const expected = meanCe + 0.05 * kl;
          expect(Math.abs(r.loss - expected)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(expected)));
          expect(Math.abs(r.klMean - kl)).toBeLessThanOrEqual(1e-12);
          expect(Math.abs(r.crossEntropy - meanCe)).toBeLessThanOrEqual(1e-12 * Math.max(1, meanCe));
        },
      ),
    );
  });

  test.prop([problemWithRepeats(extremeLogit)], { numRuns: 300 })(
    'gives each row, repeated or not, the terms it has on its own, bit for bit',
    (p) => {
      // Row i's gradient and terms depend on row i alone (its logits, reference row, action, weight). So
      // the whole call must equal one call per row, given the row's own coefficients: the weight
      // w_i · (1/Σw) with normalize 'sum' for 'mean' (and 1 · 1 for 'sum'), and β/R as β, which the
      // kernel multiplies and divides exactly as the whole call does. Rows that repeat the row before
      // them, or nearly do, must not take that row's terms.
      const input = inputOf(p, Float64Array.from(p.logits));
      const whole = ftwLoss(input);
      const ref = referenceArray(p);
      const total = p.weights === undefined ? p.rows : p.weights.reduce((a, b) => a + b, 0);
      const scale = p.normalize === 'mean' ? 1 / total : 1;
      let crossEntropy = 0;
      let klSum = 0;
      let klMax = Number.NEGATIVE_INFINITY;
      let entropy = 0;
      for (let i = 0; i < p.rows; i++) {
        const perRowRef = ref !== undefined && !p.refKind.startsWith('broadcast');
        const rowRef = perRowRef ? ref.subarray(i * p.actions, (i + 1) * p.actions) : ref;
        const single = ftwLoss({
          logits: Float64Array.from(p.logits.slice(i * p.actions, (i + 1) * p.actions)),
          rows: 1,
          actions: p.actions,
          selected: [p.selected[i]!],
          weights: [(p.weights === undefined ? 1 : p.weights[i]!) * scale],
          beta: p.beta / p.rows,
          kl: p.kl,
          normalize: 'sum',
          ...(rowRef === undefined
            ? {}
            : { reference: p.refKind.endsWith('logprobs') ? { logProbs: rowRef } : { logits: rowRef } }),
        });
        expect(Array.from(whole.grad.subarray(i * p.actions, (i + 1) * p.actions)), `row ${i}`).toEqual(
          Array.from(single.grad),
        );
        crossEntropy += single.crossEntropy;
        klSum += single.klMean;
        klMax = Math.max(klMax, single.klMax);
        entropy += single.entropy;
      }
      expect(whole.crossEntropy).toBe(crossEntropy);
      expect(whole.klMean).toBe(klSum / p.rows);
      expect(whole.klMax === klMax, `klMax ${whole.klMax} against ${klMax}`).toBe(true);
      expect(whole.entropy).toBe(entropy / p.rows);
    },
  );

  it('defaults beta to 0: the loss and gradient are the cross-entropy alone', () => {
    // π = softmax([0, log 3]) = [1/4, 3/4]; action 0: CE = log 4, ∂CE/∂z = π − e_0 = [−3/4, 3/4]. The KL to
    // uniform, Σ π_j log(2 π_j) = ¼ log ½ + ¾ log 1.5, is reported but adds nothing.
    const r = ftwLoss({ logits: new Float64Array([0, Math.log(3)]), rows: 1, actions: 2, selected: [0] });
    expect(Math.abs(r.loss - Math.log(4))).toBeLessThanOrEqual(1e-15);
    expect(r.loss).toBe(r.crossEntropy);
    expect(Math.abs(r.klMean - (0.25 * Math.log(0.5) + 0.75 * Math.log(1.5)))).toBeLessThanOrEqual(1e-15);
    expect(Math.abs(r.grad[0]! + 0.75)).toBeLessThanOrEqual(1e-15);
    expect(Math.abs(r.grad[1]! - 0.75)).toBeLessThanOrEqual(1e-15);
  });

  it('does not take the row before for a row that matches it only when read across row boundaries', () => {
    // Row 2 of each array equals the entries before it read backwards (z[6 + k] = z[3 − k]), so a repeat
    // check that walks the previous row backwards, or reads past its start, would take row 1's terms.
    // Case 1: the logits play the trick (uniform reference). Case 2: rows 1 and 2 share their logits and
    // the per-row reference logits play it. Expected values: the naive definition, and for the gradient
    // central differences of it.
    const cases = [
      { logits: [1, 2, 3, 4, 5, 6, 4, 3, 2], ref: undefined },
      { logits: [0, 1, -1, 2, 0, 1, 2, 0, 1], ref: [0.5, 1, -1, 2, 0, 1, 2, -1, 1] },
    ];
    for (const { logits, ref } of cases) {
      for (const kl of ['reverse', 'forward'] as const) {
        const base = { rows: 3, actions: 3, selected: [0, 1, 2], beta: 0.7, kl };
        const input: FtwLossInput = { ...base, logits: Float64Array.from(logits) };
        if (ref !== undefined) input.reference = { logits: Float64Array.from(ref) };
        const r = ftwLoss(input);
        const naive = (z: ArrayLike<number>) =>
          naiveFtwLoss({ ...base, logits: z, ...(ref === undefined ? {} : { ref }) });
        const expected = naive(logits);
        for (const key of ['loss', 'crossEntropy', 'klMean', 'klMax', 'entropy'] as const)
          expect(Math.abs(r[key] - expected[key]), `${kl} ${key}`).toBeLessThanOrEqual(1e-12);
        const h = 1e-4;
        const fd = centralDifferences((x) => naive(x).loss, Float64Array.from(logits), h);
        expect(gradientMismatch(r.grad, fd, 10, h), kl).toBe(0);
      }
    }
  });

  test.prop([problem(moderateLogit)])('equals its naive definition on moderate logits', (p) => {
    const r = ftwLoss(inputOf(p, Float64Array.from(p.logits)));
    const ref = referenceArray(p);
    const naive = naiveFtwLoss({ ...p, ref: ref === undefined ? undefined : Array.from(ref) } as Parameters<
      typeof naiveFtwLoss
    >[0]);
    for (const key of ['loss', 'crossEntropy', 'klMean', 'klMax', 'entropy'] as const) {
      // Both sides are sums of a few dozen terms of magnitude up to ~10 · (1 + β); 1e-12 relative to
      // that scale is a thousand times their rounding error.
      const scale = (1 + Math.abs(naive[key])) * (1 + p.beta) * 10;
      expect(Math.abs(r[key] - naive[key]), key).toBeLessThanOrEqual(1e-12 * scale);
    }
  });

  test.prop([problem(extremeLogit)], { numRuns: 200 })(
    'has the gradient of central finite differences, extreme logits included',
    (p) => {
      const z = Float64Array.from(p.logits);
      const r = ftwLoss(inputOf(p, z));
      for (const v of r.grad) expect(Number.isFinite(v)).toBe(true);
      for (const v of [r.loss, r.crossEntropy, r.klMean, r.klMax, r.entropy])
        expect(Number.isFinite(v)).toBe(true);
      const h = 1e-4;
      const fd = centralDifferences((x) => ftwLoss(inputOf(p, x)).loss, z, h);
      const wmax = p.weights === undefined ? 1 : maxAbs(p.weights);
      const scale = Math.abs(r.loss) + (1 + p.beta + wmax * p.rows) * (1 + maxAbs(p.logits) + maxAbs(p.ref));
      expect(gradientMismatch(r.grad, fd, scale, h)).toBe(0);
    },
  );

  test.prop([problem(extremeLogit)])('gives every row a gradient that sums to zero', (p) => {
    // Softmax gradients are invariant to adding a constant to a row's logits, so each row's gradient sums
    // to 0 in exact arithmetic. In floating point a row's gradient is w·(p − e) + β·(KL terms), and each
    // KL term is p_j·(d_j − KL), d_j = log p_j − log q_j. The kernel forms d_j − KL as
    // (z_j − r_j) − (lse − shift + KL), r the reference row it is given (raw logits or log-probabilities;
    // none for the uniform reference), so each term carries an absolute error of a few ε times the
    // magnitudes it subtracts: |z_j − r_j| <= max|z| + max|r| and |lse − shift + KL| <= max|z| + max|r|
    // + 2·log(actions) + max|d|. Their sum D <= max|d| + 2·(max|z| + max|r| + log(actions)) can be far
    // above max|d|: logits [0, 0] against reference logits near −1000 give d_j ≈ ±0.002 but subtract
    // numbers near 1000 (a seed found |Σ| = 79ε there, above a bound that used max|d| alone). Summing
    // `actions` terms gives |Σ| <= (actions + 3)·ε·(w + β)·(1 + 2·D), bounded here with 8·actions·ε, and
    // max|d| <= max|log p| + max|log q|. (Worst seen: 4e-12 for reference log-probabilities near −2000.)
    const r = ftwLoss(inputOf(p, Float64Array.from(p.logits)));
    const ref = referenceArray(p);
    const refRows = p.refKind.startsWith('broadcast') ? 1 : p.rows;
    const logQ =
      ref === undefined
        ? Math.log(p.actions)
        : maxAbs(p.refKind.endsWith('logprobs') ? ref : logSoftmax(ref, refRows, p.actions));
    const d = maxAbs(logSoftmax(Float64Array.from(p.logits), p.rows, p.actions)) + logQ;
    const magnitudes = maxAbs(p.logits) + (ref === undefined ? 0 : maxAbs(ref)) + Math.log(p.actions);
    const D = d + 2 * magnitudes;
    const wmax = p.weights === undefined ? 1 : Math.max(1, maxAbs(p.weights));
    const bound = 8 * p.actions * Number.EPSILON * (wmax + p.beta) * (1 + 2 * D);
    for (let i = 0; i < p.rows; i++) {
      let s = 0;
      for (let j = 0; j < p.actions; j++) s += r.grad[i * p.actions + j]!;
      expect(Math.abs(s)).toBeLessThanOrEqual(bound);
    }
  });

  it('gives finite values for rows of ±1000 and exact deterministic limits', () => {
    const logits = new Float64Array([1000, -1000, -1000, 1000]);
    const r = ftwLoss({ logits, rows: 2, actions: 2, selected: [0, 0], beta: 1 });
    // Row 0 picks its certain action (CE 0), row 1 its impossible one (CE 2000); KL to uniform is log 2.
    expect(r.crossEntropy).toBe(1000);
    expect(r.klMean).toBeCloseTo(Math.LN2, 15);
    expect(r.entropy).toBe(0);
    // Adding 0 turns the −0 of an underflowed probability into 0 for the comparison.
    expect(Array.from(r.grad, (v) => v + 0)).toEqual([0, 0, -0.5, 0.5]);
  });

  it('reads Float32 logits as the same Float64 values', () => {
    const f32 = new Float32Array([0.1, -2.5, 3, 7, -1, 0]);
    const a = ftwLoss({ logits: f32, rows: 2, actions: 3, selected: [2, 0], beta: 0.3, kl: 'forward' });
    const b = ftwLoss({
      logits: Float64Array.from(f32),
      rows: 2,
      actions: 3,
      selected: [2, 0],
      beta: 0.3,
      kl: 'forward',
    });
    expect(a.loss).toBe(b.loss);
    expect(Array.from(a.grad)).toEqual(Array.from(b.grad));
  });

  it('treats reference logits and their log-softmax alike', () => {
    const refLogits = new Float64Array([2, -1, 0.5, 3, 3, -7]);
    const base = {
      logits: new Float64Array([0, 1, 2, -1, 0, 1]),
      rows: 2,
      actions: 3,
      selected: [0, 2],
      beta: 2,
    };
    for (const kl of ['reverse', 'forward'] as const) {
      const a = ftwLoss({ ...base, kl, reference: { logits: refLogits } });
      const b = ftwLoss({ ...base, kl, reference: { logProbs: logSoftmax(refLogits, 2, 3) } });
      expect(Math.abs(a.loss - b.loss)).toBeLessThanOrEqual(1e-14);
      for (let k = 0; k < 6; k++) expect(Math.abs(a.grad[k]! - b.grad[k]!)).toBeLessThanOrEqual(1e-14);
    }
  });

  test.prop([
    fc.integer({ min: 2, max: 4 }).chain((actions) =>
      fc.record({
        actions: fc.constant(actions),
        elites: fc.array(fc.integer({ min: 0, max: actions - 1 }), { minLength: 1, maxLength: 8 }),
        refLogits: fc.array(fc.double({ min: -0.5, max: 0.5, noNaN: true }), {
          minLength: actions,
          maxLength: actions,
        }),
        beta: fc.double({ min: 0.5, max: 3, noNaN: true }),
      }),
    ),
  ])(
    'converges under gradient descent on a tabular policy with forward KL to the closed-form projection',
    ({ actions, elites, refLogits, beta }) => {
      // One state visited by every elite row: the rows share one logit vector θ, whose gradient is the sum
      // of the rows' gradients. The objective is −Σ_a (p̂_a + βρ_a) log π_a + const, whose Hessian in θ is
      // at most (1 + β)/2 in norm, so the step 1/(1 + β) is stable.
      const rows = elites.length;
      const ref = Float64Array.from(refLogits);
      const rho = naiveSoftmax(ref, 0, actions);
      const theta = new Float64Array(actions);
      const logits = new Float64Array(rows * actions);
      const out = { grad: new Float64Array(rows * actions) };
      const input = {
        logits,
        rows,
        actions,
        selected: elites,
        beta,
        kl: 'forward' as const,
        reference: { logits: ref },
      };
      for (let step = 0; step < 3000; step++) {
        for (let k = 0; k < rows * actions; k++) logits[k] = theta[k % actions]!;
        ftwLoss(input, out);
        for (let j = 0; j < actions; j++) {
          let g = 0;
          for (let i = 0; i < rows; i++) g += out.grad[i * actions + j]!;
          theta[j] = theta[j]! - g / (1 + beta);
        }
      }
      const pHat = new Array<number>(actions).fill(0);
      for (const a of elites) pHat[a] = pHat[a]! + 1 / rows;
      const projection = forwardKlProjection(pHat, rho, beta);
      const pi = naiveSoftmax(theta, 0, actions);
      // Every π*_a >= β ρ_a/(1 + β) >= 0.5·e^{-1}/(3.5·4) > 0.013, so the contraction per step is at most
      // 1 − 0.013 and 3000 steps shrink the initial error by more than e^{-39}.
      for (let a = 0; a < actions; a++) expect(Math.abs(pi[a]! - projection[a]!)).toBeLessThanOrEqual(1e-10);
    },
  );

  it('has zero gradient at the closed-form projection (forward KL, one state)', () => {
    const actions = 3;
    const elites = [0, 2, 2, 1, 2];
    const weights = [1, 2, 0.5, 1, 1];
    const refLogits = new Float64Array([0.3, -1.2, 2]);
    const rho = naiveSoftmax(refLogits, 0, actions);
    const pHat = [0, 0, 0];
    const total = weights.reduce((s, w) => s + w, 0);
    elites.forEach((a, i) => {
      pHat[a] = pHat[a]! + weights[i]! / total;
    });
    const beta = 0.7;
    const star = forwardKlProjection(pHat, rho, beta);
    const logits = new Float64Array(elites.length * actions);
    for (let k = 0; k < logits.length; k++) logits[k] = Math.log(star[k % actions]!);
    const r = ftwLoss({
      logits,
      rows: 5,
      actions,
      selected: elites,
      weights,
      beta,
      kl: 'forward',
      reference: { logits: refLogits },
    });
    for (let j = 0; j < actions; j++) {
      let g = 0;
      for (let i = 0; i < 5; i++) g += r.grad[i * actions + j]!;
      expect(Math.abs(g)).toBeLessThanOrEqual(1e-15);
    }
  });

  it('writes into out and returns it, reusing the gradient buffer', () => {
    const out = { grad: new Float64Array(4) };
    const r = ftwLoss({ logits: new Float64Array([0, 1, 2, 3]), rows: 2, actions: 2, selected: [0, 1] }, out);
    expect(r).toBe(out);
    expect(r.grad).toBe(out.grad);
    const fresh: { grad?: Float64Array } = {};
    const s = ftwLoss({ logits: new Float64Array([0, 1]), rows: 1, actions: 1 * 2, selected: [1] }, fresh);
    expect(s.grad).toBeInstanceOf(Float64Array);
    expect(fresh.grad).toBe(s.grad);
  });

  describe('rejects bad input', () => {
    const good = (): FtwLossInput => ({
      logits: new Float64Array([0, 1, 2, 3, 4, 5]),
      rows: 2,
      actions: 3,
      selected: [0, 2],
    });
    const cases: [string, (i: FtwLossInput) => unknown, RegExp][] = [
      ['input that is not an object', () => null, /^input must be an object, got null/],
      ['rows of 0', (i) => ({ ...i, rows: 0 }), /^rows must be an integer >= 1, got 0/],
      ['fractional actions', (i) => ({ ...i, actions: 1.5 }), /^actions must be an integer >= 1, got 1.5/],
      [
        'logits as a plain array',
        (i) => ({ ...i, logits: [0, 1, 2, 3, 4, 5] }),
        /^logits must be a Float32Array or Float64Array, got an array of length 6/,
      ],
      [
        'a logits shape mismatch',
        (i) => ({ ...i, logits: new Float64Array(5) }),
        /^logits.length must equal rows × actions = 6, got 5/,
      ],
      [
        'a NaN logit',
        (i) => ({ ...i, logits: new Float64Array([0, Number.NaN, 0, 0, 0, 0]) }),
        /^logits\[1\] must be a finite number with \|value\| <= 1e\+50, got NaN/,
      ],
      [
        'an infinite logit',
        (i) => ({ ...i, logits: new Float64Array([0, 0, 0, 0, 0, Number.NEGATIVE_INFINITY]) }),
        /^logits\[5\] must be a finite number .* got -Infinity/,
      ],
      [
        'a logit beyond MAX_MAGNITUDE',
        (i) => ({ ...i, logits: new Float64Array([0, 0, 1e51, 0, 0, 0]) }),
        /^logits\[2\] must be .* got 1e\+51/,
      ],
      [
        'selected of the wrong length',
        (i) => ({ ...i, selected: [0] }),
        /^selected.length must be rows = 2, got 1/,
      ],
      [
        'selected that is not array-like',
        (i) => ({ ...i, selected: 3 }),
        /^selected must be an array or typed array of rows, got 3/,
      ],
      [
        'an action index out of range',
        (i) => ({ ...i, selected: [0, 3] }),
        /^selected\[1\] must be an integer action index in \[0, 3\), got 3/,
      ],
      [
        'a negative action index',
        (i) => ({ ...i, selected: [-1, 0] }),
        /^selected\[0\] must be an integer action index in \[0, 3\), got -1/,
      ],
      [
        'a fractional action index',
        (i) => ({ ...i, selected: [0.5, 0] }),
        /^selected\[0\] must be an integer action index/,
      ],
      [
        'weights of the wrong length',
        (i) => ({ ...i, weights: [1] }),
        /^weights.length must be rows = 2, got 1/,
      ],
      [
        'a negative weight',
        (i) => ({ ...i, weights: [1, -1] }),
        /^weights\[1\] must be a finite number in \[0, 1e\+50\], got -1/,
      ],
      [
        'a NaN weight',
        (i) => ({ ...i, weights: [Number.NaN, 1] }),
        /^weights\[0\] must be a finite number in \[0, 1e\+50\], got NaN/,
      ],
      [
        'an infinite weight',
        (i) => ({ ...i, weights: [Number.POSITIVE_INFINITY, 1] }),
        /^weights\[0\] must be a finite number .* got Infinity/,
      ],
      [
        'weights summing to zero with normalize mean',
        (i) => ({ ...i, weights: [0, 0] }),
        /^weights must have a positive sum to average over, got 0/,
      ],
      [
        'a negative beta',
        (i) => ({ ...i, beta: -1 }),
        /^beta must be a finite number in \[0, 1e\+50\], got -1/,
      ],
      [
        'a NaN beta',
        (i) => ({ ...i, beta: Number.NaN }),
        /^beta must be a finite number in \[0, 1e\+50\], got NaN/,
      ],
      [
        'an infinite beta',
        (i) => ({ ...i, beta: Number.POSITIVE_INFINITY }),
        /^beta must be .* got Infinity/,
      ],
      [
        'an unknown KL direction',
        (i) => ({ ...i, kl: 'sideways' }),
        /^kl must be 'reverse' or 'forward', got "sideways"/,
      ],
      [
        'an unknown normalisation',
        (i) => ({ ...i, normalize: 'max' }),
        /^normalize must be 'mean' or 'sum', got "max"/,
      ],
      [
        'a reference that is not an object',
        (i) => ({ ...i, reference: 5 }),
        /^reference must be an object with logits or logProbs, got 5/,
      ],
      [
        'a reference with both fields',
        (i) => ({ ...i, reference: { logits: new Float64Array(3), logProbs: new Float64Array(3) } }),
        /^reference must give exactly one of logits or logProbs/,
      ],
      [
        'an empty reference',
        (i) => ({ ...i, reference: {} }),
        /^reference must give exactly one of logits or logProbs/,
      ],
      [
        'reference logits as a plain array',
        (i) => ({ ...i, reference: { logits: [0, 0, 0] } }),
        /^reference.logits must be a Float32Array or Float64Array, got an array of length 3/,
      ],
      [
        'a reference shape mismatch',
        (i) => ({ ...i, reference: { logits: new Float64Array(4) } }),
        /^reference.logits.length must be actions = 3 \(one row, broadcast\) or rows × actions = 6, got 4/,
      ],
      [
        'a non-finite reference',
        (i) => ({ ...i, reference: { logits: new Float64Array([0, Number.POSITIVE_INFINITY, 0]) } }),
        /^reference.logits\[1\] must be a finite number .* got Infinity/,
      ],
      [
        'unnormalised reference log-probabilities',
        (i) => ({ ...i, reference: { logProbs: new Float64Array([0, 0, 0, -1, -1, -1]) } }),
        /^reference.logProbs row 0 must be normalised \(log-sum-exp within 0.0001 of 0\), got 1.0986/,
      ],
      [
        'probabilities passed as reference log-probabilities',
        (i) => ({ ...i, reference: { logProbs: new Float64Array([0.2, 0.3, 0.5]) } }),
        /^reference.logProbs row 0 must be normalised/,
      ],
    ];
    for (const [what, make, message] of cases) {
      it(`rejects ${what}`, () => {
        expect(() => ftwLoss(make(good()) as FtwLossInput)).toThrow(message);
      });
    }

    it('throws TypeError for wrong types and RangeError for wrong values', () => {
      expect(() => ftwLoss({ ...good(), logits: [0] as unknown as Float64Array })).toThrow(TypeError);
      expect(() => ftwLoss({ ...good(), reference: {} })).toThrow(TypeError);
      expect(() => ftwLoss({ ...good(), beta: -1 })).toThrow(RangeError);
      expect(() => ftwLoss({ ...good(), selected: [0, 9] })).toThrow(RangeError);
    });

    it('rejects an out.grad of the wrong type or length', () => {
      expect(() => ftwLoss(good(), { grad: new Float64Array(5) })).toThrow(
        /^out.grad must be a Float64Array of length 6, got a Float64Array of length 5/,
      );
      expect(() => ftwLoss(good(), { grad: new Float32Array(6) as unknown as Float64Array })).toThrow(
        /^out.grad must be a Float64Array of length 6, got a Float32Array of length 6/,
      );
    });

    it('rejects an out.grad that shares memory with the logits or the reference', () => {
      const buffer = new Float64Array(12);
      const logits = buffer.subarray(0, 6);
      expect(() => ftwLoss({ ...good(), logits }, { grad: buffer.subarray(3, 9) })).toThrow(
        /^out.grad must not share memory with logits/,
      );
      const ref = buffer.subarray(6, 12);
      expect(() =>
        ftwLoss({ ...good(), reference: { logits: ref } }, { grad: buffer.subarray(6, 12) }),
      ).toThrow(/^out.grad must not share memory with reference/);
      // Adjacent views of one buffer do not overlap and are fine.
      expect(() => ftwLoss({ ...good(), logits }, { grad: buffer.subarray(6, 12) })).not.toThrow();
    });

    it('leaves out.grad untouched when it throws', () => {
      const grad = new Float64Array(6).fill(7);
      const bad = new Float64Array([0, 1, 2, 3, 4, Number.NaN]);
      expect(() => ftwLoss({ ...good(), logits: bad }, { grad })).toThrow(
        /^logits\[5\] must be a finite number/,
      );
      const logProbs = new Float64Array([0, 0, 0, -1, -1, -1]);
      expect(() => ftwLoss({ ...good(), reference: { logProbs } }, { grad })).toThrow(/must be normalised/);
      expect(Array.from(grad)).toEqual([7, 7, 7, 7, 7, 7]);
    });

    it('accepts weights summing to zero with normalize sum', () => {
      const r = ftwLoss({ ...good(), weights: [0, 0], normalize: 'sum', beta: 1 });
      expect(r.crossEntropy).toBe(0);
      expect(r.loss).toBe(r.klMean);
    });
  });
});
