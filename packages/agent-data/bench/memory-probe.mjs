// Child process of bench/index.mjs (run with --expose-gc): runs buildDataset on one file and prints its peak
// RSS and its peak live heap, sampled after a full garbage collection every 8 MB of input (the memory the
// run retains, which must be bounded by N; garbage awaiting collection is V8's business, not the run's).
import { buildDataset } from '../dist/index.js';

const [input, out, capacity] = process.argv.slice(2);
let heap = 0;
let next = 0;
const sample = () => {
  globalThis.gc();
  heap = Math.max(heap, process.memoryUsage().heapUsed);
};
let a = 1;
const random = () => {
  a = (Math.imul(a, 1664525) + 1013904223) >>> 0;
  return a / 4294967296;
};
await buildDataset({
  input,
  capacity: Number(capacity),
  batches: 1000,
  batchSize: 16,
  keep: 4,
  format: 'openai',
  out,
  random,
  onProgress: (stats) => {
    if (stats.bytes >= next) {
      next = stats.bytes + 8 * 2 ** 20;
      sample();
    }
  },
});
sample();
process.stdout.write(JSON.stringify({ rss: process.resourceUsage().maxRSS * 1024, heap }));
