// Memory stays flat once the pool is full: pushes 10^7 small trajectories into a pool of capacity 10^4
// and reports the heap after a full garbage collection at 10^5, 10^6 and 10^7 pushes. Run `pnpm build`
// first, then
//   node --expose-gc bench/memory.mjs [pushes=10000000] [capacity=10000]
// heapUsed counts JavaScript objects; arrayBuffers counts the slabs that hold the typed-array columns.
import { ReplayPool } from '../dist/index.js';

if (typeof globalThis.gc !== 'function') {
  console.error('run with node --expose-gc bench/memory.mjs');
  process.exit(1);
}
const pushes = Number(process.argv[2] ?? 1e7);
const capacity = Number(process.argv[3] ?? 1e4);
const checkpoints = new Set([1e5, 1e6, 1e7, pushes].filter((n) => n <= pushes));

const inputs = Array.from({ length: 1024 }, (_, k) => ({
  actions: [k % 4, (k >> 2) % 4, (k >> 4) % 4],
  logProbs: [-1.386, -0.5, -(k % 9) / 4],
  versions: k >> 6,
  return: (k % 13) - 6,
}));
const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(2)} MiB`;

const pool = new ReplayPool({ capacity });
const rows = [];
const started = performance.now();
for (let k = 1; k <= pushes; k++) {
  pool.push(inputs[k & 1023]);
  if (checkpoints.has(k)) {
    globalThis.gc();
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    rows.push({ pushes: k, heapUsed, arrayBuffers });
    console.log(
      `after ${k.toExponential(0)} pushes: size ${pool.size}, evicted ${pool.evictedCount}, ` +
        `heapUsed ${mib(heapUsed)}, arrayBuffers ${mib(arrayBuffers)}, ${((performance.now() - started) / 1e3).toFixed(1)} s`,
    );
  }
}
const first = rows[0];
const last = rows[rows.length - 1];
console.log(
  `growth from ${first.pushes.toExponential(0)} to ${last.pushes.toExponential(0)} pushes: ` +
    `heapUsed ${mib(last.heapUsed - first.heapUsed)}, arrayBuffers ${mib(last.arrayBuffers - first.arrayBuffers)}`,
);
