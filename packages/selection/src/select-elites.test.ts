import { fc, test } from '@fast-check/vitest';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { describe, expect, it } from 'vitest';
import { FALSE_ALARM_PER_TEST, worstBandExcess } from '../test/support/stats.js';
import { EliteSampler } from './elite-sampler.js';
import { expectedCounts } from './expected-counts.js';
import { rankOccupancy } from './rank-occupancy.js';
import { selectElites } from './select-elites.js';

const sizes = fc
  .integer({ min: 1, max: 40 })
  .chain((n) =>
    fc
      .integer({ min: 1, max: Math.min(n, 10) })
      .chain((C) => fc.tuple(fc.constant(n), fc.constant(C), fc.integer({ min: 1, max: C }))),
  );
const RUNS = 30;
const BATCHES = 20_000;
// Item i's count is a sum of BATCHES independent indicators (kept or not in each minibatch). At most
// 40 cells × RUNS runs per property at δ each: each property fails by chance with p <= 1e-7.
const DELTA = FALSE_ALARM_PER_TEST / (40 * RUNS);

/** A random permutation of 0..n−1 (distinct returns with known ranks). */
function permutation(n: number, seed: number): number[] {
  const g = xoroshiro128plus(seed);
  const out = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = (g.next() >>> 0) % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('selectElites', () => {
  test.prop([sizes, fc.integer()], { numRuns: RUNS })(
    'keeps each rank as often as Eq. 5 says, on distinct returns',
    ([n, C, K], seed) => {
      const returns = permutation(n, seed).map((v) => v * 0.5 - 3);
      const { counts } = selectElites(
        returns,
        { batches: BATCHES, batchSize: C, keep: K },
        xoroshiro128plus(seed),
      );
      const p = rankOccupancy(n, C, K);
      // The item holding return value v has rank n − index(v in ascending order).
      const keepProbability = returns.map((v) => K * p[n - 1 - (v + 3) / 0.5]!);
      expect(worstBandExcess(counts, keepProbability, BATCHES, DELTA)).toBeLessThanOrEqual(1);
    },
  );

  test.prop(
    [
      sizes,
      fc.integer(),
      fc.integer({ min: 1, max: 4 }),
      fc.option(fc.integer({ min: -1, max: 3 }), { nil: undefined }),
    ],
    { numRuns: RUNS },
  )('matches expectedCounts with heavy ties and with a threshold', ([n, C, K], seed, levels, threshold) => {
    const g = xoroshiro128plus(seed ^ 0x5bd1e995);
    const returns = Array.from({ length: n }, () => (g.next() >>> 0) % levels);
    const options = { batches: BATCHES, batchSize: C, keep: K, threshold };
    const { counts } = selectElites(returns, options, xoroshiro128plus(seed));
    const expected = expectedCounts(returns, options);
    const perBatch = expected.map((e) => e / BATCHES);
    expect(worstBandExcess(counts, perBatch, BATCHES, DELTA)).toBeLessThanOrEqual(1);
  });

  // Large minibatches with a small K (many heap replacements). 3 sizes × at most 200 cells at δ each:
  // fails by chance with p <= 1e-7.
  it('keeps each rank as often as Eq. 5 says on large minibatches, with ties and a threshold', () => {
    const delta = FALSE_ALARM_PER_TEST / (3 * 200);
    for (const [n, C, K] of [
      [200, 64, 2],
      [150, 100, 5],
      [120, 96, 12],
    ] as const) {
      const distinct = permutation(n, n + C);
      const batches = 4000;
      const { counts } = selectElites(distinct, { batches, batchSize: C, keep: K }, xoroshiro128plus(C));
      const p = rankOccupancy(n, C, K);
      const keepProbability = distinct.map((v) => K * p[n - 1 - v]!);
      expect(worstBandExcess(counts, keepProbability, batches, delta)).toBeLessThanOrEqual(1);
      const g = xoroshiro128plus(K);
      const tied = Array.from({ length: n }, () => (g.next() >>> 0) % 5);
      for (const threshold of [undefined, 2]) {
        const options = { batches, batchSize: C, keep: K, threshold };
        const sampled = selectElites(tied, options, xoroshiro128plus(n)).counts;
        const perBatch = expectedCounts(tied, options).map((e) => e / batches);
        expect(worstBandExcess(sampled, perBatch, batches, delta)).toBeLessThanOrEqual(1);
      }
    }
  });

  it('has the power to reject wrong tie handling', () => {
    // Ranking ties by position (a stable sort without shuffling) instead of at random must be caught.
    const returns = [1, 1, 1, 1, 0, 0, 0, 0];
    const options = { batches: BATCHES, batchSize: 4, keep: 2 };
    const { counts } = selectElites(returns, options, xoroshiro128plus(3));
    const p = rankOccupancy(8, 4, 2);
    const byPosition = returns.map((_, i) => 2 * p[i]!);
    expect(worstBandExcess(counts, byPosition, BATCHES, DELTA)).toBeGreaterThan(1);
  });

  test.prop([sizes, fc.integer({ min: 1, max: 50 }), fc.integer()])(
    'selects J·K items whose counts sum to J·K, batch by batch, without a threshold',
    ([n, C, K], J, seed) => {
      const g = xoroshiro128plus(seed);
      const returns = Array.from({ length: n }, () => (g.next() >>> 0) % 3);
      const { indices, counts, offsets } = selectElites(returns, { batches: J, batchSize: C, keep: K }, g);
      expect(indices.length).toBe(J * K);
      expect(counts.reduce((s, c) => s + c, 0)).toBe(J * K);
      expect(Array.from(offsets)).toEqual(Array.from({ length: J + 1 }, (_, b) => b * K));
      const recount = new Uint32Array(n);
      for (const i of indices) recount[i]!++;
      expect(Array.from(recount)).toEqual(Array.from(counts));
    },
  );

  const anySizes = fc.oneof(
    sizes,
    // Large minibatches with a small K.
    fc
      .integer({ min: 64, max: 300 })
      .chain((n) =>
        fc
          .integer({ min: 64, max: n })
          .chain((C) =>
            fc.tuple(fc.constant(n), fc.constant(C), fc.integer({ min: 1, max: Math.floor(C / 8) })),
          ),
      ),
  );
  test.prop([anySizes, fc.integer(), fc.integer({ min: -1, max: 2 })])(
    'keeps, in every minibatch, the best items only, and all eligible ones up to K',
    ([n, C, K], seed, threshold) => {
      const g = xoroshiro128plus(seed);
      const returns = Array.from({ length: n }, () => (g.next() >>> 0) % 4);
      for (const t of [undefined, threshold]) {
        const sampler = new EliteSampler(returns, { batchSize: C, keep: K, threshold: t }, g);
        for (let b = 0; b < 20; b++) {
          const { batch, kept } = sampler.next();
          expect(new Set(batch).size).toBe(C);
          const inBatch = new Set(batch);
          const keptSet = new Set(kept);
          expect(keptSet.size).toBe(kept.length);
          const eligible = Array.from(batch).filter((i) => t === undefined || returns[i]! > t);
          expect(kept.length).toBe(Math.min(K, eligible.length));
          for (const i of kept) {
            expect(inBatch.has(i)).toBe(true);
            if (t !== undefined) expect(returns[i]!).toBeGreaterThan(t);
            for (const j of batch)
              if (!keptSet.has(j)) expect(returns[i]!).toBeGreaterThanOrEqual(returns[j]!);
          }
        }
      }
    },
  );

  test.prop([sizes, fc.integer()])('gives the same selection for the same seed', ([n, C, K], seed) => {
    const returns = permutation(n, seed);
    const options = { batches: 7, batchSize: C, keep: K };
    const a = selectElites(returns, options, xoroshiro128plus(seed));
    const b = selectElites(returns, options, xoroshiro128plus(seed));
    expect(Array.from(a.indices)).toEqual(Array.from(b.indices));
    const uniform = (s: number) => {
      const g = xoroshiro128plus(s);
      return () => (g.next() >>> 0) / 2 ** 32;
    };
    const c = selectElites(returns, options, uniform(seed));
    expect(Array.from(selectElites(returns, options, uniform(seed)).indices)).toEqual(Array.from(c.indices));
  });

  it('draws each item into a minibatch with probability C/n', () => {
    // Inclusion counts are Binomial(B, C/n): 50 cells at δ = 1e-7/50 each.
    const [n, C, B] = [50, 7, 40_000];
    const sampler = new EliteSampler(new Float64Array(n), { batchSize: C, keep: 1 }, xoroshiro128plus(9));
    const drawn = new Uint32Array(n);
    for (let b = 0; b < B; b++) for (const i of sampler.next().batch) drawn[i]!++;
    expect(
      worstBandExcess(drawn, new Float64Array(n).fill(C / n), B, FALSE_ALARM_PER_TEST / n),
    ).toBeLessThanOrEqual(1);
  });

  it('rejects bad input with errors naming the parameter and the value', () => {
    const g = xoroshiro128plus(1);
    const ok = { batches: 2, batchSize: 2, keep: 1 };
    expect(() => selectElites([], ok, g)).toThrow(new RangeError('returns must not be empty, got length 0'));
    expect(() => selectElites([1, Number.NaN], ok, g)).toThrow(
      new RangeError('returns[1] must be a finite number, got NaN'),
    );
    expect(() => selectElites([1, Number.POSITIVE_INFINITY], ok, g)).toThrow(
      /returns\[1\] must be a finite number, got Infinity/,
    );
    expect(() => selectElites([Number.NEGATIVE_INFINITY, 1], ok, g)).toThrow(/returns\[0\] .*got -Infinity/);
    expect(() => selectElites([1, '2' as unknown as number], ok, g)).toThrow(TypeError);
    expect(() => selectElites(5 as unknown as number[], ok, g)).toThrow(/returns must be an array/);
    expect(() => selectElites([1, 2], { ...ok, batches: 0 }, g)).toThrow(
      /batches must be a positive integer.*got 0/,
    );
    expect(() => selectElites([1, 2], { ...ok, batches: Number.NaN }, g)).toThrow(/batches .*got NaN/);
    expect(() => selectElites([1, 2], { ...ok, batchSize: 3 }, g)).toThrow(
      new RangeError('batchSize must be <= returns.length (2), got 3'),
    );
    expect(() => selectElites([1, 2], { ...ok, keep: 3 }, g)).toThrow(
      /keep must be <= batchSize \(2\), got 3/,
    );
    expect(() => selectElites([1, 2], { ...ok, keep: 0.5 }, g)).toThrow(
      /keep must be a positive integer.*got 0\.5/,
    );
    expect(() => selectElites([1, 2], { ...ok, threshold: Number.NaN }, g)).toThrow(
      /threshold must be a finite number/,
    );
    expect(() => selectElites([1, 2], null as unknown as typeof ok, g)).toThrow(/options must be an object/);
    expect(() => selectElites([1, 2], ok, () => -0.1)).toThrow(
      new RangeError('random must return numbers in [0, 1), got -0.1'),
    );
    expect(() => selectElites([1, 2], ok, () => Number.NaN)).toThrow(
      /random must return numbers in \[0, 1\), got NaN/,
    );
    expect(() => selectElites([1, 2], ok, {} as unknown as () => number)).toThrow(
      /random must be a function/,
    );
    expect(() =>
      selectElites([1, 2], ok, {
        next: () => [1, {}],
        clone() {
          return this;
        },
      } as unknown as () => number),
    ).toThrow(/random\.next\(\) must return a number/);
  });
});
