import { fc, test } from '@fast-check/vitest';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { describe, expect, it } from 'vitest';
import { FALSE_ALARM_PER_TEST, worstBandExcess } from '../test/support/stats.js';
import { monteCarloOccupancy } from './monte-carlo-occupancy.js';
import { rankOccupancy } from './rank-occupancy.js';

const sizes = fc
  .integer({ min: 1, max: 60 })
  .chain((n) =>
    fc
      .integer({ min: 1, max: Math.min(n, 12) })
      .chain((C) => fc.tuple(fc.constant(n), fc.constant(C), fc.integer({ min: 1, max: C }))),
  );
const RUNS = 40;
const DRAWS = 20_000;
// Each rank's count is Binomial(DRAWS, K·P(r)). False alarm: at most 60 cells × RUNS runs, each at δ,
// so δ = FALSE_ALARM_PER_TEST / (60 · RUNS) makes the whole property fail by chance with p <= 1e-7.
const DELTA = FALSE_ALARM_PER_TEST / (60 * RUNS);

describe('monteCarloOccupancy', () => {
  test.prop([sizes, fc.integer()], { numRuns: RUNS })(
    'matches Eq. 5 (rankOccupancy) within Bernstein bands',
    ([n, C, K], seed) => {
      const estimate = monteCarloOccupancy(n, C, K, DRAWS, xoroshiro128plus(seed));
      const exact = rankOccupancy(n, C, K);
      const keptPerRank = estimate.map((q) => Math.round(q * K * DRAWS));
      const keepProbability = exact.map((p) => K * p);
      expect(worstBandExcess(keptPerRank, keepProbability, DRAWS, DELTA)).toBeLessThanOrEqual(1);
    },
  );

  it('has the power to reject a reference that is off by one rank', () => {
    // The same band test against P(r + 1) instead of P(r) must fail: the check is not vacuous.
    const [n, C, K] = [30, 5, 2];
    const estimate = monteCarloOccupancy(n, C, K, DRAWS, xoroshiro128plus(11));
    const exact = rankOccupancy(n, C, K);
    const shifted = exact.map((_, r) => K * (exact[r + 1] ?? 0));
    const keptPerRank = estimate.map((q) => Math.round(q * K * DRAWS));
    expect(worstBandExcess(keptPerRank, shifted, DRAWS, DELTA)).toBeGreaterThan(1);
  });

  it('sums to 1 and is reproducible from the seed', () => {
    const a = monteCarloOccupancy(100, 8, 3, 5000, xoroshiro128plus(5));
    const b = monteCarloOccupancy(100, 8, 3, 5000, xoroshiro128plus(5));
    expect(Array.from(a)).toEqual(Array.from(b));
    expect(a.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 12);
  });

  it('rejects bad arguments naming the parameter and the value', () => {
    const g = xoroshiro128plus(1);
    expect(() => monteCarloOccupancy(10, 3, 1, 0, g)).toThrow(/draws must be a positive integer.*got 0/);
    expect(() => monteCarloOccupancy(10, 3, 1, 1.5, g)).toThrow(/draws must be .*got 1\.5/);
    expect(() => monteCarloOccupancy(10, 11, 1, 10, g)).toThrow(/batchSize must be <= n \(10\), got 11/);
    expect(() => monteCarloOccupancy(10, 3, 4, 10, g)).toThrow(/keep must be <= batchSize \(3\), got 4/);
    expect(() => monteCarloOccupancy(2 ** 31 + 1, 3, 1, 10, g)).toThrow(
      new RangeError('n must be a positive integer <= 2147483648, got 2147483649'),
    );
    expect(() => monteCarloOccupancy(10, 3, 1, 10, () => 1)).toThrow(
      new RangeError('random must return numbers in [0, 1), got 1'),
    );
    expect(() => monteCarloOccupancy(10, 3, 1, 10, 42 as unknown as () => number)).toThrow(TypeError);
  });
});
