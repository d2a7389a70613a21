// pnpm bench: Eq. 5 for n = 10^6 against a fill of n doubles, and elite selection against drawing the
// same number of uniforms from the same generator. Reads the built package (pnpm build first).
import { bench, do_not_optimize } from 'mitata';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { runAndReport } from '../../../scripts/bench-ratios.mjs';
import { EliteSampler, rankOccupancy, selectElites } from '../dist/index.js';

const uniformFrom = (seed) => {
  const g = xoroshiro128plus(seed);
  return () => ((g.next() >>> 5) * 67108864 + (g.next() >>> 6)) / 9007199254740992;
};

// Eq. 5: the whole vector, n = 10^6, C = 256, K = 16, into a reused array.
const n = 1_000_000;
const out = new Float64Array(n);
bench('fill 10^6 doubles (floor)', () => {
  for (let i = 0; i < n; i++) out[i] = i * 0.5;
  do_not_optimize(out);
});
bench('rankOccupancy(10^6, 256, 16)', () => do_not_optimize(rankOccupancy(n, 256, 16, out)));

// Selection: J·C = 64 · 256 = 16,384 draws from a pool of 4,096, keep 16 of each minibatch.
const pool = new Float64Array(4096).map(uniformFrom(1));
const options = { batches: 64, batchSize: 256, keep: 16 };
const draws = options.batches * options.batchSize;
const uniform = uniformFrom(2);
bench('16,384 uniforms (floor)', () => {
  let s = 0;
  for (let i = 0; i < draws; i++) s += uniform();
  do_not_optimize(s);
});
const selectRandom = uniformFrom(3);
bench('selectElites J=64 C=256 K=16 n=4096', () =>
  do_not_optimize(selectElites(pool, options, selectRandom)),
);
const sampler = new EliteSampler(pool, options, uniformFrom(4));
bench('EliteSampler.next × 64 (C=256 K=16)', () => {
  for (let b = 0; b < options.batches; b++) do_not_optimize(sampler.next());
});

// The small reproduction's setting: J = 4 minibatches of C = 5, K = 1, from a pool of 128.
const small = new Float64Array(128).map(uniformFrom(5));
const smallOptions = { batches: 4, batchSize: 5, keep: 1 };
const smallUniform = uniformFrom(6);
bench('20 uniforms (floor)', () => {
  let s = 0;
  for (let i = 0; i < 20; i++) s += smallUniform();
  do_not_optimize(s);
});
const smallRandom = xoroshiro128plus(7);
bench('selectElites J=4 C=5 K=1 n=128', () =>
  do_not_optimize(selectElites(small, smallOptions, smallRandom)),
);

await runAndReport([
  { target: 'rankOccupancy(10^6, 256, 16)', floor: 'fill 10^6 doubles (floor)', goal: 10 },
  { target: 'selectElites J=64 C=256 K=16 n=4096', floor: '16,384 uniforms (floor)', goal: 3 },
  { target: 'EliteSampler.next × 64 (C=256 K=16)', floor: '16,384 uniforms (floor)', goal: 3 },
  { target: 'selectElites J=4 C=5 K=1 n=128', floor: '20 uniforms (floor)', goal: 3 },
]);
