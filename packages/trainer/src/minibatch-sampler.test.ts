import { seededStreams } from '@ftw/internal/seeded-streams';
import { ReplayPool } from '@ftw/replay-pool';
import { expectedCounts, rankOccupancy } from '@ftw/selection';
import { describe, expect, it } from 'vitest';
import { MinibatchSampler, type MinibatchSamplerOptions } from './minibatch-sampler.js';
import { orderByLength, orderTies } from './tie-order.js';

/** A pool holding one one-step trajectory per return, at the given versions. */
function poolOf(
  returns: readonly number[],
  versions?: readonly number[],
  maxVersionLag?: number,
): ReplayPool {
  const pool = new ReplayPool({ capacity: returns.length, maxVersionLag });
  returns.forEach((r, i) => {
    pool.push({ actions: [0], logProbs: [-1], versions: versions?.[i] ?? 0, return: r });
  });
  return pool;
}

const SELECTIONS = 20_000;
/** False-alarm probability allowed per item compared; at most 40 items per case, 16 cases: ≤ 1.3e-3 per run. */
const DELTA = 2e-6;

/**
 * Runs `SELECTIONS` selections and checks every item's total count against T·e_i. Bound (Bernstein): the
 * count of item i in one selection lies in [0, J], so its variance is at most J·e_i, and
 * P(|X − T e_i| ≥ s) ≤ 2 exp(−s² / (2 (T J e_i + J s / 3))) = δ for
 * s = J L / 3 + sqrt((J L / 3)² + 2 T J e_i L), L = ln(2/δ).
 */
function expectCounts(
  pool: ReplayPool,
  version: number,
  options: MinibatchSamplerOptions,
  expected: ArrayLike<number>,
): void {
  const sampler = new MinibatchSampler(options);
  const random = seededStreams(11).selection;
  const totals = new Float64Array(pool.size);
  const lengthAt = (position: number) => pool.columnsAt(position).length;
  for (let t = 0; t < SELECTIONS; t++) {
    const chosen = sampler.select(pool.selectableIndex(version), random, lengthAt);
    let kept = 0;
    for (let i = 0; i < chosen.size; i++) {
      totals[chosen.positions[i]!]! += chosen.counts[i]!;
      kept += chosen.counts[i]!;
    }
    expect(kept).toBeLessThanOrEqual(options.batches * options.keep);
  }
  const J = options.batches;
  const L = Math.log(2 / DELTA);
  for (let p = 0; p < pool.size; p++) {
    const mean = SELECTIONS * expected[p]!;
    const s = (J * L) / 3 + Math.sqrt(((J * L) / 3) ** 2 + 2 * SELECTIONS * J * expected[p]! * L);
    expect(
      Math.abs(totals[p]! - mean),
      `position ${p}: ${totals[p]} against ${mean} ± ${s}`,
    ).toBeLessThanOrEqual(s);
    if (expected[p] === 0) expect(totals[p]).toBe(0);
  }
}

describe('MinibatchSampler', () => {
  it('keeps the item of rank r J·K·P(r) times on average (Eq. 5), distinct returns', () => {
    const returns = [0.3, 2.5, -1, 0.9, 1.7, 4, 0.1, 3.3, -0.4, 2, 1.1, 0.6];
    const options = { batches: 3, batchSize: 5, keep: 2, threshold: null, tieRule: 'random' } as const;
    const p = rankOccupancy(returns.length, 5, 2);
    const rank = returns.map((r) => returns.filter((q) => q > r).length);
    expectCounts(
      poolOf(returns),
      0,
      options,
      rank.map((k) => 3 * 2 * p[k]!),
    );
  });

  it('shares the places of tied returns uniformly and keeps nothing at or below the threshold', () => {
    const returns = [1, 0, 1, 1, 0, 0, 2, 0, 1, 0, 0, 2, 0, 1];
    // K = 3, and K = 1 (every FTW run's setting, which the sampler handles apart).
    for (const [keep, threshold] of [
      [3, null],
      [3, 0],
      [1, null],
      [1, 0],
    ] as const) {
      const options = { batches: 4, batchSize: 5, keep, threshold, tieRule: 'random' } as const;
      const expected = expectedCounts(returns, {
        batches: 4,
        batchSize: 5,
        keep,
        ...(threshold === null ? {} : { threshold }),
      });
      expectCounts(poolOf(returns), 0, options, expected);
    }
  });

  it('prefers the newest or the oldest of tied returns when asked', () => {
    const returns = [1, 0, 1, 1, 0, 0, 2, 0, 1, 0];
    for (const tieRule of ['newest', 'oldest'] as const) {
      for (const keep of [2, 1]) {
        const ordered = orderTies(Float64Array.from(returns), tieRule, null);
        const expected = expectedCounts(ordered.values, { batches: 2, batchSize: 4, keep });
        expectCounts(
          poolOf(returns),
          0,
          { batches: 2, batchSize: 4, keep, threshold: null, tieRule },
          expected,
        );
      }
    }
  });

  it('prefers the shortest or the longest episode among tied returns, equal lengths at random', () => {
    // Binary returns that tie, and lengths that tie too: the places go by return, then length, then at random.
    const returns = [1, 0, 1, 1, 0, 0, 1, 0, 1, 0, 1, 1];
    const lengths = [5, 3, 2, 5, 7, 3, 2, 3, 9, 7, 5, 2];
    const pool = new ReplayPool({ capacity: returns.length });
    returns.forEach((r, i) => {
      const L = lengths[i]!;
      pool.push({ actions: new Array(L).fill(0), logProbs: new Array(L).fill(-1), versions: 0, return: r });
    });
    for (const tieRule of ['shortest', 'longest'] as const) {
      for (const [keep, threshold] of [
        [2, null],
        [1, null],
        [2, 0],
      ] as const) {
        const ordered = orderByLength(returns, lengths, tieRule, threshold);
        const expected = expectedCounts(ordered.values, {
          batches: 3,
          batchSize: 4,
          keep,
          ...(ordered.threshold === undefined ? {} : { threshold: ordered.threshold }),
        });
        expectCounts(pool, 0, { batches: 3, batchSize: 4, keep, threshold, tieRule }, expected);
      }
    }
    const sampler = new MinibatchSampler({
      batches: 3,
      batchSize: 4,
      keep: 1,
      threshold: null,
      tieRule: 'shortest',
    });
    expect(() => sampler.select(pool.selectableIndex(0), Math.random)).toThrow(
      'lengthAt must be given with the tie rule shortest, got undefined',
    );
  });

  it('draws only among the trajectories within the version-lag bound', () => {
    const returns = [5, 1, 2, 9, 3, 4, 0, 7];
    const versions = [0, 3, 3, 1, 4, 4, 5, 2];
    // At version 5 with lag 2, versions 3, 4, 5 are selectable: returns 1, 2, 3, 4, 0.
    const selectable = [1, 2, 4, 5, 6];
    const within = expectedCounts(
      selectable.map((p) => returns[p]!),
      { batches: 3, batchSize: 3, keep: 1 },
    );
    const expected = new Float64Array(returns.length);
    selectable.forEach((p, k) => {
      expected[p] = within[k]!;
    });
    expectCounts(
      poolOf(returns, versions, 2),
      5,
      { batches: 3, batchSize: 3, keep: 1, threshold: null, tieRule: 'random' },
      expected,
    );
  });

  it("draws and counts as Floyd's algorithm and a sort say, for small minibatches and large ones", () => {
    // The sampler finds repeats by a scan up to 32 items drawn or kept, and by marks beyond: each case
    // below is checked against a reference written from the definition (a Set for Floyd's draw, the K
    // largest of a sorted copy, counts in order of first selection), on the same random stream.
    const returns = Array.from({ length: 300 }, (_, i) => ((i * 7919) % 1009) / 10); // distinct
    const pool = poolOf(returns);
    const cases: [number, number, number][] = [
      [4, 5, 1], // scan, scan (every FTW run)
      [3, 40, 2], // marks for the draw, scan for the counts
      [12, 3, 3], // scan for the draw, marks for the counts (J·K = 36)
      [10, 50, 4], // marks, marks
    ];
    for (const [batches, batchSize, keep] of cases) {
      const sampler = new MinibatchSampler({ batches, batchSize, keep, threshold: null, tieRule: 'random' });
      const random = seededStreams(5).selection;
      const mirror = seededStreams(5).selection;
      for (let t = 0; t < 30; t++) {
        const c = sampler.select(pool.selectableIndex(0), random);
        const counts = new Map<number, number>();
        for (let b = 0; b < batches; b++) {
          const taken = new Set<number>();
          const drawn: number[] = [];
          for (let j = returns.length - batchSize; j < returns.length; j++) {
            const u = Math.floor(mirror() * (j + 1));
            const item = taken.has(u) ? j : u;
            taken.add(item);
            drawn.push(item);
          }
          const best = drawn.toSorted((x, y) => returns[y]! - returns[x]!).slice(0, keep);
          for (const item of best) counts.set(item, (counts.get(item) ?? 0) + 1);
        }
        const label = `J=${batches} C=${batchSize} K=${keep}, selection ${t}`;
        expect(Array.from(c.positions.subarray(0, c.size)), label).toEqual([...counts.keys()]);
        expect(Array.from(c.counts.subarray(0, c.size)), label).toEqual([...counts.values()]);
      }
    }
  });

  it('gives the same selections for the same random stream', () => {
    const pool = poolOf([3, 1, 4, 1, 5, 9, 2, 6, 5, 3]);
    const run = (): number[] => {
      const sampler = new MinibatchSampler({
        batches: 4,
        batchSize: 5,
        keep: 2,
        threshold: null,
        tieRule: 'random',
      });
      const random = seededStreams(3).selection;
      const out: number[] = [];
      for (let t = 0; t < 50; t++) {
        const c = sampler.select(pool.selectableIndex(0), random);
        for (let i = 0; i < c.size; i++) out.push(c.positions[i]!, c.counts[i]!);
      }
      return out;
    };
    expect(run()).toEqual(run());
  });
});
