// Benchmark of a whole neural FTW run on Sokoban against its floor (issue 40, item 7; run `pnpm build` first:
// it imports the packages' dist). For each network (ConvPolicy on the grid channels, MlpPolicy on the
// egocentric features), on 6 × 6 one-box levels (10 training, 10 held-out, at most 8 moves, 30 steps):
//   - `run`: @ftw/trainer's train() as `ftw train --policy cnn|mlp` runs it: FTW (N = 128, C = 5, K = 1,
//     J = 4, β = 0.05), Adam 1e-3, 16 episodes per iteration from 8 environment instances in lockstep (one
//     batched logits call per step), the greedy evaluation of all 20 levels as `--eval-every 10` runs it
//     (after iterations 1 and 10 of a sample: 2 of its 10; FTW_BENCH_EVAL_EVERY=1 evaluates every one, the
//     setting before `--eval-every`); ten iterations per sample;
//   - `floor`: the same network's batched inference alone (policy.logits) on the same observation batches
//     as the run's collection handed it (recorded from a first run), nothing else.
// Both are timed in environment steps: the run's time per step is its p50 per sample over the mean steps
// per sample; the floor's is its p50 per pass over the rows of the pass. The goal: the run within 2× of the
// floor (a miss sets the exit code). A second, instrumented run says where the run's time goes.
import { EncodedSokobanEnv, generateLevel, seededUniform } from '@ftw/sokoban';
import { createOptimizer, train } from '@ftw/trainer';
import * as tf from '@tensorflow/tfjs';
import { bench, do_not_optimize, run } from 'mitata';
import { ConvPolicy, MlpPolicy, useBackend } from '../dist/index.js';

const GOAL = 2;
const ENVS = 8;
const ROLLOUTS = 16;
const ITERATIONS = 10;
const EVAL_EVERY = Number(process.env.FTW_BENCH_EVAL_EVERY ?? 10);
const backend = await useBackend(process.env.FTW_TFJS_BACKEND ?? 'wasm');

const stream = seededUniform(0);
const levels = Array.from(
  { length: 20 },
  () => generateLevel({ width: 6, height: 6, boxes: 1, maxMoves: 8 }, stream).level,
);
const training = levels.slice(0, 10);
const heldOut = levels.slice(10);

function setting(kind) {
  const encoding = kind === 'cnn' ? 'grid' : 'features';
  const envs = Array.from(
    { length: ENVS },
    (_, j) =>
      new EncodedSokobanEnv({
        levels: training,
        heldOut,
        encoding,
        maxSteps: 30,
        random: seededUniform(100 + j),
      }),
  );
  const init = seededUniform(7);
  const policy =
    kind === 'cnn'
      ? new ConvPolicy({ height: envs[0].height, width: envs[0].width, numActions: 4, random: init })
      : new MlpPolicy({ inputSize: envs[0].observationSize, numActions: 4, hiddenSizes: [64], random: init });
  const randoms = envs.map((_, j) => seededUniform(200 + j));
  const optimizer = createOptimizer('adam', 1e-3);
  const selectionRandom = seededUniform(300);
  const trainOnce = (options = {}) =>
    train({
      env: envs,
      policy,
      iterations: ITERATIONS,
      rollouts: ROLLOUTS,
      optimizer,
      random: randoms,
      selectionRandom,
      keepMetrics: false,
      evaluateEvery: EVAL_EVERY,
      ...options,
    });
  return { envs, policy, trainOnce, optimizer };
}

/** Times of the parts of one run, by wrapping the calls (a run of its own, after the timed ones). */
function breakdown({ envs, policy, trainOnce, optimizer }) {
  const spent = {
    'env step/reset': 0,
    'logits (collection)': 0,
    'logits (update)': 0,
    'logits (KL meter)': 0,
    backward: 0,
    Adam: 0,
    evaluate: 0,
  };
  let inEvaluate = false;
  const timed = (object, name, part) => {
    const original = object[name].bind(object);
    object[name] = (...args) => {
      const start = performance.now();
      try {
        return original(...args);
      } finally {
        const took = performance.now() - start;
        if (!(inEvaluate && part !== 'evaluate' && part !== 'logits'))
          spent[typeof part === 'function' ? part() : part] += took;
      }
    };
    return original;
  };
  const restore = [];
  for (const env of envs) {
    restore.push([env, 'step', timed(env, 'step', 'env step/reset')]);
    restore.push([env, 'reset', timed(env, 'reset', 'env step/reset')]);
  }
  const evaluate = envs[0].evaluate.bind(envs[0]);
  envs[0].evaluate = (p) => {
    inEvaluate = true;
    const start = performance.now();
    try {
      return evaluate(p);
    } finally {
      spent.evaluate += performance.now() - start;
      inEvaluate = false;
    }
  };
  const logits = policy.logits.bind(policy);
  policy.logits = (o, rows, out, p) => {
    const start = performance.now();
    const z = logits(o, rows, out, p);
    const took = performance.now() - start;
    if (inEvaluate) return z;
    // The collector's calls have at most ENVS rows; the update's and the policy-shift meter's span many.
    // A call of many rows counts as the meter's until a backward follows it: then it was the update's.
    if (rows <= ENVS) spent['logits (collection)'] += took;
    else {
      spent['logits (KL meter)'] += took;
      lastBig = took;
    }
    return z;
  };
  let lastBig = 0;
  const backward = timed(policy, 'backward', 'backward');
  const timedBackward = policy.backward;
  policy.backward = (...args) => {
    spent['logits (KL meter)'] -= lastBig;
    spent['logits (update)'] += lastBig;
    lastBig = 0;
    return timedBackward(...args);
  };
  restore.push([policy, 'backward', backward]);
  restore.push([optimizer, 'step', timed(optimizer, 'step', 'Adam')]);
  let steps = 0;
  const start = performance.now();
  for (let k = 0; k < 5; k++) steps += trainOnce().samples;
  const total = performance.now() - start;
  for (const [object, name, original] of restore) object[name] = original;
  delete policy.logits;
  delete envs[0].evaluate;
  const known = Object.values(spent).reduce((s, v) => s + v, 0);
  return { total, steps, parts: { ...spent, 'selection, loss, rest': total - known } };
}

const results = [];
for (const kind of ['cnn', 'mlp']) {
  const s = setting(kind);
  // Record the observation batches of a first run's collection: the floor's input.
  const batches = [];
  const logits = s.policy.logits.bind(s.policy);
  s.policy.logits = (o, rows, out, p) => {
    if (rows <= ENVS && batches.length < 4000)
      batches.push(Float32Array.from(o.subarray(0, rows * s.policy.observationSize)));
    return logits(o, rows, out, p);
  };
  s.trainOnce({ iterations: 4 });
  delete s.policy.logits;
  const rows = batches.map((b) => b.length / s.policy.observationSize);
  const floorRows = rows.reduce((a, b) => a + b, 0);
  const out = new Float64Array(ENVS * 4);
  let samples = 0;
  let calls = 0;
  bench(`${kind} run (${backend})`, () => {
    samples += s.trainOnce().samples;
    calls++;
  });
  bench(`${kind} floor: logits alone (${backend})`, () => {
    for (let i = 0; i < batches.length; i++) do_not_optimize(s.policy.logits(batches[i], rows[i], out));
  });
  const { benchmarks } = await run({ colors: false });
  const p50 = new Map(benchmarks.flatMap((t) => t.runs.map((r) => [r.name, r.stats.p50 / 1e6])));
  const runPerStep = p50.get(`${kind} run (${backend})`) / (samples / calls);
  const floorPerStep = p50.get(`${kind} floor: logits alone (${backend})`) / floorRows;
  const parts = breakdown(s);
  results.push({ kind, runPerStep, floorPerStep, parts, parameters: s.policy.parameters.length });
  s.policy.dispose();
}

console.log(
  `\nwhole neural FTW run on Sokoban 6×6, 1 box, ${ENVS} envs in lockstep, ${ROLLOUTS} episodes/iteration, evaluateEvery ${EVAL_EVERY} over ${ITERATIONS} iterations, backend ${backend}`,
);
let missed = false;
for (const { kind, runPerStep, floorPerStep, parts, parameters } of results) {
  const ratio = runPerStep / floorPerStep;
  if (!(ratio <= GOAL)) missed = true;
  console.log(
    `${kind} (${parameters} parameters): run ${(1000 / runPerStep).toFixed(0)} steps/s, floor ${(1000 / floorPerStep).toFixed(0)} steps/s: run / floor ${ratio.toFixed(2)}× (goal ≤ ${GOAL}×)`,
  );
  const share = Object.entries(parts.parts)
    .map(([name, ms]) => `${name} ${((100 * ms) / parts.total).toFixed(0)}%`)
    .join(', ');
  console.log(`  where an instrumented run's ${(parts.total / parts.steps).toFixed(3)} ms/step go: ${share}`);
}
console.log(`tensors alive at the end: ${tf.memory().numTensors}`);
if (missed) process.exitCode = 1;
