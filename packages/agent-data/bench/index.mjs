// Speed and memory of the whole path from a log to a fine-tuning file (`buildDataset`: stream, validate,
// keep the newest N, select by FTW, write the OpenAI file and its manifest) against a floor measured in
// the same run: reading the same file line by line with JSON.parse alone (a plain chunk splitter, no
// hashing, no validation). Goal (issue 13): at least a third of the floor's speed, i.e. time ratio <= 3.
//
// The pass over a 150 MB file takes seconds, so mitata's many-iteration sampling does not fit: the bench
// alternates floor and target for ROUNDS rounds and reports the median ratio (the machine is shared, and
// a burst of load can slow one side of a round alone). Memory is measured in child processes, one per file
// size with the same N: the peak live heap (after a full GC, sampled every 8 MB) must not grow with the
// file (goal: the 4× larger file within 1.25× + 16 MiB of the smaller one's); peak RSS is printed beside
// it, and both children run under a 512 MB heap cap that parsing the whole 150 MB log would exceed.
//
// Run with `pnpm build && pnpm bench`. Prints each goal beside its figure; exits non-zero on a miss.
import { execFileSync } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDataset } from '../dist/index.js';
import { generateLog } from './generate-log.mjs';

const RUNS = 100_000;
const ROUNDS = 5;
const CAPACITY = 10_000;
const SELECTION = { batches: 1000, batchSize: 16, keep: 4 };
const RATIO_GOAL = 3;

async function floor(path) {
  let carry = '';
  let lines = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(10, start);
      if (end === -1) break;
      const text =
        carry === '' ? chunk.toString('utf8', start, end) : carry + chunk.toString('utf8', start, end);
      carry = '';
      JSON.parse(text);
      lines++;
      start = end + 1;
    }
    carry += chunk.toString('utf8', start);
  }
  return lines;
}

function uniform(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function target(path, out) {
  const { manifest } = await buildDataset({
    input: path,
    capacity: CAPACITY,
    ...SELECTION,
    format: 'openai',
    out,
    random: uniform(1),
    seed: 1,
  });
  return manifest.output.lines;
}

const dir = mkdtempSync(join(tmpdir(), 'agent-data-bench-'));
let failed = 0;
try {
  const path = join(dir, 'runs.jsonl');
  const bytes = await generateLog(path, RUNS);
  console.log(
    `log: ${RUNS} trajectories, ${(bytes / 1e6).toFixed(1)} MB; N = ${CAPACITY}, J = ${SELECTION.batches}, C = ${SELECTION.batchSize}, K = ${SELECTION.keep}`,
  );
  const ratios = [];
  for (let round = 0; round < ROUNDS; round++) {
    let t = performance.now();
    await floor(path);
    const f = performance.now() - t;
    t = performance.now();
    await target(path, join(dir, 'sft.jsonl'));
    const b = performance.now() - t;
    ratios.push(b / f);
    console.log(
      `  round ${round + 1}: floor ${(f / 1000).toFixed(2)} s (${(bytes / 1e6 / (f / 1000)).toFixed(0)} MB/s), buildDataset ${(b / 1000).toFixed(2)} s (${(bytes / 1e6 / (b / 1000)).toFixed(0)} MB/s), ratio ${(b / f).toFixed(2)}`,
    );
  }
  const sorted = ratios.toSorted((a, b) => a - b);
  const median = sorted[(ROUNDS - 1) / 2];
  const met = median <= RATIO_GOAL;
  if (!met) failed++;
  console.log(
    `\nbuildDataset / (line-by-line JSON.parse): ${median.toFixed(2)}× median of ${ROUNDS} rounds (rounds ${sorted[0].toFixed(2)}–${sorted.at(-1).toFixed(2)}) (goal <= ${RATIO_GOAL}×) ${met ? 'met' : 'NOT MET'}`,
  );

  // Memory: the same N over a file 4× larger, each in a fresh process.
  const small = join(dir, 'small.jsonl');
  const smallBytes = await generateLog(small, RUNS / 4);
  const probe = fileURLToPath(new URL('./memory-probe.mjs', import.meta.url));
  const measure = (file) =>
    JSON.parse(
      execFileSync(
        process.execPath,
        [
          '--expose-gc',
          '--max-old-space-size=512',
          probe,
          file,
          join(dir, 'mem-sft.jsonl'),
          String(CAPACITY),
        ],
        {
          encoding: 'utf8',
        },
      ),
    );
  const a = measure(small);
  const b = measure(path);
  console.log(`\nmemory with N = ${CAPACITY} (peak RSS / peak live heap):`);
  console.log(
    `  ${(smallBytes / 1e6).toFixed(0)} MB file (${RUNS / 4} runs): ${(a.rss / 2 ** 20).toFixed(0)} MiB / ${(a.heap / 2 ** 20).toFixed(0)} MiB`,
  );
  console.log(
    `  ${(bytes / 1e6).toFixed(0)} MB file (${RUNS} runs): ${(b.rss / 2 ** 20).toFixed(0)} MiB / ${(b.heap / 2 ** 20).toFixed(0)} MiB`,
  );
  const bound = (x) => 1.25 * x + 16 * 2 ** 20;
  const memoryMet = b.heap <= bound(a.heap);
  if (!memoryMet) failed++;
  console.log(
    `  4× the file: live heap ×${(b.heap / a.heap).toFixed(2)} (goal <= 1.25× + 16 MiB: bounded by N, not by the file) ${memoryMet ? 'met' : 'NOT MET'}; RSS ×${(b.rss / a.rss).toFixed(2)}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(failed === 0 ? '\nall goals met' : `\n${failed} goal(s) NOT MET`);
process.exitCode = failed === 0 ? 0 : 1;
