// Why readJsonlLines splits lines itself instead of using node:readline: speed on the bench's log, and
// memory on a log with one over-long line. readline (with a tee into SHA-256, as readJsonlLines hashes
// every byte) is timed on the same file, alternating rounds, median of ROUNDS; then each reader runs in a
// child process over a file holding one 128 MiB line between two short ones, and prints its peak RSS:
// readJsonlLines skips the line past maxLineBytes (here 1 MiB) and stays small, readline has no limit
// and builds the whole line as one string.
//
// Run with `pnpm build && node bench/line-splitter.mjs`. Prints the figures and the ratios.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { newJsonlProgress, readJsonlLines } from '../dist/index.js';
import { generateLog } from './generate-log.mjs';

const RUNS = 25_000;
const ROUNDS = 5;

async function own(path, maxLineBytes) {
  let chars = 0;
  for await (const { text } of readJsonlLines(path, newJsonlProgress(), { maxLineBytes }))
    chars += text.length;
  return chars;
}

async function viaReadline(path) {
  const hash = createHash('sha256');
  const input = createReadStream(path, { highWaterMark: 1 << 20 });
  input.on('data', (chunk) => hash.update(chunk));
  let chars = 0;
  for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    if (line.length > 0) chars += line.length;
  }
  hash.digest('hex');
  return chars;
}

if (process.argv[2] === 'child') {
  const [, , , reader, path] = process.argv;
  await (reader === 'own' ? own(path, 1 << 20) : viaReadline(path));
  console.log(JSON.stringify(process.resourceUsage().maxRSS * 1024));
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), 'agent-data-lines-'));
try {
  const path = join(dir, 'runs.jsonl');
  const bytes = await generateLog(path, RUNS);
  const times = { own: [], readline: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, f] of [
      ['own', () => own(path)],
      ['readline', () => viaReadline(path)],
    ]) {
      const t = performance.now();
      await f();
      times[name].push(performance.now() - t);
    }
  }
  const median = (v) => v.toSorted((a, b) => a - b)[(ROUNDS - 1) / 2];
  const o = median(times.own);
  const r = median(times.readline);
  console.log(`log: ${RUNS} trajectories, ${(bytes / 1e6).toFixed(1)} MB`);
  console.log(
    `readJsonlLines ${o.toFixed(0)} ms, readline + sha256 ${r.toFixed(0)} ms: readline / own = ${(r / o).toFixed(2)}`,
  );

  const long = join(dir, 'long.jsonl');
  const out = createWriteStream(long);
  out.write('{"a":1}\n"');
  const block = 'x'.repeat(1 << 20);
  for (let i = 0; i < 128; i++) if (!out.write(block)) await once(out, 'drain');
  out.end('"\n{"b":2}\n');
  await once(out, 'finish');
  const self = fileURLToPath(import.meta.url);
  const rss = (reader) =>
    JSON.parse(execFileSync(process.execPath, [self, 'child', reader, long], { encoding: 'utf8' }));
  const ownRss = rss('own');
  const readlineRss = rss('readline');
  console.log(
    `one 128 MiB line: peak RSS readJsonlLines (maxLineBytes 1 MiB) ${(ownRss / 2 ** 20).toFixed(0)} MiB, readline ${(readlineRss / 2 ** 20).toFixed(0)} MiB (${(readlineRss / ownRss).toFixed(1)}×)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
