import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { shortfallProbability } from './shortfall-probability.js';

function binomial(n: number, k: number): bigint {
  let result = 1n;
  for (let i = 0; i < k; i++) result = (result * BigInt(n - i)) / BigInt(i + 1);
  return result;
}

/** numerator / denominator for non-negative BigInts (denominator > 0), rounded to a double. */
function ratio(numerator: bigint, denominator: bigint): number {
  if (numerator === 0n) return 0;
  // Keep about 70 significant bits in the integer quotient, then scale by 2^-shift in two exact halves.
  const shift = 70 - (numerator.toString(2).length - denominator.toString(2).length);
  const quotient = (numerator << BigInt(shift)) / denominator;
  const half = Math.floor(shift / 2);
  return Number(quotient) * 2 ** -half * 2 ** -(shift - half);
}

/** Σ_{j<K} binom(C, j) a^j (b − a)^{C−j} / b^C exactly in rationals, rounded to a double. */
function exactShortfall(a: number, b: number, batchSize: number, keep: number): number {
  let numerator = 0n;
  for (let j = 0; j < keep; j++) {
    numerator += binomial(batchSize, j) * BigInt(a) ** BigInt(j) * BigInt(b - a) ** BigInt(batchSize - j);
  }
  return ratio(numerator, BigInt(b) ** BigInt(batchSize));
}

const caseArb = fc.integer({ min: 1, max: 80 }).chain((batchSize) =>
  fc.tuple(
    fc.constant(batchSize),
    fc.integer({ min: 1, max: batchSize }),
    fc
      .integer({ min: 1, max: 10 })
      .chain((m) => fc.tuple(fc.integer({ min: 0, max: 2 ** m }), fc.constant(2 ** m))),
  ),
);

describe('shortfallProbability', () => {
  test.prop([caseArb])('matches the binomial sum computed exactly', ([batchSize, keep, [a, b]]) => {
    const p = a / b;
    const expected = exactShortfall(a, b, batchSize, keep);
    const got = shortfallProbability(p, batchSize, keep);
    // Error analysis (see the TSDoc): about ε(|C·log1p(−p)| + 4K) relative; twice that plus 16ε here.
    const eps = 2 ** -52;
    const tolerance = 2 * eps * (Math.abs(batchSize * Math.log1p(-p)) + 4 * keep) + 16 * eps;
    if (expected === 0) expect(got).toBe(0);
    else expect(Math.abs(got - expected) / expected).toBeLessThan(tolerance);
  });

  it('gives the tie-heavy values exactly: 2944/3125 at p = 1/5 and 0.9887895194 at p = 0.11', () => {
    // For p = 1/5: (4^5 + 5·4^4 + 10·4^3) / 5^5 = 2944 / 3125.
    expect(4 ** 5 + 5 * 4 ** 4 + 10 * 4 ** 3).toBe(2944);
    expect(Math.abs(shortfallProbability(0.2, 5, 3) - 2944 / 3125)).toBeLessThan(1e-15);
    // For p = 11/100: (89^5 + 5·11·89^4 + 10·11²·89^3) / 100^5.
    const numerator = 89n ** 5n + 5n * 11n * 89n ** 4n + 10n * 121n * 89n ** 3n;
    expect(numerator).toBe(9_887_895_194n);
    expect(Math.abs(shortfallProbability(0.11, 5, 3) - 0.9887895194)).toBeLessThan(1e-15);
  });

  it('stays accurate for large minibatches where the terms underflow', () => {
    // For p = 1/2 and even C, symmetry gives P(S < C/2) = (1 − binom(C, C/2) 2^−C) / 2 exactly.
    const batchSize = 4000;
    const half = shortfallProbability(0.5, batchSize, batchSize / 2);
    const centre = ratio(binomial(batchSize, batchSize / 2), 2n ** BigInt(batchSize));
    expect(Math.abs(half - (1 - centre) / 2)).toBeLessThan(1e-12);
    expect(shortfallProbability(0.999, 5000, 4000)).toBeGreaterThanOrEqual(0);
    expect(shortfallProbability(1e-300, 1000, 1)).toBe(1);
  });

  it('handles the edges p = 0, p = 1 and K = C', () => {
    expect(shortfallProbability(0, 5, 3)).toBe(1);
    expect(shortfallProbability(1, 5, 5)).toBe(0);
    // K = C: fewer than C successes is everything but all successes, 1 − p^C.
    expect(shortfallProbability(0.5, 5, 5)).toBeCloseTo(1 - 1 / 32, 15);
  });

  it('rejects p, batchSize and keep out of domain, naming them', () => {
    expect(() => shortfallProbability(-0.1, 5, 3)).toThrow(
      new RangeError('p must be a number in [0, 1], got -0.1'),
    );
    expect(() => shortfallProbability(0.2, 0, 1)).toThrow(
      new RangeError('batchSize must be an integer >= 1, got 0'),
    );
    expect(() => shortfallProbability(0.2, 5, 6)).toThrow(
      new RangeError('keep must be an integer in [1, 5], got 6'),
    );
    expect(() => shortfallProbability(0.2, 5, 0)).toThrow(
      new RangeError('keep must be an integer in [1, 5], got 0'),
    );
    expect(() => shortfallProbability(0.2, 5.5, 3)).toThrow(RangeError);
  });
});
