import { describe, expect, it } from 'vitest';
import { computeOccupancy } from './occupancy-command.js';

/** binom(n, k) exactly, 0 when k is out of range. */
function binomial(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let b = 1n;
  for (let i = 1; i <= k; i++) b = (b * BigInt(n - k + i)) / BigInt(i);
  return b;
}

/** Eq. 5 as an exact fraction: P(r | N, C, K) = Σ_{k=1..K} binom(r−1, k−1) binom(N−r, C−k) / (K binom(N, C)). */
function occupancy(n: number, c: number, k: number, r: number): { num: bigint; den: bigint } {
  let num = 0n;
  for (let j = 1; j <= k; j++) num += binomial(r - 1, j - 1) * binomial(n - r, c - j);
  return { num, den: BigInt(k) * binomial(n, c) };
}

describe('computeOccupancy', () => {
  const draws = 2000;
  const pairs = [
    { batchSize: 3, keep: 1 },
    { batchSize: 5, keep: 2 },
  ];
  const result = computeOccupancy({ n: 12, pairs, draws, seed: 0, pointsEvery: 4 });

  it('gives every rank its exact P(r | N, C, K) of Eq. 5 and a Monte Carlo share of the draws', () => {
    expect(result.rows).toHaveLength(2 * 12);
    for (const [i, row] of result.rows.entries()) {
      const { batchSize, keep } = pairs[Math.floor(i / 12)]!;
      expect([row.batchSize, row.keep, row.rank]).toEqual([batchSize, keep, (i % 12) + 1]);
      const { num, den } = occupancy(12, batchSize, keep, row.rank);
      expect(Math.abs(row.exact - Number(num) / Number(den))).toBeLessThanOrEqual(1e-15);
      // Each minibatch keeps rank r at most once: the estimate is a count over K · draws.
      const count = row.monteCarlo * keep * draws;
      expect(Math.abs(count - Math.round(count))).toBeLessThan(1e-6);
    }
  });

  it('summarises each pair: the best rank’s share, Σ_r P(r), and the largest |Monte Carlo − exact|', () => {
    expect(result.summary).toMatchObject({ n: 12, draws, seed: 0 });
    let underestimates = 0;
    for (const [p, pair] of result.summary.pairs.entries()) {
      const rows = result.rows.slice(12 * p, 12 * (p + 1));
      const { batchSize, keep } = pairs[p]!;
      expect([pair.batchSize, pair.keep]).toEqual([batchSize, keep]);
      // P(1) = C/(K·N) by Eq. 5: binom(N−1, C−1) / (K binom(N, C)).
      expect(Math.abs(pair.top - batchSize / (keep * 12))).toBeLessThanOrEqual(1e-15);
      expect(Math.abs(pair.sum - 1)).toBeLessThanOrEqual(1e-12);
      const errors = rows.map((row) => Math.abs(row.monteCarlo - row.exact));
      expect(pair.maxAbsError).toBe(Math.max(...errors));
      if (pair.maxAbsError > Math.max(...rows.map((row) => row.monteCarlo - row.exact))) underestimates++;
    }
    // Some pair's largest error is an underestimate, so a signed maximum would be caught here.
    expect(underestimates).toBeGreaterThan(0);
  });

  it('writes the rows as CSV and draws Monte Carlo points every `pointsEvery` ranks from rank 1', () => {
    const lines = result.csv.trimEnd().split('\n');
    expect(lines[0]).toBe('n,batchSize,keep,rank,exact,monteCarlo');
    expect(lines.slice(1)).toEqual(
      result.rows.map((r) => `12,${r.batchSize},${r.keep},${r.rank},${r.exact},${r.monteCarlo}`),
    );
    const dotted = result.points.filter((p) => p.monteCarlo !== null).map((p) => `${p.pair} ${p.rank}`);
    expect(dotted).toEqual([
      'C=3, K=1 1',
      'C=3, K=1 5',
      'C=3, K=1 9',
      'C=5, K=2 1',
      'C=5, K=2 5',
      'C=5, K=2 9',
    ]);
    expect(result.points.map((p) => p.exact)).toEqual(result.rows.map((r) => r.exact));
  });
});
