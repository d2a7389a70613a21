import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { binomial, occupancyNumerators, ratioToNumber } from '../test/support/exact.js';
import { expectedCounts } from './expected-counts.js';

/**
 * Exact expected counts from Eq. 5 in rational arithmetic: an item in a block of t tied returns with a
 * better items gets J · Σ_{r=a+1..a+t} num(r) / (t · binom(n, C)); items not above the threshold get 0.
 */
function exactExpected(returns: number[], J: number, C: number, K: number, threshold?: number): number[] {
  const n = returns.length;
  const numerators = occupancyNumerators(n, C, K);
  const den = binomial(n, C);
  return returns.map((v) => {
    if (threshold !== undefined && !(v > threshold)) return 0;
    const better = returns.filter((w) => w > v).length;
    const tied = returns.filter((w) => w === v).length;
    let sum = 0n;
    for (let r = better + 1; r <= better + tied; r++) sum += numerators[r - 1]!;
    return ratioToNumber(BigInt(J) * sum, BigInt(tied) * den);
  });
}

const cases = fc
  .integer({ min: 1, max: 30 })
  .chain((n) =>
    fc
      .integer({ min: 1, max: n })
      .chain((C) =>
        fc.tuple(
          fc.array(fc.integer({ min: 0, max: 3 }), { minLength: n, maxLength: n }),
          fc.constant(C),
          fc.integer({ min: 1, max: C }),
          fc.integer({ min: 1, max: 1000 }),
          fc.option(fc.integer({ min: -1, max: 3 }), { nil: undefined }),
        ),
      ),
  );

describe('expectedCounts', () => {
  test.prop([cases])(
    'equals the exact rational expectation, with ties and thresholds',
    ([returns, C, K, J, threshold]) => {
      const got = expectedCounts(returns, { batches: J, batchSize: C, keep: K, threshold });
      const exact = exactExpected(returns, J, C, K, threshold);
      got.forEach((g, i) => {
        const e = exact[i]!;
        if (e === 0) expect(g).toBe(0);
        else expect(Math.abs(g - e) / e).toBeLessThanOrEqual(1e-12);
      });
    },
  );

  test.prop([cases])('sums to J·K without a threshold', ([returns, C, K, J]) => {
    const got = expectedCounts(returns, { batches: J, batchSize: C, keep: K });
    expect(Math.abs(got.reduce((s, v) => s + v, 0) - J * K)).toBeLessThanOrEqual(1e-12 * J * K);
  });

  it('gives the worked examples of the README', () => {
    expect(Array.from(expectedCounts([1, 0, 1, 0], { batches: 6, batchSize: 2, keep: 1 }))).toEqual([
      2.5, 0.5, 2.5, 0.5,
    ]);
    expect(
      Array.from(expectedCounts([1, 0, 1, 0], { batches: 6, batchSize: 2, keep: 1, threshold: 0 })),
    ).toEqual([2.5, 0, 2.5, 0]);
  });

  it('treats -0 and 0 as the same return', () => {
    expect(Array.from(expectedCounts([-0, 0, 1], { batches: 3, batchSize: 2, keep: 1 }))).toEqual(
      Array.from(expectedCounts([0, 0, 1], { batches: 3, batchSize: 2, keep: 1 })),
    );
  });

  it('handles a million-item pool of binary returns', () => {
    const returns = new Float64Array(1_000_000).map((_, i) => (i % 10 === 0 ? 1 : 0));
    const e = expectedCounts(returns, { batches: 4, batchSize: 5, keep: 3 });
    // Without a threshold the J·K = 12 expected selections are split between the two tied blocks.
    const total = e.reduce((s, v) => s + v, 0);
    expect(Math.abs(total - 12)).toBeLessThan(1e-9);
    expect(e[0]).toBeGreaterThan(e[1]!);
  });

  it('rejects bad input naming the parameter', () => {
    expect(() => expectedCounts([], { batches: 1, batchSize: 1, keep: 1 })).toThrow(
      /returns must not be empty/,
    );
    expect(() => expectedCounts([1, Number.NaN], { batches: 1, batchSize: 1, keep: 1 })).toThrow(
      /returns\[1\]/,
    );
    expect(() => expectedCounts([1, 2], { batches: -1, batchSize: 1, keep: 1 })).toThrow(/batches .*got -1/);
    expect(() => expectedCounts([1, 2], { batches: 1, batchSize: 3, keep: 1 })).toThrow(
      /batchSize must be <= returns\.length/,
    );
    expect(() => expectedCounts([1, 2], { batches: 1, batchSize: 2, keep: 3 })).toThrow(
      /keep must be <= batchSize/,
    );
    expect(() =>
      expectedCounts([1, 2], { batches: 1, batchSize: 2, keep: 1, threshold: Number.POSITIVE_INFINITY }),
    ).toThrow(/threshold must be a finite number/);
  });
});
