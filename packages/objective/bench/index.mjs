// Benchmarks of @ftw/objective (run `pnpm build` first). The floor is a loop doing two Math.exp per
// element over the same logits, measured in the same mitata run; the ratios at the end compare each
// kernel with it. Allocation per call with `out` buffers is measured from heap growth without GC.
import { bench, do_not_optimize, run, summary } from 'mitata';
import { ftwLoss, policyGradientLoss } from '../dist/index.js';

const rows = 256;
const actions = 32_768;
const n = rows * actions;

// Deterministic logits in [-4, 4) from a 32-bit LCG, so every run measures the same input.
let state = 12345;
const logits = new Float64Array(n);
for (let k = 0; k < n; k++) {
  state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
  logits[k] = (state / 2 ** 32) * 8 - 4;
}
const logits32 = Float32Array.from(logits);
const selected = new Int32Array(rows);
for (let i = 0; i < rows; i++) selected[i] = (i * 7919) % actions;
const refRows = new Float64Array(n);
for (let k = 0; k < n; k++) refRows[k] = logits[(k + 1) % n] * 0.5;
const floorOut = new Float64Array(n);

/** The floor: per element, two Math.exp and one store, over the same rows × actions logits. */
function floor(z, out) {
  let s = 0;
  for (let k = 0; k < z.length; k++) {
    const v = z[k];
    const e = Math.exp(v);
    out[k] = e;
    s += Math.exp(-v);
  }
  return s;
}

const outs = {
  reverse: { grad: new Float64Array(n) },
  forward: { grad: new Float64Array(n) },
  f32: { grad: new Float64Array(n) },
  refRows: { grad: new Float64Array(n) },
  pg: { grad: new Float64Array(n) },
};
const advantages = new Float64Array(rows).fill(1);
const inputs = {
  reverse: { logits, rows, actions, selected, beta: 0.05, kl: 'reverse' },
  forward: { logits, rows, actions, selected, beta: 0.05, kl: 'forward' },
  f32: { logits: logits32, rows, actions, selected, beta: 0.05, kl: 'reverse' },
  refRows: { logits, rows, actions, selected, beta: 0.05, kl: 'reverse', reference: { logits: refRows } },
};

summary(() => {
  bench('floor: 2 × Math.exp per element', () => do_not_optimize(floor(logits, floorOut)));
  bench('ftwLoss reverse KL, uniform ref', () => do_not_optimize(ftwLoss(inputs.reverse, outs.reverse)));
  bench('ftwLoss forward KL, uniform ref', () => do_not_optimize(ftwLoss(inputs.forward, outs.forward)));
  bench('ftwLoss reverse KL, Float32 logits', () => do_not_optimize(ftwLoss(inputs.f32, outs.f32)));
  bench('ftwLoss reverse KL, per-row reference logits', () =>
    do_not_optimize(ftwLoss(inputs.refRows, outs.refRows)),
  );
  bench('policyGradientLoss', () =>
    do_not_optimize(policyGradientLoss({ logits, rows, actions, selected, advantages }, outs.pg)),
  );
});

const { benchmarks } = await run({ format: 'mitata' });
const avg = (name) => benchmarks.find((b) => b.alias === name)?.runs[0]?.stats?.avg;
const floorNs = avg('floor: 2 × Math.exp per element');
console.log('');
console.log(`shape: ${rows} rows × ${actions} actions (${n} elements)`);
for (const b of benchmarks) {
  if (b.alias.startsWith('floor')) continue;
  console.log(`ratio ${b.alias} / floor = ${(avg(b.alias) / floorNs).toFixed(2)}`);
}
