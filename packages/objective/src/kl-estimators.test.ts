import { fc, test } from '@fast-check/vitest';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { describe, expect, it } from 'vitest';
import { naiveSoftmax } from '../test/naive.js';
import { klEstimators } from './kl-estimators.js';
import { logProbGradToLogits } from './log-prob-grad-to-logits.js';

const policies = fc.integer({ min: 2, max: 6 }).chain((actions) =>
  fc.record({
    actions: fc.constant(actions),
    z: fc.array(fc.double({ min: -2, max: 2, noNaN: true }), { minLength: actions, maxLength: actions }),
    y: fc.array(fc.double({ min: -2, max: 2, noNaN: true }), { minLength: actions, maxLength: actions }),
  }),
);

/**
 * Half-width t with P(|mean − μ| >= t) <= δ for n i.i.d. draws of variance σ² and |X − μ| <= M, from
 * Bernstein's inequality P(|mean − μ| >= t) <= 2 exp(−n t² / (2σ² + 2Mt/3)): the positive root of
 * n t² − (2ML/3) t − 2σ²L = 0 with L = ln(2/δ).
 */
function bernsteinHalfWidth(n: number, variance: number, bound: number, delta: number): number {
  const l = Math.log(2 / delta);
  const b = (2 * bound * l) / 3;
  return (b + Math.sqrt(b * b + 8 * n * variance * l)) / (2 * n);
}

const RUNS = 20;
const SAMPLES = 20_000;

describe('klEstimators', () => {
  test.prop([policies, fc.integer()], { numRuns: RUNS })(
    'k1 and k3 are unbiased for KL(π‖π_ref) over actions sampled from π (Monte Carlo)',
    ({ actions, z, y }, seed) => {
      const pi = naiveSoftmax(z, 0, actions);
      const rho = naiveSoftmax(y, 0, actions);
      const logPi = pi.map(Math.log);
      const logRho = rho.map(Math.log);
      const kl = pi.reduce((s, p, a) => s + p * (logPi[a]! - logRho[a]!), 0);
      const rng = xoroshiro128plus(seed);
      const lp = new Float64Array(SAMPLES);
      const lr = new Float64Array(SAMPLES);
      for (let s = 0; s < SAMPLES; s++) {
        let u = uniformFloat64(rng);
        let a = 0;
        while (a < actions - 1 && u >= pi[a]!) u -= pi[a++]!;
        lp[s] = logPi[a]!;
        lr[s] = logRho[a]!;
      }
      const e = klEstimators({ logProbs: lp, refLogProbs: lr });
      // Exact variance and range of each estimator under π. The false-alarm probability is at most δ per
      // check, 2 checks per run and RUNS runs: 2 · RUNS · δ = 1e-6 for the whole test (union bound).
      const delta = 1e-6 / (2 * RUNS);
      for (const [mean, value] of [
        [e.k1Mean, (a: number) => logPi[a]! - logRho[a]!],
        [e.k3Mean, (a: number) => Math.expm1(logRho[a]! - logPi[a]!) - (logRho[a]! - logPi[a]!)],
      ] as const) {
        let variance = 0;
        let bound = 0;
        for (let a = 0; a < actions; a++) {
          const d = value(a) - kl;
          variance += pi[a]! * d * d;
          bound = Math.max(bound, Math.abs(d));
        }
        // Plus rounding: the log-probabilities carry a few ulps of their magnitude, which moves each sample
        // and the exact KL by at most 16·2^-52·max|log p| (it matters only when π ≈ ρ and σ² ≈ 0).
        const rounding = 16 * 2 ** -52 * Math.max(...logPi.map(Math.abs), ...logRho.map(Math.abs));
        expect(Math.abs(mean - kl)).toBeLessThanOrEqual(
          bernsteinHalfWidth(SAMPLES, variance, bound, delta) + rounding,
        );
      }
    },
  );

  test.prop([policies])(
    'has derivatives whose expectation is 0 (k1), ∇KL(π‖ρ) (k2) and ∇KL(ρ‖π) (k3)',
    ({ actions, z, y }) => {
      // Exact expectation over a ~ π: one row per action, weighted by π(a), through the logit chain rule.
      const pi = naiveSoftmax(z, 0, actions);
      const rho = naiveSoftmax(y, 0, actions);
      const logPi = pi.map(Math.log);
      const logRho = rho.map(Math.log);
      const e = klEstimators({ logProbs: logPi, refLogProbs: logRho });
      const logits = new Float64Array(actions * actions);
      for (let k = 0; k < logits.length; k++) logits[k] = z[k % actions]!;
      const selected = Array.from({ length: actions }, (_, a) => a);
      const expected = (d: Float64Array) => {
        const g = logProbGradToLogits({
          logits,
          rows: actions,
          actions,
          selected,
          gradLogProb: Array.from(d, (v, a) => pi[a]! * v),
        });
        return Array.from({ length: actions }, (_, j) => {
          let s = 0;
          for (let a = 0; a < actions; a++) s += g[a * actions + j]!;
          return s;
        });
      };
      const kl = pi.reduce((s, p, a) => s + p * (logPi[a]! - logRho[a]!), 0);
      const reverse = pi.map((p, j) => p * (logPi[j]! - logRho[j]! - kl));
      const forward = pi.map((p, j) => p - rho[j]!);
      const g1 = expected(e.dk1);
      const g2 = expected(e.dk2);
      const g3 = expected(e.dk3);
      for (let j = 0; j < actions; j++) {
        expect(Math.abs(g1[j]!)).toBeLessThanOrEqual(1e-14);
        expect(Math.abs(g2[j]! - reverse[j]!)).toBeLessThanOrEqual(1e-13);
        expect(Math.abs(g3[j]! - forward[j]!)).toBeLessThanOrEqual(1e-13);
      }
    },
  );

  test.prop([
    fc.double({ min: -30, max: -1e-3, noNaN: true }),
    fc.double({ min: -30, max: -1e-3, noNaN: true }),
  ])('has derivatives with respect to log π(a) that match central finite differences', (l, r) => {
    const h = 1e-5;
    const at = (x: number) => klEstimators({ logProbs: [x], refLogProbs: [r] });
    const e = at(l);
    const up = at(l + h);
    const down = at(l - h);
    const step = l + h - (l - h);
    for (const [k, d] of [
      ['k1', 'dk1'],
      ['k2', 'dk2'],
      ['k3', 'dk3'],
    ] as const) {
      const fd = (up[k][0]! - down[k][0]!) / step;
      const value = e[d][0]!;
      // Truncation h²/6·|k'''| (|k3'''| <= e^30) and rounding 2^-52·|k|/h: relative 1e-6 plus both.
      const scale = Math.max(1, Math.abs(e[k][0]!));
      expect(Math.abs(fd - value)).toBeLessThanOrEqual(1e-6 * Math.abs(value) + 1e-9 * scale);
    }
  });

  it('computes k3 without cancellation when the policies nearly agree', () => {
    for (const delta of [1e-12, -3e-9, 1e-6, 9.9e-5, 1.01e-4, -2e-4, 1e-3]) {
      const e = klEstimators({ logProbs: [-1], refLogProbs: [-1 + delta] });
      const d = -1 + delta - -1; // the Δ actually represented
      const series = d * d * (1 / 2 + d * (1 / 6 + d * (1 / 24 + d * (1 / 120 + d / 720))));
      expect(Math.abs(e.k3[0]! - series)).toBeLessThanOrEqual(5e-12 * series);
    }
  });

  it('computes k3 to a few ulps below the series threshold (exact rational reference)', () => {
    // e^x − 1 − x = Σ_{k≥2} x^k / k!, summed to k = 24 in exact rationals (x a double is m·2^-s exactly);
    // the terms left out are below x^25/25! < 1e-100 relative. The quotient is taken to 2^-400 and
    // rounded once by Number(). The kernel's series rounds 8 times: ≤ 8 · 2^-53 < 1e-15 relative.
    const exact = (x: number) => {
      let m = x;
      let s = 0n;
      while (!Number.isInteger(m)) {
        m *= 2;
        s++;
      }
      const X = BigInt(m);
      const D = 2n ** s;
      const K = 24n;
      let fact = 1n;
      for (let k = 2n; k <= K; k++) fact *= k;
      let num = 0n;
      let kFact = 1n; // k!
      for (let k = 1n; k <= K; k++) {
        kFact *= k;
        if (k >= 2n) num += X ** k * D ** (K - k) * (fact / kFact);
      }
      const den = D ** K * fact;
      const negative = num < 0n;
      const q = ((negative ? -num : num) * 2n ** 400n) / den;
      return ((negative ? -1 : 1) * Number(q)) / 2 ** 400;
    };
    for (const step of [9.9e-5, -9.9e-5, 7e-5, -5e-5, 3e-6, -1e-8, 1e-12]) {
      const e = klEstimators({ logProbs: [-0.5], refLogProbs: [-0.5 + step] });
      const d = -0.5 + step - -0.5; // the Δ actually represented (Sterbenz: the subtraction is exact)
      const reference = exact(d);
      expect(Math.abs(e.k3[0]! - reference), `Δ = ${d}`).toBeLessThanOrEqual(1e-15 * reference);
    }
  });

  it('gives the mean of each estimator, returned or in out', () => {
    // Δ = log ρ − log π = [−1, 1, −2.5]: k1 = −Δ, k2 = Δ²/2, k3 = e^Δ − 1 − Δ, by hand.
    const input = { logProbs: [-1, -2, -0.5], refLogProbs: [-2, -1, -3] };
    const k1Mean = (1 - 1 + 2.5) / 3;
    const k2Mean = (0.5 + 0.5 + 3.125) / 3;
    const k3Mean = (Math.exp(-1) + (Math.exp(1) - 2) + (Math.exp(-2.5) + 1.5)) / 3;
    for (const e of [klEstimators(input), klEstimators(input, {})]) {
      expect(Math.abs(e.k1Mean - k1Mean)).toBeLessThanOrEqual(1e-15);
      expect(Math.abs(e.k2Mean - k2Mean)).toBeLessThanOrEqual(1e-15);
      expect(Math.abs(e.k3Mean - k3Mean)).toBeLessThanOrEqual(1e-15);
    }
  });

  it('returns +Infinity, never NaN, when exp(Δ) overflows', () => {
    const e = klEstimators({ logProbs: [-800], refLogProbs: [0] });
    expect(e.k3[0]).toBe(Number.POSITIVE_INFINITY);
    expect(e.dk3[0]).toBe(Number.NEGATIVE_INFINITY);
    expect(e.k1[0]).toBe(-800);
    expect(e.k2[0]).toBe(320000);
  });

  it('fills and returns out', () => {
    const out = {};
    const e = klEstimators({ logProbs: [-1, -2], refLogProbs: [-2, -1] }, out);
    expect(e).toBe(out);
    expect(e.k1Mean).toBe(0);
    expect(Array.from(e.dk2)).toEqual([1, -1]);
  });

  describe('rejects bad input', () => {
    it('rejects input that is not an object', () => {
      expect(() => klEstimators(7 as never)).toThrow(/^input must be an object, got 7/);
    });
    it('rejects empty or missing log-probabilities', () => {
      expect(() => klEstimators({ logProbs: [], refLogProbs: [] })).toThrow(
        /^logProbs must be a non-empty array or typed array, got an array of length 0/,
      );
      expect(() => klEstimators({ refLogProbs: [] } as never)).toThrow(/^logProbs must be a non-empty array/);
    });
    it('rejects a length mismatch', () => {
      expect(() => klEstimators({ logProbs: [-1, -1], refLogProbs: [-1] })).toThrow(
        /^refLogProbs.length must be logProbs.length = 2, got 1/,
      );
    });
    it('rejects non-finite or positive log-probabilities', () => {
      expect(() => klEstimators({ logProbs: [Number.NaN], refLogProbs: [-1] })).toThrow(
        /^logProbs\[0\] must be a log-probability in \[-1e\+50, 0\], got NaN/,
      );
      expect(() => klEstimators({ logProbs: [-1], refLogProbs: [Number.NEGATIVE_INFINITY] })).toThrow(
        /^refLogProbs\[0\] must be a log-probability .* got -Infinity/,
      );
      expect(() => klEstimators({ logProbs: [0.5], refLogProbs: [-1] })).toThrow(/^logProbs\[0\] .* got 0.5/);
    });
    it('rejects an out buffer of the wrong length', () => {
      expect(() => klEstimators({ logProbs: [-1], refLogProbs: [-1] }, { k2: new Float64Array(2) })).toThrow(
        /^out.k2 must be a Float64Array of length 1, got a Float64Array of length 2/,
      );
    });
  });
});
