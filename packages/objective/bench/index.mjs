// Benchmarks of @ftw/objective (run `pnpm build` first; they import ../dist). The floor is a loop doing
// two Math.exp per element over the same 256 × 32,768 logits, measured in the same mitata run; the ratios
// printed at the end compare each kernel with it (scripts/bench-ratios.mjs: 3 rounds, median of the
// ratios of median times), with issue 4's goal beside ftwLoss (reverse KL, uniform reference: within 2×);
// the process exits non-zero when it is missed. Before the timings, allocation per ftwLoss call with
// out buffers is measured the way a training loop calls it (one input shape): V8's sampling heap
// profiler at the benchmark shape, and heap growth after a full GC on a small shape.
import inspector from 'node:inspector';
import v8 from 'node:v8';
import vm from 'node:vm';
import { bench, do_not_optimize } from 'mitata';
import { runAndReport } from '../../../scripts/bench-ratios.mjs';
import { ftwLoss, policyGradientLoss } from '../dist/index.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

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
const selected = new Int32Array(rows);
for (let i = 0; i < rows; i++) selected[i] = (i * 7919) % actions;
const refRows = new Float64Array(n);
for (let k = 0; k < n; k++) refRows[k] = logits[(k + 1) % n] * 0.5;
const advantages = new Float64Array(rows).fill(1);

/** The floor: per element, two Math.exp and one store, over the same rows × actions logits. */
function floor(z, out) {
  let s = 0;
  for (let k = 0; k < z.length; k++) {
    const v = z[k];
    out[k] = Math.exp(v);
    s += Math.exp(-v);
  }
  return s;
}

const reverse = { logits, rows, actions, selected, beta: 0.05, kl: 'reverse' };
const forward = { logits, rows, actions, selected, beta: 0.05, kl: 'forward' };
const rowRef = { logits, rows, actions, selected, beta: 0.05, kl: 'reverse', reference: { logits: refRows } };
const pg = { logits, rows, actions, selected, advantages };
const outs = Array.from({ length: 4 }, () => ({ grad: new Float64Array(n) }));
const floorOut = new Float64Array(n);

/**
 * Smallest heap growth per call of `call()` over `windows` windows of `calls` calls, each after a full
 * GC and counted only if no GC ran inside it: the minimum skips the JIT warm-up, whose compilations
 * allocate while the function tiers up.
 */
function heapPerCall(call, calls, windows) {
  let best = Number.POSITIVE_INFINITY;
  for (let w = 0; w < windows; w++) {
    gc();
    const profiler = new v8.GCProfiler();
    profiler.start();
    const before = v8.getHeapStatistics().used_heap_size;
    for (let k = 0; k < calls; k++) call();
    const grown = v8.getHeapStatistics().used_heap_size - before;
    if ((profiler.stop()?.statistics.length ?? 0) === 0) best = Math.min(best, grown / calls);
  }
  return best;
}
const small = {
  logits: logits.subarray(0, 64 * 64),
  rows: 64,
  actions: 64,
  selected: selected.map((a) => a % 64).subarray(0, 64),
  beta: 0.05,
};
const smallOut = { grad: new Float64Array(64 * 64) };

/**
 * JavaScript heap bytes allocated per call of `call()` by frames below ftwLoss, from V8's sampling heap
 * profiler (one sample per 16 allocated bytes on average): at the large shape a window holds only a few
 * calls, and used_heap_size also moves with V8's own background work, so the profiler's attribution to
 * JavaScript frames is the sharper measure there.
 */
function sampledBytesPerCall(call, calls) {
  const session = new inspector.Session();
  session.connect();
  let profile;
  session.post('HeapProfiler.enable');
  session.post('HeapProfiler.startSampling', { samplingInterval: 16 });
  for (let k = 0; k < calls; k++) call();
  session.post('HeapProfiler.stopSampling', (error, result) => {
    if (error) throw error;
    profile = result.profile;
  });
  session.disconnect();
  let bytes = 0;
  const walk = (node, below) => {
    const inside = below || node.callFrame.functionName.startsWith('ftwLoss');
    if (inside) bytes += node.selfSize;
    for (const child of node.children) walk(child, inside);
  };
  walk(profile.head, false);
  return bytes / calls;
}
// A training loop's view: one call site, one input shape. First the benchmark shape (12 warm-up calls,
// then three sampled windows of 5 calls), then a small shape (heap growth over 10,000-call windows).
for (let k = 0; k < 12; k++) ftwLoss(reverse, outs[0]);
const heapLarge = [0, 1, 2].map(() => sampledBytesPerCall(() => ftwLoss(reverse, outs[0]), 5));
const heapSmall = heapPerCall(() => ftwLoss(small, smallOut), 10_000, 10);

console.log(`shape: ${rows} rows × ${actions} actions = ${n} elements; Node ${process.versions.node}`);
console.log(
  `JS heap allocation sampled inside ftwLoss with out (256 × 32,768; 3 windows of 5 calls): ${heapLarge.map((b) => b.toFixed(1)).join(', ')} bytes per call`,
);
console.log(
  `heap growth per ftwLoss call with out (64 × 64; best of 10 windows of 10,000 calls after a full GC): ${heapSmall.toFixed(2)} bytes`,
);

const FLOOR = 'floor: 2 × Math.exp per element';
const kernels = {
  'ftwLoss reverse KL, uniform reference': () => do_not_optimize(ftwLoss(reverse, outs[0])),
  'ftwLoss forward KL, uniform reference': () => do_not_optimize(ftwLoss(forward, outs[1])),
  'ftwLoss reverse KL, per-row reference logits': () => do_not_optimize(ftwLoss(rowRef, outs[2])),
  policyGradientLoss: () => do_not_optimize(policyGradientLoss(pg, outs[3])),
};
await runAndReport(
  () => {
    bench(FLOOR, () => do_not_optimize(floor(logits, floorOut)));
    for (const [name, f] of Object.entries(kernels)) bench(name, f);
  },
  [
    { target: 'ftwLoss reverse KL, uniform reference', floor: FLOOR, goal: 2, note: "issue 4's target" },
    { target: 'ftwLoss forward KL, uniform reference', floor: FLOOR, note: 'no goal: for comparison' },
    {
      target: 'ftwLoss reverse KL, per-row reference logits',
      floor: FLOOR,
      note: 'no goal: a second exp per element for the reference',
    },
    { target: 'policyGradientLoss', floor: FLOOR, note: 'no goal: for comparison' },
  ],
  { rounds: 3 },
);
