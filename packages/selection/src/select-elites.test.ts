import { fc, test } from '@fast-check/vitest';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { describe, expect, it } from 'vitest';
import { FALSE_ALARM_PER_TEST, worstBandExcess } from '../test/support/stats.js';
import { EliteSampler } from './elite-sampler.js';
import { expectedCounts } from './expected-counts.js';
import { rankOccupancy } from './rank-occupancy.js';
import { type EliteSelection, selectElites } from './select-elites.js';

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
          // Every kept item is in the batch, above the threshold, and at least as good as every item
          // left out: the worst kept return is >= the best left-out return (one expect per minibatch,
          // not one per pair, so that the property stays fast at C = 300).
          expect(kept.every((i) => inBatch.has(i))).toBe(true);
          if (t !== undefined) expect(kept.every((i) => returns[i]! > t)).toBe(true);
          let worstKept = Number.POSITIVE_INFINITY;
          for (const i of kept) worstKept = Math.min(worstKept, returns[i]!);
          let bestLeftOut = Number.NEGATIVE_INFINITY;
          for (const j of batch) if (!keptSet.has(j)) bestLeftOut = Math.max(bestLeftOut, returns[j]!);
          expect(worstKept).toBeGreaterThanOrEqual(bestLeftOut);
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

describe('selectElites with out', () => {
  const options = fc.record({
    batches: fc.integer({ min: 1, max: 12 }),
    batchSize: fc.integer({ min: 1, max: 8 }),
    keep: fc.integer({ min: 1, max: 8 }),
    threshold: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
  });
  test.prop([
    fc.array(fc.tuple(fc.integer({ min: 8, max: 60 }), options, fc.integer()), {
      minLength: 1,
      maxLength: 8,
    }),
  ])(
    'gives, call after call, what a call without out gives, and reuses the arrays whose sizes fit',
    (calls) => {
      let out: EliteSelection | undefined;
      for (const [n, o, seed] of calls) {
        const opts = { ...o, keep: Math.min(o.keep, o.batchSize) };
        const g = xoroshiro128plus(seed);
        const returns = Float64Array.from({ length: n }, () => (g.next() >>> 0) % 4);
        const fresh = selectElites(returns, opts, xoroshiro128plus(seed));
        const before = out === undefined ? undefined : { ...out };
        const reused = selectElites(returns, opts, xoroshiro128plus(seed), out);
        if (out !== undefined && before !== undefined) {
          expect(reused).toBe(out);
          expect(reused.counts === before.counts).toBe(before.counts.length === n);
          expect(reused.offsets === before.offsets).toBe(before.offsets.length === opts.batches + 1);
        }
        expect(Array.from(reused.indices)).toEqual(Array.from(fresh.indices));
        expect(Array.from(reused.counts)).toEqual(Array.from(fresh.counts));
        expect(Array.from(reused.offsets)).toEqual(Array.from(fresh.offsets));
        out = reused;
      }
    },
  );

  it('leaves out unchanged when the call throws, and rejects an out that is not an object', () => {
    const returns = new Float64Array([3, 1, 2, 5]);
    const options = { batches: 3, batchSize: 2, keep: 1 };
    const out = selectElites(returns, options, xoroshiro128plus(1));
    const snapshot = [Array.from(out.indices), Array.from(out.counts), Array.from(out.offsets)];
    let calls = 0;
    const failing = () => (calls++ < 3 ? 0.7 : 1.5);
    expect(() => selectElites(returns, options, failing, out)).toThrow(/random must return numbers/);
    expect([Array.from(out.indices), Array.from(out.counts), Array.from(out.offsets)]).toEqual(snapshot);
    // The draw that threw does not hand its half-shuffled buffers back: the next call is unaffected.
    const again = selectElites(returns, options, xoroshiro128plus(1));
    expect(Array.from(again.indices)).toEqual(snapshot[0]);
    expect(() => selectElites(returns, options, xoroshiro128plus(1), 5 as never)).toThrow(
      new TypeError('out must be undefined or a selection returned by selectElites, got 5'),
    );
    expect(() => selectElites(returns, options, xoroshiro128plus(1), null as never)).toThrow(/^out must/);
  });
});

describe('selectElites call after call', () => {
  // The one-shot draws share a permutation buffer that each call must leave as the identity (writing p
  // back at each position p it touched when it drew fewer than n items, else rewriting all): if one did
  // not, the next call
  // would draw other items for the same random numbers. An EliteSampler owns a fresh permutation, so
  // it shows what each call must select.
  const call = fc
    .integer({ min: 1, max: 70 })
    .chain((n) =>
      fc.tuple(
        fc.constant(n),
        fc.integer({ min: 1, max: Math.min(n, 12) }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer(),
      ),
    );
  test.prop([fc.array(call, { minLength: 2, maxLength: 10 })])(
    'selects what a sampler with a fresh permutation keeps, whatever the calls before',
    (calls) => {
      for (const [n, C, J, seed] of calls) {
        const K = 1 + (Math.abs(seed) % C);
        const g = xoroshiro128plus(seed);
        const returns = Float64Array.from({ length: n }, () => (g.next() >>> 0) % 5);
        const { indices, offsets } = selectElites(
          returns,
          { batches: J, batchSize: C, keep: K },
          xoroshiro128plus(seed),
        );
        const sampler = new EliteSampler(returns, { batchSize: C, keep: K }, xoroshiro128plus(seed));
        for (let b = 0; b < J; b++) {
          const selected = Array.from(indices.subarray(offsets[b]!, offsets[b + 1]!));
          expect(selected).toEqual(Array.from(sampler.next().kept));
        }
      }
    },
  );
});

describe('selectElites checks the returns it reads', () => {
  // random = () => 0 makes every draw t = k, so each minibatch is items 0..C−1.
  const first = () => 0;

  it('throws, naming the item, when a drawn return is NaN or ±Infinity', () => {
    const returns = new Float64Array(10).fill(1);
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      returns[3] = bad;
      expect(() => selectElites(returns, { batches: 2, batchSize: 5, keep: 2 }, first)).toThrow(
        new RangeError(`returns[3] must be a finite number, got ${bad}`),
      );
    }
  });

  it('throws from the candidate pivot too: in its sample, and for an item outside it', () => {
    // n = 20,000, C = 256, K = 4, J = 40: J·C < n, so the draw reads each drawn item's return (no
    // flags over all n). The pivot samples items ⌊i·n/256⌋ (0, 78, 156, …) and lands near 950, so the
    // minibatch (items 0..255, scoring 10^6 + i) holds about 250 candidates. Items 1 and 255 are drawn
    // but not sampled, and a NaN is never a candidate: only the check in the draw loop sees them. Item
    // 7812 is sampled but never drawn: only the check of the pivot's sample sees it.
    const options = { batches: 40, batchSize: 256, keep: 4 };
    for (const item of [1, 255, 7812]) {
      const returns = Float64Array.from({ length: 20_000 }, (_, i) => (i < 256 ? 1e6 + i : i % 1000));
      returns[item] = Number.NaN;
      expect(() => selectElites(returns, options, first)).toThrow(
        new RangeError(`returns[${item}] must be a finite number, got NaN`),
      );
    }
    // J·C >= n: the draw flags every item as a candidate or not once, reading (and checking) every
    // return, item 4001 (never drawn, not sampled) included.
    const flagged = Float64Array.from({ length: 4096 }, (_, i) => i);
    flagged[4001] = Number.POSITIVE_INFINITY;
    expect(() => selectElites(flagged, { batches: 64, batchSize: 256, keep: 4 }, first)).toThrow(
      new RangeError('returns[4001] must be a finite number, got Infinity'),
    );
  });

  it('does not scan a Float64Array pool: a return it never reads is not checked', () => {
    // Cost follows the work: J·C draws, not a pass over n returns. Every other entry point checks the
    // whole pool: an EliteSampler once, when it is built; expectedCounts, which reads every return.
    const returns = new Float64Array([4, 2, Number.NaN, 1]);
    const options = { batches: 3, batchSize: 2, keep: 1 };
    const { counts } = selectElites(returns, options, first);
    expect(Array.from(counts)).toEqual([3, 0, 0, 0]);
    expect(() => selectElites(Array.from(returns), options, first)).toThrow(/returns\[2\] must be a finite/);
    expect(() => new EliteSampler(returns, options, first)).toThrow(/returns\[2\] must be a finite/);
    expect(() => expectedCounts(returns, options)).toThrow(/returns\[2\] must be a finite/);
  });
});
