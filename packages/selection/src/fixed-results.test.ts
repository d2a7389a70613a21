// Same seed ⇒ same numbers, across versions: the selections below were recorded from the sampler as
// released (commit ba3770c, before the fixed-cost work) and must not change, because the runner's
// committed results (reproduce, compare, the docs' tables) were drawn from these random streams. Each
// case hashes every output array in order (indices, counts, offsets; kept and batch per minibatch;
// occupancy bits) together with the generator's next output after the call, so a change in which items
// are drawn, in their order, in tie-breaking or in how many random numbers are consumed shows here.
// The cases cover the small reproduction setting, a threshold that leaves minibatches short, heavy ties,
// the candidate pivot (J·C >= 32·256) with and without its fallback, a pool larger than the reusable
// buffers, both kinds of random source, and consecutive calls (workspace reuse between calls). The two
// 'J·C below n' cases were added later, their digests recorded from the same released code.
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { describe, expect, it } from 'vitest';
import { EliteSampler } from './elite-sampler.js';
import { monteCarloOccupancy } from './monte-carlo-occupancy.js';
import type { IntegerGenerator } from './random.js';
import { type EliteSelection, selectElites } from './select-elites.js';

/** FNV-1a over 32-bit words, as 8 hex digits. */
class Digest {
  #h = 0x811c9dc5;
  add(word: number): this {
    let h = this.#h;
    for (let s = 0; s < 32; s += 8) {
      h ^= (word >>> s) & 0xff;
      h = Math.imul(h, 0x01000193);
    }
    this.#h = h;
    return this;
  }
  addAll(words: ArrayLike<number>): this {
    this.add(words.length);
    for (let i = 0; i < words.length; i++) this.add(words[i]!);
    return this;
  }
  addDouble(x: number): this {
    const bits = new Uint32Array(Float64Array.of(x).buffer);
    return this.add(bits[0]!).add(bits[1]!);
  }
  get hex(): string {
    return (this.#h >>> 0).toString(16).padStart(8, '0');
  }
}

/** A 53-bit uniform from two outputs of a generator, as the benchmarks and the runner build one. */
const uniformFrom = (g: IntegerGenerator) => () =>
  ((g.next() >>> 5) * 67108864 + (g.next() >>> 6)) / 9007199254740992;

function pool(n: number, levels: number, seed: number): Float64Array {
  const g = xoroshiro128plus(seed);
  return Float64Array.from({ length: n }, () =>
    levels === 0 ? g.next() / 2 ** 31 : (g.next() >>> 0) % levels,
  );
}

function hashSelection(d: Digest, s: EliteSelection): void {
  d.addAll(s.indices).addAll(s.counts).addAll(s.offsets);
}

interface Case {
  name: string;
  n: number;
  levels: number;
  options: { batches: number; batchSize: number; keep: number; threshold?: number };
  calls: number;
  generator: boolean;
  digest: string;
}

const cases: Case[] = [
  {
    name: 'reproduction setting',
    n: 128,
    levels: 0,
    options: { batches: 4, batchSize: 5, keep: 1 },
    calls: 50,
    generator: false,
    digest: '89de0499',
  },
  {
    name: 'reproduction setting, generator',
    n: 128,
    levels: 0,
    options: { batches: 4, batchSize: 5, keep: 1 },
    calls: 50,
    generator: true,
    digest: '80243229',
  },
  {
    name: 'tie-heavy binary returns with a threshold',
    n: 200,
    levels: 2,
    options: { batches: 8, batchSize: 6, keep: 2, threshold: 0 },
    calls: 20,
    generator: true,
    digest: '05e43d24',
  },
  {
    name: 'heavy ties, no threshold',
    n: 60,
    levels: 3,
    options: { batches: 30, batchSize: 10, keep: 4 },
    calls: 10,
    generator: false,
    digest: '691978a8',
  },
  {
    name: 'candidate pivot',
    n: 4096,
    levels: 0,
    options: { batches: 64, batchSize: 256, keep: 16 },
    calls: 3,
    generator: true,
    digest: 'f6e88292',
  },
  {
    name: 'candidate pivot with ties',
    n: 4096,
    levels: 50,
    options: { batches: 64, batchSize: 256, keep: 16, threshold: 30 },
    calls: 3,
    generator: false,
    digest: 'a45b50ef',
  },
  {
    name: 'pool larger than the reusable buffers',
    n: 300_000,
    levels: 1000,
    options: { batches: 4, batchSize: 5, keep: 1 },
    calls: 2,
    generator: true,
    digest: 'd1b6761e',
  },
  {
    name: 'candidate pivot, J·C below n',
    n: 20_000,
    levels: 0,
    options: { batches: 40, batchSize: 256, keep: 4 },
    calls: 3,
    generator: true,
    digest: '8c3a64d5',
  },
  {
    name: 'candidate pivot with ties and a threshold, J·C below n',
    n: 20_000,
    levels: 30,
    options: { batches: 40, batchSize: 256, keep: 8, threshold: 20 },
    calls: 3,
    generator: false,
    digest: 'c8be0335',
  },
  {
    name: 'J·C above n',
    n: 50,
    levels: 7,
    options: { batches: 40, batchSize: 20, keep: 3 },
    calls: 5,
    generator: true,
    digest: '7d87442d',
  },
];

describe('results fixed across versions', () => {
  it.each(cases)('selectElites: $name', ({ n, levels, options, calls, generator, digest }) => {
    const returns = pool(n, levels, n + options.batchSize);
    const g = xoroshiro128plus(options.batches * 1000 + options.keep);
    const random = generator ? g : uniformFrom(g);
    const d = new Digest();
    for (let c = 0; c < calls; c++) hashSelection(d, selectElites(returns, options, random));
    d.add(g.next());
    expect(d.hex).toBe(digest);
  });

  it('selectElites on a plain array', () => {
    const returns = Array.from(pool(40, 4, 9));
    const g = xoroshiro128plus(17);
    const d = new Digest();
    for (let c = 0; c < 20; c++)
      hashSelection(d, selectElites(returns, { batches: 5, batchSize: 7, keep: 2 }, g));
    d.add(g.next());
    expect(d.hex).toBe('d417b1a3');
  });

  it('selectElites when the candidate pivot leaves minibatches short', () => {
    // Every 16th item (the pivot sample) is the best: about half the minibatches hold fewer than K
    // candidates and are searched whole (see elite-draw.test.ts).
    const g0 = xoroshiro128plus(5);
    const returns = Float64Array.from({ length: 4096 }, (_, i) =>
      i % 16 === 0 ? 1e9 : (g0.next() >>> 0) % 1000,
    );
    const g = xoroshiro128plus(11);
    const d = new Digest();
    hashSelection(d, selectElites(returns, { batches: 64, batchSize: 256, keep: 16 }, g));
    d.add(g.next());
    expect(d.hex).toBe('3255237c');
  });

  it('EliteSampler', () => {
    const d = new Digest();
    for (const [n, C, K, threshold] of [
      [128, 5, 1, undefined],
      [300, 100, 4, undefined],
      [500, 64, 8, 3],
    ] as const) {
      const returns = pool(n, 7, C);
      const g = xoroshiro128plus(C * K);
      const sampler = new EliteSampler(returns, { batchSize: C, keep: K, threshold }, g);
      for (let b = 0; b < 100; b++) {
        const { batch, kept } = sampler.next();
        d.addAll(batch).addAll(kept);
      }
      d.add(g.next());
    }
    expect(d.hex).toBe('c9dea03a');
  });

  it('monteCarloOccupancy', () => {
    const d = new Digest();
    for (const [n, C, K, draws] of [
      [20, 5, 2, 3000],
      [1000, 256, 4, 200],
    ] as const) {
      const g = xoroshiro128plus(n);
      for (const x of monteCarloOccupancy(n, C, K, draws, g)) d.addDouble(x);
      d.add(g.next());
    }
    expect(d.hex).toBe('c0759602');
  });
});
