// mitata benchmark of ReplayPool.push against floors measured in the same run. Run `pnpm build` first:
//   pnpm bench            (node bench/index.mjs: both input kinds, each in its own process)
//   node bench/index.mjs plain|typed
// Floor: a bare ring buffer that stores the same records the pool stores, built the same way (columns
// as typed-array views into shared 256 KiB slabs, copied element by element) but with no validation, no
// sequence ids, no counters and no returns mirror. For scale, two more rings: one that gives every
// record freshly allocated typed arrays, and one that stores only the input references.
// Each input kind runs in a fresh process (so one kind's type feedback does not slow the other) with
// --expose-gc, so mitata collects before each benchmark and none pays for another's garbage.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bench, do_not_optimize, run, summary } from 'mitata';
import { ReplayPool } from '../dist/index.js';
import { FreshArrayRing, ReferenceRing, SameRecordRing } from './bare-ring.mjs';

const CAPACITY = 10_000;
const STEPS = 16;
const INPUTS = 4096; // a power of two, cycled through with a mask
const BATCH = 64; // pushes per measured iteration, so timer overhead stays negligible

const kind = process.argv[2];
if (kind === undefined) {
  for (const k of ['plain', 'typed']) {
    execFileSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), k], { stdio: 'inherit' });
  }
  process.exit(0);
}
if (kind !== 'plain' && kind !== 'typed')
  throw new RangeError(`input kind must be plain or typed, got ${kind}`);

const inputs = Array.from({ length: INPUTS }, (_, k) => {
  const actions = Array.from({ length: STEPS }, (_, t) => (k * 7 + t * 3) % 5);
  const logProbs = Array.from({ length: STEPS }, (_, t) => -((k + t) % 13) / 8 - 0.01);
  const versions = Array.from({ length: STEPS }, (_, t) => (k >> 4) + (t >> 3));
  const ret = (k % 11) - 5;
  return kind === 'typed'
    ? {
        actions: Int32Array.from(actions),
        logProbs: Float64Array.from(logProbs),
        versions: Uint32Array.from(versions),
        return: ret,
      }
    : { actions, logProbs, versions, return: ret };
});

const pool = new ReplayPool({ capacity: CAPACITY });
const floor = new SameRecordRing(CAPACITY);
const fresh = new FreshArrayRing(CAPACITY);
const references = new ReferenceRing(CAPACITY);
// Fill every store first, so that each measured push also evicts (or overwrites) the oldest.
for (const store of [pool, floor, fresh, references]) {
  for (let k = 0; k < CAPACITY; k++) store.push(inputs[k & (INPUTS - 1)]);
}

const label = `${kind} arrays, ${STEPS} steps`;
const names = {
  push: `${label}: ReplayPool.push`,
  floor: `${label}: floor, bare ring of the same records`,
  fresh: `${label}: ring of records with fresh typed arrays`,
  references: `${label}: ring of input references`,
};
let next = 0;
// One closure literal per store keeps every call site monomorphic.
summary(() => {
  bench(names.push, () => {
    for (let j = 0; j < BATCH; j++) pool.push(inputs[next++ & (INPUTS - 1)]);
    do_not_optimize(pool);
  });
  bench(names.floor, () => {
    for (let j = 0; j < BATCH; j++) floor.push(inputs[next++ & (INPUTS - 1)]);
    do_not_optimize(floor);
  });
  bench(names.fresh, () => {
    for (let j = 0; j < BATCH; j++) fresh.push(inputs[next++ & (INPUTS - 1)]);
    do_not_optimize(fresh);
  });
  bench(names.references, () => {
    for (let j = 0; j < BATCH; j++) references.push(inputs[next++ & (INPUTS - 1)]);
    do_not_optimize(references);
  });
});
const { benchmarks } = await run();

const perPush = new Map();
for (const b of benchmarks) for (const r of b.runs) if (r.stats) perPush.set(r.name, r.stats.avg / BATCH);
console.log('');
for (const key of Object.keys(names)) {
  console.log(`${names[key]}: ${perPush.get(names[key]).toFixed(1)} ns per trajectory`);
}
const push = perPush.get(names.push);
console.log(`${label}: ratio push / floor (target <= 3): ${(push / perPush.get(names.floor)).toFixed(2)}`);
console.log(`${label}: ratio push / fresh typed arrays: ${(push / perPush.get(names.fresh)).toFixed(2)}`);
console.log(
  `${label}: ratio push / references only (for scale): ${(push / perPush.get(names.references)).toFixed(1)}`,
);

// Cross-check robust to a shared, overloaded machine: mitata reports wall time, which other processes
// inflate unevenly from one benchmark to the next. Here push and floor alternate in rounds, each round
// after a full collection, timed in CPU time of this process; the medians of 15 rounds are compared.
const ROUND = 300_000;
const cpuPerPush = (store) => {
  globalThis.gc();
  const start = process.cpuUsage();
  for (let k = 0; k < ROUND; k++) store.push(inputs[next++ & (INPUTS - 1)]);
  const used = process.cpuUsage(start);
  return ((used.user + used.system) * 1e3) / ROUND;
};
const rounds = { push: [], floor: [] };
for (let r = 0; r < 15; r++) {
  rounds.push.push(cpuPerPush(pool));
  rounds.floor.push(cpuPerPush(floor));
}
const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
const cpuPush = median(rounds.push);
const cpuFloor = median(rounds.floor);
console.log(`${label}: interleaved CPU time, push ${cpuPush.toFixed(1)} ns, floor ${cpuFloor.toFixed(1)} ns`);
console.log(`${label}: ratio push / floor in CPU time (target <= 3): ${(cpuPush / cpuFloor).toFixed(2)}`);
