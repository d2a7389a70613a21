// Benchmark of @ftw/tfjs against PyTorch (issue 40, item 7; run `pnpm build` first: it imports ../dist).
// One training step of the MLP (100 → 256 → 256 → 4, ReLU: 92,676 parameters) at batch 256:
// forward, the loss's logit gradients, backward, Adam.
//   - `policy step`: the path @ftw/trainer takes through MlpPolicy: logits (one forward), ftwLoss's
//     ∂L/∂z in JavaScript, backward (tf.grads: a second forward and the backward), the trainer's Adam on
//     θ in float64 (and θ uploaded again before the next pass);
//   - `tfjs step`: the same network written directly in tfjs, tf.variableGrads and tf.train.adam (one
//     forward): the floor of what tfjs does on this backend;
//   - PyTorch on CPU (Debian's python3-torch, spawned: bench/torch-mlp.py), forward + cross-entropy +
//     backward + Adam, one thread and the machine's threads.
// Rounds alternate PyTorch and tfjs (mitata) so that load on the shared machine hits both alike; each
// round's ratio is tfjs p50 / PyTorch p50, and the figure is the median over rounds. The goal: the policy
// step within 3× of PyTorch with one thread (tfjs-wasm runs on one thread); a miss sets the exit code.
// GFLOP/s: 2·B·Σ in·out multiply-adds per forward, twice that for the backward (weight and input
// gradients; the first layer's input gradient is not needed, which this count ignores).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { ftwLoss } from '@ftw/objective';
import { createOptimizer } from '@ftw/trainer';
import * as tf from '@tensorflow/tfjs';
import { bench, do_not_optimize, run } from 'mitata';
import { createMlpPolicy } from '../dist/index.js';

const SIZES = [100, 256, 256, 4];
const BATCH = 256;
const ROUNDS = 3;
const GOAL = 3;
const backend = process.env.FTW_TFJS_BACKEND ?? 'wasm';
const python = process.env.FTW_PYTHON ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');

let seed = 7;
const random = () => ((seed = (seed * 48271) % 2147483647) - 1) / 2147483646;
const policy = await createMlpPolicy({
  inputSize: SIZES[0],
  hiddenSizes: SIZES.slice(1, -1),
  numActions: SIZES.at(-1),
  backend,
  random,
});
const used = tf.getBackend();
const A = policy.numActions;
const x = Float64Array.from({ length: BATCH * SIZES[0] }, () => random() - 0.5);
const selected = Int32Array.from({ length: BATCH }, (_, r) => r % A);
const z = new Float64Array(BATCH * A);
const grad = new Float64Array(policy.parameters.length);
const adam = createOptimizer('adam', 1e-4);

function policyStep() {
  policy.logits(x, BATCH, z);
  const { grad: logitGrad } = ftwLoss({ logits: z, rows: BATCH, actions: A, selected, beta: 0.05 });
  grad.fill(0);
  policy.backward(x, BATCH, logitGrad, grad);
  adam.step(policy.parameters, grad);
}

// The same network in plain tfjs, one forward per step.
const variables = SIZES.slice(1).flatMap((out, l) => [
  tf.variable(tf.randomUniform([SIZES[l], out], -0.1, 0.1)),
  tf.variable(tf.zeros([out])),
]);
const xs = tf.tensor2d(Float32Array.from(x), [BATCH, SIZES[0]]);
const labels = tf.oneHot(tf.tensor1d(selected, 'int32'), A);
const tfAdam = tf.train.adam(1e-4);
function tfjsStep() {
  tf.tidy(() => {
    const { grads } = tf.variableGrads(() => {
      let h = xs;
      for (let l = 0; l < variables.length / 2; l++) {
        h = tf.add(tf.matMul(h, variables[2 * l]), variables[2 * l + 1]);
        if (l < variables.length / 2 - 1) h = tf.relu(h);
      }
      return tf.losses.softmaxCrossEntropy(labels, h);
    });
    tfAdam.applyGradients(grads);
  });
}

function torch(threads) {
  const script = fileURLToPath(new URL('./torch-mlp.py', import.meta.url));
  const config = JSON.stringify({ sizes: SIZES, batch: BATCH, steps: 40, threads });
  const result = spawnSync(python, [script, config], { encoding: 'utf8' });
  if (result.status !== 0) return null;
  return JSON.parse(result.stdout.trim().split('\n').at(-1));
}

const macs = SIZES.slice(1).reduce((s, out, l) => s + SIZES[l] * out, 0) * BATCH;
const flops = { policy: 2 * macs * 4, tfjs: 2 * macs * 3, torch: 2 * macs * 3 };
const gflops = (kind, ms) => (flops[kind] / (ms * 1e6)).toFixed(2);

const threads = availableParallelism();
const rows = [];
for (let round = 0; round < ROUNDS; round++) {
  const one = torch(1);
  const all = threads > 1 ? torch(threads) : one;
  if (one === null) {
    console.log(`PyTorch is not available (${python} -c "import torch" fails): tfjs timings only`);
  }
  bench(`policy step (${used})`, () => do_not_optimize(policyStep()));
  bench(`tfjs step (${used})`, () => tfjsStep());
  const { benchmarks } = await run({ format: round === 0 ? 'mitata' : 'quiet', colors: false });
  const p50 = new Map(benchmarks.flatMap((t) => t.runs.map((r) => [r.name, r.stats.p50 / 1e6])));
  rows.push({
    policy: p50.get(`policy step (${used})`),
    tfjs: p50.get(`tfjs step (${used})`),
    torch1: one?.p50Ms ?? Number.NaN,
    torchAll: all?.p50Ms ?? Number.NaN,
    version: one?.torch,
  });
}

const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];
const m = (key) => median(rows.map((r) => r[key]));
const ratio = (key, peer) => median(rows.map((r) => r[key] / r[peer]));
console.log(
  `\nMLP ${SIZES.join(' → ')} (${policy.parameters.length} parameters), batch ${BATCH}, backend ${used}`,
);
console.log(`median over ${ROUNDS} rounds of p50 per step:`);
console.log(
  `  policy step (MlpPolicy + trainer Adam) ${m('policy').toFixed(1)} ms  ${gflops('policy', m('policy'))} GFLOP/s`,
);
console.log(
  `  tfjs step (variableGrads + tf Adam)    ${m('tfjs').toFixed(1)} ms  ${gflops('tfjs', m('tfjs'))} GFLOP/s`,
);
if (!Number.isNaN(m('torch1'))) {
  console.log(
    `  PyTorch ${rows[0].version}, 1 thread        ${m('torch1').toFixed(1)} ms  ${gflops('torch', m('torch1'))} GFLOP/s`,
  );
  console.log(
    `  PyTorch, ${threads} threads              ${m('torchAll').toFixed(1)} ms  ${gflops('torch', m('torchAll'))} GFLOP/s`,
  );
  const mine = ratio('policy', 'torch1');
  console.log(`ratios (median of per-round ratios):`);
  console.log(
    `  policy step / PyTorch 1 thread  ${mine.toFixed(2)}×  goal ≤ ${GOAL}×: ${mine <= GOAL ? 'met' : 'NOT MET'}`,
  );
  console.log(
    `  policy step / PyTorch ${threads} threads ${ratio('policy', 'torchAll').toFixed(2)}×  (for scale)`,
  );
  console.log(`  tfjs step / PyTorch 1 thread    ${ratio('tfjs', 'torch1').toFixed(2)}×  (for scale)`);
  console.log(
    `  policy step / tfjs step         ${ratio('policy', 'tfjs').toFixed(2)}×  (the Policy interface's cost)`,
  );
  if (mine > GOAL) process.exitCode = 1;
}
