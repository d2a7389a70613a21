import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  binomial,
  occupancyNumerator,
  occupancyNumerators,
  ratioToNumber,
  relativeError,
} from '../test/support/exact.js';
import { rankOccupancy } from './rank-occupancy.js';

/** Required accuracy: relative 1e-12 for every value above 1e-300 (issue 2). */
const TOLERANCE = 1e-12;
const SMALLEST_CHECKED = 1e-300;

/** Largest relative error of rankOccupancy(n, C, K) against the exact rationals, over every rank. */
function maxRelativeError(n: number, C: number, K: number): number {
  const p = rankOccupancy(n, C, K);
  const numerators = occupancyNumerators(n, C, K);
  const den = BigInt(K) * binomial(n, C);
  let worst = 0;
  for (let r = 1; r <= n; r++) {
    const num = numerators[r - 1]!;
    const value = p[r - 1]!;
    if (!(value >= 0) || (num === 0n && value !== 0)) return Number.POSITIVE_INFINITY;
    if (ratioToNumber(num, den) > SMALLEST_CHECKED) worst = Math.max(worst, relativeError(value, num, den));
  }
  return worst;
}

/** Σ p with Neumaier compensation, so the check measures p and not the summation. */
function compensatedSum(p: Float64Array): number {
  let sum = 0;
  let c = 0;
  for (const v of p) {
    const t = sum + v;
    c += Math.abs(sum) >= Math.abs(v) ? sum - t + v : v - t + sum;
    sum = t;
  }
  return sum + c;
}

describe('rankOccupancy', () => {
  it('gives the worked example of the README', () => {
    const p = rankOccupancy(5, 2, 1);
    expect(Array.from(p).map((v) => Number(v.toFixed(15)))).toEqual([0.4, 0.3, 0.2, 0.1, 0]);
  });

  it('matches the exact rationals for every (n, C, K) with n <= 24', () => {
    for (let n = 1; n <= 24; n++) {
      for (let C = 1; C <= n; C++) {
        for (let K = 1; K <= C; K++) expect(maxRelativeError(n, C, K)).toBeLessThanOrEqual(TOLERANCE);
      }
    }
  });

  it('matches the exact rationals on a grid of medium sizes', () => {
    const grid: Array<[number, number, number]> = [
      [128, 4, 1],
      [128, 5, 3],
      [128, 32, 8],
      [257, 2, 1],
      [500, 50, 49],
      [1000, 5, 1],
      [1000, 64, 16],
      [2000, 10, 3],
      [2000, 40, 1],
      [3000, 30, 29],
      [5000, 16, 4],
    ];
    for (const [n, C, K] of grid) expect(maxRelativeError(n, C, K)).toBeLessThanOrEqual(TOLERANCE);
  });

  test.prop(
    [
      fc
        .integer({ min: 1, max: 400 })
        .chain((n) =>
          fc
            .integer({ min: 1, max: Math.min(n, 40) })
            .chain((C) => fc.tuple(fc.constant(n), fc.constant(C), fc.integer({ min: 1, max: C }))),
        ),
    ],
    { numRuns: 60 },
  )('matches the exact rationals for arbitrary (n, C, K)', ([n, C, K]) => {
    expect(maxRelativeError(n, C, K)).toBeLessThanOrEqual(TOLERANCE);
  });

  it('is exact at large n, down to values near 1e-300', () => {
    for (const [n, C, K] of [
      [1_000_000, 256, 16],
      [10_000_000, 256, 16],
      [10_000_000, 2, 1],
      [10_000_000, 40, 39],
      [100_000, 1000, 100],
    ] as Array<[number, number, number]>) {
      const p = rankOccupancy(n, C, K);
      const den = BigInt(K) * binomial(n, C);
      // The first rank below each of 1e-5, 1e-15, …, 1e-295 (down to the 1e-300 limit), plus fixed ranks.
      const ranks = new Set([1, 2, K, K + 1, Math.ceil(n / 3), n - C + K, n]);
      let nextDecade = 1e-5;
      for (let r = 1; r <= n; r++) {
        if (p[r - 1]! < nextDecade && p[r - 1]! > 1e-300) {
          ranks.add(r);
          nextDecade = p[r - 1]! / 1e10;
        }
      }
      for (const r of ranks) {
        const num = occupancyNumerator(n, C, K, r);
        if (ratioToNumber(num, den) > SMALLEST_CHECKED) {
          expect(relativeError(p[r - 1]!, num, den), `n=${n} C=${C} K=${K} r=${r}`).toBeLessThanOrEqual(
            TOLERANCE,
          );
        } else {
          expect(p[r - 1]!).toBeLessThan(1e-290);
        }
      }
      expect(Math.abs(compensatedSum(p) - 1)).toBeLessThanOrEqual(TOLERANCE);
    }
  });

  it('is uniform when K = C', () => {
    for (const [n, C] of [
      [1, 1],
      [7, 3],
      [1000, 1000],
      [123_457, 64],
    ] as const) {
      expect(rankOccupancy(n, C, C).every((v) => v === 1 / n)).toBe(true);
    }
  });

  it('is whole-pool CEM when C = n: 1/K for the K best, else 0', () => {
    for (const [n, K] of [
      [10, 3],
      [128, 1],
      [1000, 999],
    ] as const) {
      const p = rankOccupancy(n, n, K);
      p.forEach((v, i) => {
        expect(v).toBe(i < K ? 1 / K : 0);
      });
    }
  });

  test.prop([
    fc.integer({ min: 1, max: 3000 }).chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 1, max: n }))),
  ])('equals binom(n − r, C − 1) / binom(n, C) when K = 1', ([n, C]) => {
    const p = rankOccupancy(n, C, 1);
    const den = binomial(n, C);
    for (const r of [1, 2, Math.ceil(n / 2), n - C, n - C + 1, n]) {
      if (r < 1 || r > n) continue;
      const num = binomial(n - r, C - 1);
      if (num === 0n) expect(p[r - 1]).toBe(0);
      else if (ratioToNumber(num, den) > SMALLEST_CHECKED) {
        expect(relativeError(p[r - 1]!, num, den)).toBeLessThanOrEqual(TOLERANCE);
      }
    }
  });

  test.prop(
    [
      fc
        .integer({ min: 1, max: 2_000_000 })
        .chain((n) =>
          fc
            .integer({ min: 1, max: Math.min(n, 3000) })
            .chain((C) => fc.tuple(fc.constant(n), fc.constant(C), fc.integer({ min: 1, max: C }))),
        ),
    ],
    { numRuns: 25 },
  )('sums to 1, is non-increasing, finite and non-negative for large n', ([n, C, K]) => {
    const p = rankOccupancy(n, C, K);
    expect(Math.abs(compensatedSum(p) - 1)).toBeLessThanOrEqual(TOLERANCE);
    // P(r) − P(r + 1) = d(r) ≥ 0. Neighbours that are equal to within the stated accuracy (e.g. ranks K and
    // K + 1, which differ by about (C/n)^K) may come out in either order.
    let bad = -1;
    for (let i = 0; i < n && bad < 0; i++) {
      const v = p[i]!;
      if (!(Number.isFinite(v) && v >= 0) || (i > 0 && v > p[i - 1]! * (1 + TOLERANCE))) bad = i;
    }
    expect(bad).toBe(-1);
  });

  it('stays finite and exact when C − K is large, where d grows by up to C − K per rank', () => {
    // Near the last keepable rank d(j − 1)/d(j) is about (C − K)/(n − j − C + K + 1), hundreds per rank
    // for thousands of ranks here: the running values must be rescaled often enough not to overflow.
    // Reference for K = 1 (Eq. 5): P(1) = C/n, P(r + 1) = P(r) · (n − r − C + 1)/(n − r), a product of
    // at most n ratios in doubles, so its relative error is below 2n·eps ≈ 9e-10.
    const [n, C] = [2_000_000, 500_000];
    const p = rankOccupancy(n, C, 1);
    let reference = C / n;
    let worst = 0;
    let checked = 0;
    for (let r = 1; r <= n && reference > SMALLEST_CHECKED; r++) {
      const error = Math.abs(p[r - 1]! - reference) / reference;
      if (!(error <= worst)) worst = error;
      checked++;
      reference *= (n - r - C + 1) / (n - r);
    }
    expect(checked).toBeGreaterThan(1000);
    expect(worst).toBeLessThanOrEqual(1e-9);
    const q = rankOccupancy(n, C, 1000);
    expect(q.every((v) => Number.isFinite(v) && v >= 0)).toBe(true);
    expect(Math.abs(compensatedSum(q) - 1)).toBeLessThanOrEqual(TOLERANCE);
  });

  it('writes into an out array without allocating a new one', () => {
    const out = new Float64Array(50);
    expect(rankOccupancy(50, 5, 2, out)).toBe(out);
    expect(Array.from(out)).toEqual(Array.from(rankOccupancy(50, 5, 2)));
  });

  it('rejects bad sizes with errors that name the parameter and the value', () => {
    expect(() => rankOccupancy(0, 1, 1)).toThrow(
      new RangeError('n must be a positive integer <= 4294967295, got 0'),
    );
    expect(() => rankOccupancy(10.5, 1, 1)).toThrow(/n must be a positive integer.*got 10\.5/);
    expect(() => rankOccupancy(Number.NaN, 1, 1)).toThrow(/n must be .*got NaN/);
    expect(() => rankOccupancy(Number.POSITIVE_INFINITY, 1, 1)).toThrow(/n must be .*got Infinity/);
    expect(() => rankOccupancy('5' as unknown as number, 1, 1)).toThrow(TypeError);
    expect(() => rankOccupancy(10, -2, 1)).toThrow(/batchSize must be a positive integer.*got -2/);
    expect(() => rankOccupancy(10, 3, 4)).toThrow(new RangeError('keep must be <= batchSize (3), got 4'));
    expect(() => rankOccupancy(10, 11, 1)).toThrow(new RangeError('batchSize must be <= n (10), got 11'));
    expect(() => rankOccupancy(10, 3, 0)).toThrow(/keep must be a positive integer.*got 0/);
    expect(() => rankOccupancy(10, 3, 1, new Float64Array(9))).toThrow(
      /out must have length n \(10\), got 9/,
    );
    expect(() => rankOccupancy(10, 3, 1, [] as unknown as Float64Array)).toThrow(TypeError);
  });
});
