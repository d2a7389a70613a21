import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  chiSquareInterval,
  counting,
  dkwEpsilon,
  ksStatistic,
  meanVariance,
  normalRadius,
} from '../test/stats.js';
import { normalCdf } from './normal-cdf.js';
import { NormalSampler } from './normal-sampler.js';
import { seededUniform } from './seeded-uniform.js';

const RUNS = 5;
const N = 60_000;

function draws(sampler: NormalSampler, n: number): Float64Array {
  return Float64Array.from({ length: n }, () => sampler.next());
}

describe('NormalSampler', () => {
  // Each run makes 5 checks at δ = 1e-9 (mean, variance, KS, and the variances of two families of
  // disjoint sums); 5 runs give a false-alarm probability of at most 2.5e-8 for the property.
  test.prop([fc.integer()], { numRuns: RUNS })(
    'draws N(0, 1): mean, variance and KS match the normal law',
    (seed) => {
      const z = draws(new NormalSampler(seededUniform(seed)), N);
      const [mean, variance] = meanVariance(z);
      // The mean of N standard normals is N(0, 1/N) exactly: Chernoff radius.
      expect(Math.abs(mean)).toBeLessThan(normalRadius(1e-9) / Math.sqrt(N));
      // (N − 1) s² ~ χ²_{N−1}: Laurent–Massart interval.
      const [low, high] = chiSquareInterval(N - 1, 1e-9);
      expect((N - 1) * variance).toBeGreaterThan(low);
      expect((N - 1) * variance).toBeLessThan(high);
      // Kolmogorov–Smirnov against Φ with the DKW critical value.
      expect(ksStatistic(z, (x) => normalCdf(x))).toBeLessThan(dkwEpsilon(N, 1e-9));
      // The two values of a Box–Muller pair, and values of neighbouring pairs, are independent: the sums
      // (z_{2i+s} + z_{2i+s+1})/√2 are i.i.d. N(0, 1), so Σ of their squares is χ²_m. A sampler returning
      // the cached value twice, or a correlated pair, doubles or shrinks this variance.
      const m = N / 2 - 1;
      const [pairLow, pairHigh] = chiSquareInterval(m, 1e-9);
      for (const shift of [0, 1]) {
        let squares = 0;
        for (let i = 0; i < m; i++) squares += (z[2 * i + shift]! + z[2 * i + shift + 1]!) ** 2 / 2;
        expect(squares).toBeGreaterThan(pairLow);
        expect(squares).toBeLessThan(pairHigh);
      }
    },
  );

  it('consumes exactly two uniforms per pair of normals', () => {
    const counter = counting(seededUniform(3));
    const sampler = new NormalSampler(counter.random);
    const seen: number[] = [];
    for (let i = 0; i < 7; i++) {
      sampler.next();
      seen.push(counter.count());
    }
    expect(seen).toEqual([2, 2, 4, 4, 6, 6, 8]);
  });

  it('is the Box–Muller transform of its uniforms', () => {
    const sampler = new NormalSampler(seededUniform(11));
    const uniform = seededUniform(11);
    for (let i = 0; i < 10; i++) {
      const u1 = uniform();
      const u2 = uniform();
      const r = Math.sqrt(-2 * Math.log(1 - u1));
      expect(sampler.next()).toBe(r * Math.cos(2 * Math.PI * u2));
      expect(sampler.next()).toBe(r * Math.sin(2 * Math.PI * u2));
    }
  });

  it('drops the cached value on reset, so a new stream starts clean', () => {
    const sampler = new NormalSampler(seededUniform(1));
    sampler.next(); // leaves the second value of the pair cached
    sampler.reset(seededUniform(2));
    const fresh = new NormalSampler(seededUniform(2));
    expect(draws(sampler, 5)).toEqual(draws(fresh, 5));
  });

  it('stays finite at the extreme uniforms 0 and 1 − 2^-53', () => {
    const extremes = [0, 1 - 2 ** -53, 1 - 2 ** -53, 0];
    let i = 0;
    const sampler = new NormalSampler(() => extremes[i++]!);
    const a = sampler.next();
    const b = sampler.next();
    expect([a, b].every(Number.isFinite)).toBe(true);
    expect(Math.abs(sampler.next())).toBeCloseTo(Math.sqrt(2 * 53 * Math.LN2), 12);
  });

  it('rejects a random that is not a function, naming it', () => {
    expect(() => new NormalSampler(3 as unknown as () => number)).toThrow(
      new TypeError('random must be a function, got 3'),
    );
    expect(() => new NormalSampler(Math.random).reset(null as unknown as () => number)).toThrow(TypeError);
  });
});
