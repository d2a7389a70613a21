import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { dkwEpsilon, ksStatistic, meanVariance } from '../test/stats.js';
import { seededUniform } from './seeded-uniform.js';

const M64 = (1n << 64n) - 1n;

/** SplitMix64 (Steele, Lea and Flood 2014) written from its definition, 64-bit words as BigInt. */
function splitMix64Stream(seed: bigint): () => bigint {
  let x = BigInt.asUintN(64, seed);
  return () => {
    x = (x + 0x9e3779b97f4a7c15n) & M64;
    let z = x;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
    return z ^ (z >> 31n);
  };
}

function rotl(x: bigint, k: bigint): bigint {
  return ((x << k) | (x >> (64n - k))) & M64;
}

/** xoroshiro128+ (Blackman and Vigna 2018, parameters 24, 16, 37) on 64-bit BigInt words. */
function referenceUniforms(seed: number, count: number): number[] {
  const mix = splitMix64Stream(BigInt(seed));
  let s0 = mix();
  let s1 = mix();
  const next32 = (): number => {
    const result = (s0 + s1) & M64;
    s1 ^= s0;
    s0 = rotl(s0, 24n) ^ s1 ^ ((s1 << 16n) & M64);
    s1 = rotl(s1, 37n);
    return Number(result & 0xffffffffn);
  };
  return Array.from({ length: count }, () => {
    const a = next32() >>> 5;
    const b = next32() >>> 6;
    return (a * 2 ** 26 + b) / 2 ** 53;
  });
}

describe('seededUniform', () => {
  it('uses SplitMix64 as published (test vector of seed 1234567)', () => {
    const mix = splitMix64Stream(1234567n);
    expect([mix(), mix(), mix()]).toEqual([6457827717110365317n, 3203168211198807973n, 9817491932198370423n]);
  });

  test.prop([fc.maxSafeInteger()], { numRuns: 60 })(
    'matches xoroshiro128+ seeded by SplitMix64, bit for bit',
    (seed) => {
      const uniform = seededUniform(seed);
      const got = Array.from({ length: 16 }, () => uniform());
      expect(got).toEqual(referenceUniforms(seed, 16));
    },
  );

  test.prop([fc.integer(), fc.integer({ min: 1, max: 200 })], { numRuns: 40 })(
    'returns multiples of 2^-53 in [0, 1), the same for the same seed',
    (seed, count) => {
      const a = seededUniform(seed);
      const b = seededUniform(seed);
      for (let i = 0; i < count; i++) {
        const u = a();
        expect(Object.is(u, b())).toBe(true);
        expect(u >= 0 && u < 1).toBe(true);
        expect(Number.isInteger(u * 2 ** 53)).toBe(true);
      }
    },
  );

  it('gives unrelated first draws for consecutive seeds (KS against the uniform law)', () => {
    // Seeds 0..n−1, the first draw of each. Seeding xoroshiro128+'s state with the seed itself makes every
    // small seed's first draw exceed 0.9999 (D ≈ 1). DKW: P(D > ε) ≤ 2 exp(−2nε²) = 1e-8 at this ε.
    const n = 20_000;
    const firsts = Float64Array.from({ length: n }, (_, seed) => seededUniform(seed)());
    const d = ksStatistic(firsts, (x) => Math.min(1, Math.max(0, x)));
    expect(d).toBeLessThan(dkwEpsilon(n, 1e-8));
  });

  it('has the uniform law over a long stream (mean and KS)', () => {
    // n = 100 000 draws of one seed. Mean: sum of n terms in [0, 1) with variance 1/12 each; the CLT-free
    // bound is Hoeffding, P(|mean − 1/2| ≥ t) ≤ 2 exp(−2nt²), false alarm 1e-8 at t = √(ln(2e8)/(2n)).
    // KS: DKW at 1e-8.
    const n = 100_000;
    const uniform = seededUniform(20261005);
    const draws = Float64Array.from({ length: n }, () => uniform());
    const [mean] = meanVariance(draws);
    expect(Math.abs(mean - 0.5)).toBeLessThan(Math.sqrt(Math.log(2e8) / (2 * n)));
    expect(ksStatistic(draws, (x) => x)).toBeLessThan(dkwEpsilon(n, 1e-8));
    // Independence of neighbours: for disjoint pairs, the products u_{2i} u_{2i+1} (and, shifted by one,
    // u_{2i+1} u_{2i+2}) are m i.i.d. terms in [0, 1) of mean 1/4 under independence; Hoeffding at 1e-8
    // each. Total false alarm of the test 4e-8.
    const m = n / 2 - 1;
    const radius = Math.sqrt(Math.log(2e8) / (2 * m));
    for (const shift of [0, 1]) {
      let products = 0;
      for (let i = 0; i < m; i++) products += draws[2 * i + shift]! * draws[2 * i + shift + 1]!;
      expect(Math.abs(products / m - 0.25)).toBeLessThan(radius);
    }
  });

  it('rejects a seed that is not a safe integer, naming it', () => {
    expect(() => seededUniform(1.5)).toThrow(new RangeError('seed must be a safe integer, got 1.5'));
    expect(() => seededUniform(Number.NaN)).toThrow(new RangeError('seed must be a safe integer, got NaN'));
    expect(() => seededUniform(2 ** 53)).toThrow(RangeError);
    expect(() => seededUniform('1' as unknown as number)).toThrow(
      new TypeError('seed must be a safe integer, got "1"'),
    );
  });
});
