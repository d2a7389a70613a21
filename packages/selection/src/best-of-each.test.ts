// selectElites' path for K = 1 with minibatches searched whole (C <= 27: bestOfEach) checked against
// (1) a reference written here from the definition: a partial Fisher–Yates shuffle of 0..n−1 carried
// from minibatch to minibatch, the best return of each minibatch, one more draw j = index(e) to pick
// the j-th of e tied items in draw order, only a best strictly above the threshold kept, and the same
// random source consumed the same way (the generator's next output after the call is compared); and
// (2) EliteSampler, whose draw is the general path (a heap, EliteDraw's tie-break).
import { fc, test } from '@fast-check/vitest';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { describe, expect, it } from 'vitest';
import { EliteSampler } from './elite-sampler.js';
import type { IntegerGenerator } from './random.js';
import { type EliteSelection, selectElites } from './select-elites.js';

const TWO_POW_32 = 2n ** 32n;

/**
 * Uniform integers on 0..bound−1 as the package documents them: floor(u · bound) for a function
 * (u checked to be in [0, 1)); for a generator, Lemire's multiply-and-reject on one 32-bit output
 * (x · bound as a 64-bit product, in BigInt here; reject while its low word is below
 * (2^32 − bound) mod bound; answer the high word).
 */
function referenceIndex(random: (() => number) | IntegerGenerator): (bound: number) => number {
  if (typeof random === 'function') {
    return (bound) => {
      const u = random();
      if (!(u >= 0 && u < 1)) throw new RangeError(`random must return numbers in [0, 1), got ${u}`);
      return Math.floor(u * bound);
    };
  }
  return (bound) => {
    const b = BigInt(bound);
    const zone = (TWO_POW_32 - b) % b;
    for (;;) {
      const product = BigInt(random.next() >>> 0) * b;
      if (product % TWO_POW_32 >= zone) return Number(product / TWO_POW_32);
    }
  };
}

/** FTW's selection for K = 1 from the definition: the kept item of each minibatch (or none). */
function referenceSelection(
  returns: Float64Array,
  batches: number,
  batchSize: number,
  threshold: number | undefined,
  index: (bound: number) => number,
): number[][] {
  const n = returns.length;
  const permutation = Array.from({ length: n }, (_, i) => i);
  const kept: number[][] = [];
  for (let b = 0; b < batches; b++) {
    for (let k = 0; k < batchSize; k++) {
      const t = k + index(n - k);
      [permutation[k], permutation[t]] = [permutation[t]!, permutation[k]!];
    }
    const batch = permutation.slice(0, batchSize);
    for (const item of batch) {
      const r = returns[item]!;
      if (!Number.isFinite(r)) throw new RangeError(`returns[${item}] must be a finite number, got ${r}`);
    }
    const best = Math.max(...batch.map((i) => returns[i]!));
    const tied = batch.filter((i) => returns[i] === best);
    if (threshold !== undefined && !(best > threshold)) kept.push([]);
    else kept.push([tied.length === 1 ? tied[0]! : tied[index(tied.length)]!]);
  }
  return kept;
}

/** A 53-bit uniform from two outputs of a generator, as the benchmarks and the runner build one. */
const uniformFrom = (g: IntegerGenerator) => () =>
  ((g.next() >>> 5) * 67108864 + (g.next() >>> 6)) / 9007199254740992;

/** Returns with many ties, signed zeros, the extremes of the doubles, and sometimes a non-finite one. */
const special = fc.constantFrom(0, -0, 1, -1, 2, Number.MAX_VALUE, -Number.MAX_VALUE, 5e-324);
const finiteReturn = fc.oneof(special, fc.double({ noNaN: true, noDefaultInfinity: true }));
const anyReturn = fc.oneof(
  { weight: 30, arbitrary: finiteReturn },
  { weight: 1, arbitrary: fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY) },
);
const pool = (value: fc.Arbitrary<number>) =>
  fc.oneof(
    // Few distinct values: ties in most minibatches.
    fc
      .tuple(fc.array(value, { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 120 }), fc.integer())
      .map(([levels, n, seed]) => {
        const g = xoroshiro128plus(seed);
        return Float64Array.from({ length: n }, () => levels[(g.next() >>> 0) % levels.length]!);
      }),
    fc.array(value, { minLength: 1, maxLength: 300 }).map((a) => Float64Array.from(a)),
  );
const call = (value: fc.Arbitrary<number>) =>
  pool(value).chain((returns) =>
    fc.record({
      returns: fc.constant(returns),
      batches: fc.integer({ min: 1, max: 40 }),
      batchSize: fc.integer({ min: 1, max: Math.min(returns.length, 27) }),
      threshold: fc.option(
        fc.oneof(special, fc.constantFrom(0, ...returns.slice(0, 3).filter(Number.isFinite))),
        { nil: undefined },
      ),
      generator: fc.boolean(),
      seed: fc.integer(),
    }),
  );

/** The kept items of each minibatch of a selection. */
function perBatch(s: EliteSelection): number[][] {
  return Array.from({ length: s.offsets.length - 1 }, (_, b) =>
    Array.from(s.indices.subarray(s.offsets[b]!, s.offsets[b + 1]!)),
  );
}

describe('selectElites with K = 1 and C <= 27 (bestOfEach)', () => {
  test.prop([fc.array(call(anyReturn), { minLength: 1, maxLength: 4 })], { numRuns: 300 })(
    'selects what the definition selects, consumes the same random numbers, and throws what it throws',
    (calls) => {
      // Calls one after another, each handing the previous result back as out: the shared permutation
      // must be the identity again after each call, and out's counts cleared where they were set.
      let out: EliteSelection | undefined;
      for (const { returns, batches, batchSize, threshold, generator, seed } of calls) {
        const options = { batches, batchSize, keep: 1, threshold };
        const g = xoroshiro128plus(seed);
        const gRef = xoroshiro128plus(seed);
        const random = generator ? g : uniformFrom(g);
        const index = referenceIndex(generator ? gRef : uniformFrom(gRef));
        let expected: number[][] | Error;
        try {
          expected = referenceSelection(returns, batches, batchSize, threshold, index);
        } catch (error) {
          expected = error as Error;
        }
        const before = out && [Array.from(out.indices), Array.from(out.counts), Array.from(out.offsets)];
        if (expected instanceof Error) {
          expect(() => selectElites(returns, options, random, out)).toThrow(expected);
          // Nothing written to out by a call that throws.
          if (out)
            expect([Array.from(out.indices), Array.from(out.counts), Array.from(out.offsets)]).toEqual(
              before,
            );
        } else {
          out = selectElites(returns, options, random, out);
          expect(perBatch(out)).toEqual(expected);
          const counts = new Array<number>(returns.length).fill(0);
          for (const kept of expected) for (const item of kept) counts[item]!++;
          expect(Array.from(out.counts)).toEqual(counts);
        }
        // The same random numbers were consumed, up to the throw when there was one.
        expect(g.next()).toBe(gRef.next());
      }
    },
  );

  test.prop([call(finiteReturn)], { numRuns: 200 })(
    'keeps what the general path (EliteSampler) keeps, minibatch by minibatch',
    ({ returns, batches, batchSize, threshold, generator, seed }) => {
      const g = xoroshiro128plus(seed);
      const gSampler = xoroshiro128plus(seed);
      const selection = selectElites(
        returns,
        { batches, batchSize, keep: 1, threshold },
        generator ? g : uniformFrom(g),
      );
      const sampler = new EliteSampler(
        returns,
        { batchSize, keep: 1, threshold },
        generator ? gSampler : uniformFrom(gSampler),
      );
      const kept = Array.from({ length: batches }, () => Array.from(sampler.next().kept));
      expect(perBatch(selection)).toEqual(kept);
      expect(g.next()).toBe(gSampler.next());
    },
  );

  it('breaks a tie by one more draw, uniformly over the tied items in draw order', () => {
    // Every return equal: each minibatch of C = 5 keeps the j-th item drawn, j = floor(u · 5) for the
    // sixth number of the minibatch. With random = the fixed sequence below, minibatch 1 draws items
    // 0..4 (t = k), then j = floor(0.99 · 5) = 4: item 4; minibatch 2 draws 0..4 again, j = 0: item 0.
    const returns = new Float64Array(10).fill(7);
    const sequence = [0, 0, 0, 0, 0, 0.99, 0, 0, 0, 0, 0, 0];
    let i = 0;
    const random = () => sequence[i++]!;
    const { indices } = selectElites(returns, { batches: 2, batchSize: 5, keep: 1 }, random);
    expect(Array.from(indices)).toEqual([4, 0]);
    expect(i).toBe(12);
    // No tie: no sixth number is drawn.
    returns[2] = 8;
    i = 0;
    expect(Array.from(selectElites(returns, { batches: 2, batchSize: 5, keep: 1 }, random).indices)).toEqual([
      2, 2,
    ]);
    expect(i).toBe(10);
  });

  it('throws after the minibatch is drawn, naming its first non-finite return in draw order', () => {
    // random = 0.25 then 0: the first draw is t = floor(0.25 · 10) = 2 (items 2 and 0 swap), then
    // t = k: the minibatch is items 2, 1, 0, 3, 4 in draw order; items 1 and 3 are not finite.
    const returns = new Float64Array(10).fill(1);
    returns[3] = Number.NaN;
    returns[1] = Number.POSITIVE_INFINITY;
    let calls = 0;
    const random = () => (calls++ === 0 ? 0.25 : 0);
    expect(() => selectElites(returns, { batches: 2, batchSize: 5, keep: 1 }, random)).toThrow(
      new RangeError('returns[1] must be a finite number, got Infinity'),
    );
    expect(calls).toBe(5);
  });

  it('keeps an item scoring −Number.MAX_VALUE, alone or tied', () => {
    // The branch-free running best starts at −Number.MAX_VALUE: a minibatch whose best is that value
    // must still keep its own item, not item 0.
    const returns = new Float64Array([5, -Number.MAX_VALUE, -Number.MAX_VALUE]);
    // random = 0.5: t = 0 + floor(0.5 · 3) = 1, so C = 1 draws item 1.
    expect(
      Array.from(selectElites(returns, { batches: 1, batchSize: 1, keep: 1 }, () => 0.5).indices),
    ).toEqual([1]);
    // C = 2, random always 0.99: draws item 2 (t = floor(0.99 · 3)), then item 0 (t = 1 + floor(0.99 · 2),
    // where item 0 was swapped to), both −MAX, then j = floor(0.99 · 2) = 1: the second drawn, item 0.
    const pair = selectElites(
      new Float64Array([-Number.MAX_VALUE, -Number.MAX_VALUE, -Number.MAX_VALUE]),
      {
        batches: 1,
        batchSize: 2,
        keep: 1,
      },
      () => 0.99,
    );
    expect(Array.from(pair.indices)).toEqual([0]);
  });
});

describe('selectElites with out: counts cleared where the previous selection set them', () => {
  test.prop([
    fc.integer({ min: 1, max: 80 }),
    fc.array(
      fc.record({
        batches: fc.integer({ min: 1, max: 30 }),
        batchSize: fc.integer({ min: 1, max: 40 }),
        keep: fc.integer({ min: 1, max: 4 }),
        threshold: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
        seed: fc.integer(),
      }),
      { minLength: 2, maxLength: 8 },
    ),
  ])(
    'a chain of calls on one pool, the fast path and the general one mixed, gives fresh results',
    (n, calls) => {
      const g0 = xoroshiro128plus(n);
      const returns = Float64Array.from({ length: n }, () => (g0.next() >>> 0) % 5);
      let out: EliteSelection | undefined;
      for (const { batches, batchSize, keep, threshold, seed } of calls) {
        const C = Math.min(batchSize, n);
        const options = { batches, batchSize: C, keep: Math.min(keep, C), threshold };
        const fresh = selectElites(returns, options, xoroshiro128plus(seed));
        const counts = out?.counts;
        out = selectElites(returns, options, xoroshiro128plus(seed), out);
        if (counts !== undefined) expect(out.counts).toBe(counts);
        expect(Array.from(out.counts)).toEqual(Array.from(fresh.counts));
        expect(Array.from(out.indices)).toEqual(Array.from(fresh.indices));
      }
    },
  );

  it('writes counts only at the previous and the new indices (the documented contract)', () => {
    // A call costs J·K, not n: it trusts out.counts to be 0 outside out.indices, as selectElites left
    // it. A count changed elsewhere by the caller is not repaired: this is why out must be unmodified.
    const returns = Float64Array.from({ length: 1000 }, (_, i) => i);
    const options = { batches: 4, batchSize: 5, keep: 1 };
    const out = selectElites(returns, options, xoroshiro128plus(1));
    const untouched = Array.from({ length: 1000 }, (_, i) => i).find(
      (i) => i > 4 && !out.indices.includes(i),
    )!;
    out.counts[untouched] = 99;
    selectElites(returns, options, () => 0, out);
    // random = () => 0 draws items 0..4 in every minibatch and keeps item 4 (the best).
    expect(Array.from(out.indices)).toEqual([4, 4, 4, 4]);
    expect(out.counts[4]).toBe(4);
    expect(out.counts[untouched]).toBe(99);
  });
});
