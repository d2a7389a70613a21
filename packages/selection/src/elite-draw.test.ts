import { fc, test } from '@fast-check/vitest';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { describe, expect, it } from 'vitest';
import { EliteDraw } from './elite-draw.js';
import { EliteSampler } from './elite-sampler.js';
import { toIndexSource } from './random.js';
import { selectElites } from './select-elites.js';

/**
 * Draws `batches` minibatches and returns, for each, its items in draw order and its kept items sorted,
 * plus the generator's next output (so that two runs are seen to use the same randomness).
 */
function run(
  scores: Float64Array | null,
  n: number,
  [C, K]: readonly [number, number],
  threshold: number | undefined,
  seed: number,
  minibatches: number,
  batches: number,
): { batches: number[][]; kept: number[][]; after: number } {
  const generator = xoroshiro128plus(seed);
  const draw = new EliteDraw(scores, n, C, K, threshold, toIndexSource(generator), minibatches);
  const out = { batches: [] as number[][], kept: [] as number[][], after: 0 };
  const batch = new Uint32Array(C);
  for (let b = 0; b < batches; b++) {
    const count = draw.next();
    out.batches.push(Array.from(draw.copyBatch(batch)));
    out.kept.push(Array.from(draw.kept.subarray(0, count)).sort((x, y) => x - y));
  }
  out.after = generator.next();
  return out;
}

// Large minibatches with a small K, where the pivot is used (K + 3√K + 3 <= C/4).
const pivotSizes = fc
  .integer({ min: 64, max: 400 })
  .chain((n) =>
    fc
      .integer({ min: 64, max: n })
      .chain((C) =>
        fc.tuple(fc.constant(n), fc.constant(C), fc.integer({ min: 1, max: Math.floor(C / 12) })),
      ),
  );

describe('EliteDraw', () => {
  test.prop([
    pivotSizes,
    fc.integer({ min: 1, max: 6 }),
    fc.option(fc.integer({ min: 0, max: 4 })),
    fc.integer(),
  ])(
    'keeps the same items with the candidate pivot as without it, ties and thresholds included',
    ([n, C, K], levels, threshold, seed) => {
      // Few levels: heavy ties at the cut and at the pivot.
      const g = xoroshiro128plus(seed ^ 0x2545f491);
      const scores = Float64Array.from({ length: n }, () => (g.next() >>> 0) % levels);
      const t = threshold ?? undefined;
      // minibatches = 0 leaves no sample for the pivot, so every item is a candidate.
      const plain = run(scores, n, [C, K], t, seed, 0, 30);
      const pivoted = run(scores, n, [C, K], t, seed, Number.POSITIVE_INFINITY, 30);
      expect(pivoted).toEqual(plain);
      const ranked = run(null, n, [C, K], undefined, seed, Number.POSITIVE_INFINITY, 30);
      expect(ranked).toEqual(run(null, n, [C, K], undefined, seed, 0, 30));
    },
  );

  it('searches the whole minibatch when it holds fewer than K candidates', () => {
    // The pivot sample reads every 16th item; making exactly those the best puts the pivot at their
    // score, so a minibatch of 256 from 4096 holds about 16 candidates: fewer than K = 16 about half
    // the time.
    const [n, C, K] = [4096, 256, 16];
    const g = xoroshiro128plus(5);
    const scores = Float64Array.from({ length: n }, (_, i) => (i % 16 === 0 ? 1e9 : (g.next() >>> 0) % 1000));
    const plain = run(scores, n, [C, K], undefined, 11, 0, 200);
    const pivoted = run(scores, n, [C, K], undefined, 11, Number.POSITIVE_INFINITY, 200);
    const short = plain.batches.filter((batch) => batch.filter((i) => scores[i] === 1e9).length < K).length;
    expect(short).toBeGreaterThan(20);
    expect(pivoted).toEqual(plain);
  });
});

describe('selectElites and EliteSampler', () => {
  test.prop([pivotSizes, fc.integer({ min: 1, max: 40 }), fc.integer()])(
    'keep the same items for the same random source',
    ([n, C, K], J, seed) => {
      const g = xoroshiro128plus(seed);
      const returns = Array.from({ length: n }, () => (g.next() >>> 0) % 7);
      const { indices, offsets } = selectElites(
        returns,
        { batches: J, batchSize: C, keep: K },
        xoroshiro128plus(seed),
      );
      const sampler = new EliteSampler(returns, { batchSize: C, keep: K }, xoroshiro128plus(seed));
      for (let b = 0; b < J; b++) {
        const selected = Array.from(indices.subarray(offsets[b]!, offsets[b + 1]!)).sort((x, y) => x - y);
        expect(selected).toEqual(Array.from(sampler.next().kept).sort((x, y) => x - y));
      }
    },
  );

  it('leave the shared buffers clean after a call that draws exactly n items with the pivot', () => {
    // J·C = n is the boundary between logging the swaps (J·C < n) and flagging candidates in the
    // permutation (J·C >= n); a call there must put the permutation back to the identity, flags
    // included, or the next call reads flagged entries as items.
    for (const [J, C, K] of [
      [16, 256, 1],
      [8, 512, 20],
    ] as const) {
      const n = J * C;
      const returns = Float64Array.from({ length: n }, (_, i) => (i * 7919) % n);
      selectElites(returns, { batches: J, batchSize: C, keep: K }, xoroshiro128plus(1));
      const other = Float64Array.from({ length: 3000 }, (_, i) => (i * 104729) % 3000);
      const options = { batches: 5, batchSize: 40, keep: 3 };
      const { indices, offsets } = selectElites(other, options, xoroshiro128plus(9));
      const sampler = new EliteSampler(other, options, xoroshiro128plus(9));
      for (let b = 0; b < options.batches; b++) {
        const selected = Array.from(indices.subarray(offsets[b]!, offsets[b + 1]!)).sort((x, y) => x - y);
        expect(selected).toEqual(Array.from(sampler.next().kept).sort((x, y) => x - y));
      }
    }
  });

  it('give the same selection when a random callback starts another selection', () => {
    // The one-shot samplers reuse a spare buffer between calls; a nested call must not take the one in
    // use (nor may a buffer left longer by a bigger pool change anything).
    selectElites(new Float64Array(5000).fill(1), { batches: 1, batchSize: 3, keep: 1 }, xoroshiro128plus(1));
    const returns = Float64Array.from({ length: 300 }, (_, i) => (i * 7919) % 300);
    const options = { batches: 50, batchSize: 200, keep: 10 };
    const uniform = (seed: number, nested: boolean) => {
      const g = xoroshiro128plus(seed);
      let calls = 0;
      return () => {
        if (nested && calls++ === 100)
          selectElites(
            returns.map((v) => -v),
            options,
            xoroshiro128plus(2),
          );
        return (g.next() >>> 0) / 2 ** 32;
      };
    };
    const alone = selectElites(returns, options, uniform(7, false));
    const nested = selectElites(returns, options, uniform(7, true));
    expect(Array.from(nested.indices)).toEqual(Array.from(alone.indices));
  });
});
