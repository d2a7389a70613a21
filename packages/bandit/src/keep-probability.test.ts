import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { keepProbability } from './keep-probability.js';

/** 1 − p^n − (1 − p)^n for p = k / 2^m, exactly in rationals, then rounded once to a double. */
function exactKeep(k: number, m: number, n: number): number {
  const scale = 2n ** BigInt(m * n);
  const numerator = scale - BigInt(k) ** BigInt(n) - (2n ** BigInt(m) - BigInt(k)) ** BigInt(n);
  return Number(numerator) / Number(scale);
}

const dyadic = fc
  .integer({ min: 1, max: 12 })
  .chain((m) => fc.tuple(fc.integer({ min: 0, max: 2 ** m }), fc.constant(m)));

describe('keepProbability', () => {
  test.prop([dyadic, fc.integer({ min: 1, max: 60 })])(
    'matches the definition 1 − p^n − (1 − p)^n computed exactly',
    ([k, m], n) => {
      const expected = exactKeep(k, m, n);
      const got = keepProbability(k / 2 ** m, n);
      // Error analysis: log1p and the product n·log1p(−s) carry ~2ε relative, which expm1 of a negative
      // argument turns into at most ~2ε relative; subtracting s^n ≤ 2^{1−n}·(first term) at most doubles
      // it. 1e-14 ≈ 45ε covers this with room.
      if (expected === 0) expect(got).toBe(0);
      else expect(Math.abs(got - expected) / expected).toBeLessThan(1e-14);
    },
  );

  test.prop([fc.integer({ min: 0, max: 2 ** 20 }), fc.integer({ min: 1, max: 100 })])(
    'is symmetric in p ↔ 1 − p',
    (k, n) => {
      const p = k / 2 ** 20;
      expect(keepProbability(p, n)).toBe(keepProbability(1 - p, n));
    },
  );

  test.prop([fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 1, max: 200 })])(
    'grows with the number of probes and stays below 1 − 2^{1−n}',
    (p, n) => {
      expect(keepProbability(p, n + 1)).toBeGreaterThanOrEqual(keepProbability(p, n));
      expect(keepProbability(p, n)).toBeLessThanOrEqual(1 - 2 ** (1 - n) + 1e-15);
    },
  );

  it('keeps its relative accuracy for tiny p, where the naive formula gives 0', () => {
    // 1 − (1 − p)^n = np − binom(n, 2)p² + …, so for p = 1e-20 the answer is np to 1e-19 relative.
    for (const n of [2, 8, 1000]) {
      expect(Math.abs(keepProbability(1e-20, n) / (n * 1e-20) - 1)).toBeLessThan(1e-15);
      expect(1 - 1e-20 ** n - (1 - 1e-20) ** n).toBe(0);
    }
  });

  it('gives the research note values: n = 8 keeps 255/256 of coin-flip tasks and none of n = 1', () => {
    expect(keepProbability(0.5, 8)).toBe(255 / 256 - 1 / 256);
    expect(keepProbability(0.3, 1)).toBe(0);
    expect(keepProbability(0, 8)).toBe(0);
    expect(keepProbability(1, 8)).toBe(0);
  });

  it('rejects p outside [0, 1] and n that is not a positive integer, naming them', () => {
    expect(() => keepProbability(1.1, 8)).toThrow(new RangeError('p must be a number in [0, 1], got 1.1'));
    expect(() => keepProbability(Number.NaN, 8)).toThrow(
      new RangeError('p must be a number in [0, 1], got NaN'),
    );
    expect(() => keepProbability(0.5, 0)).toThrow(new RangeError('n must be an integer >= 1, got 0'));
    expect(() => keepProbability(0.5, 2.5)).toThrow(new RangeError('n must be an integer >= 1, got 2.5'));
    expect(() => keepProbability(0.5, '8' as unknown as number)).toThrow(TypeError);
  });
});
