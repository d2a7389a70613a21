// "No allocation per minibatch": EliteSampler.next is called the way a training loop calls it (one
// sampler, one call site, one kind of random source) and its heap growth per call is measured in steady
// state. One allocation per call (an object, a typed array, a boxed double) would show as at least 12
// bytes per call; the bound is 1 byte. This file runs in a worker of its own, so the JIT feedback of the
// other test files does not leak into it.
//
// The function sources here all come from one function literal (`uniformFrom`). A `() => number` that V8
// does not inline into the sampler, for instance one of several different random functions a program
// passes to the same samplers, returns each of its numbers boxed: 16 bytes a draw, allocated by the
// source, not by the sampler (measured: 1,034 bytes for 64 draws). A pure-rand generator returns small
// integers and needs no inlining.
import { bytesPerCall } from '@ftw/internal/heap';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { describe, expect, it } from 'vitest';
import { EliteSampler, selectElites } from '../src/index.js';

const uniformFrom = (seed: number) => {
  const g = xoroshiro128plus(seed);
  return () => (g.next() >>> 0) / 2 ** 32;
};

const next = (sampler: EliteSampler) => sampler.next();

describe('allocation per minibatch', () => {
  it('EliteSampler.next allocates nothing, with the candidate pivot, ties and a threshold', () => {
    const g = xoroshiro128plus(3);
    const returns = Float64Array.from({ length: 4096 }, () => (g.next() >>> 0) % 50);
    const pivoted = new EliteSampler(returns, { batchSize: 256, keep: 16 }, xoroshiro128plus(1));
    expect(bytesPerCall(next, pivoted as never)).toBeLessThan(1);
    const small = new EliteSampler(returns.subarray(0, 128), { batchSize: 5, keep: 1 }, uniformFrom(5));
    expect(bytesPerCall(next, small as never)).toBeLessThan(1);
    const options = { batchSize: 64, keep: 8, threshold: 25 };
    const thresholded = new EliteSampler(returns, options, uniformFrom(2));
    expect(bytesPerCall(next, thresholded as never)).toBeLessThan(1);
  });

  it('reading the minibatch allocates nothing either', () => {
    const returns = Float64Array.from({ length: 1000 }, (_, i) => (i * 7919) % 1000);
    const sampler = new EliteSampler(returns, { batchSize: 100, keep: 10 }, xoroshiro128plus(4));
    const both = (s: EliteSampler) => s.next().batch;
    expect(bytesPerCall(both, sampler as never)).toBeLessThan(1);
  });

  it('selectElites with out allocates nothing', () => {
    // The draw object lives with the borrowed buffers and the options are checked without an object,
    // so a call that reuses out allocates nothing in steady state (without out: about 900 bytes of heap
    // at n = 1024, three typed arrays and the result object).
    const g = xoroshiro128plus(6);
    const returns = Float64Array.from({ length: 1024 }, () => (g.next() >>> 0) % 50);
    const options = { batches: 4, batchSize: 5, keep: 1 };
    const select = (r: never, o: never, s: never, x: never) => selectElites(r, o, s, x);
    const out = selectElites(returns, options, g);
    expect(bytesPerCall(select, returns as never, options, g, out)).toBeLessThan(1);
    const large = Float64Array.from({ length: 100_000 }, () => (g.next() >>> 0) % 50);
    const largeOut = selectElites(large, options, g);
    expect(bytesPerCall(select, large as never, options, g, largeOut)).toBeLessThan(1);
  });
});
