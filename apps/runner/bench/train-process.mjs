// The whole `ftw train --seeds 0..99` process (default reproduction configuration: 100 seeds × 240
// iterations) against the training it does, measured inside the same process: start-up, module loading,
// training, the report's charts, report.html and metrics.ndjson, against `trainingMs` of the run's
// timing.json (the time spent in the seeds' trainSeed loops, nothing else). Goal: the process within 2× of
// its training, so that writing the run never costs more than the training it reports.
//
// Runs the built CLI (dist/cli.js; `pnpm bench` builds it first, through turbo) several times, each in a
// fresh temporary folder that is removed afterwards. The figure is the median over rounds of the ratio
// (process wall time / training time of the same round), with the range beside it; the start-up of a bare
// `node -e 0` is printed as the floor no process gets below. Beside it, for scale, the same ratio for a
// process that only trains: Node, the training modules (src/training.ts built from the current sources),
// the same 100 seeds through trainSeed, and nothing else: no CLI, no summary, nothing written. No run of
// `ftw train` can have a lower ratio. And the same process that then builds the text of metrics.ndjson from
// the seeds' rows (the run's one file that grows with its iterations, by the runner's `ndjson`; not
// written): what the goal leaves for the rest of the run (report.html, the charts, the other files) is
// the gap between its ratio and 2. Exits 1 when the median ratio misses the goal, when dist/cli.js is
// missing, or when a run fails.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFromSource } from '../scripts/build-from-source.mjs';

const ROUNDS = 5;
const GOAL = 2;
const ARGS = ['train', '--seeds', '0..99', '--quiet'];

const runner = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(runner, 'dist', 'cli.js');

/** The newest modification time of the files under a folder. */
function newest(folder) {
  let latest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Wall time of a child process, ms; throws with its output when it fails. */
function timed(args) {
  const start = performance.now();
  const child = spawnSync(process.execPath, args, { encoding: 'utf8' });
  const ms = performance.now() - start;
  if (child.status !== 0) {
    throw new Error(`node ${args.join(' ')} exited with ${child.status}:\n${child.stderr}${child.stdout}`);
  }
  return ms;
}

if (!existsSync(cli)) {
  console.error(`${cli} is missing: build the runner first (pnpm --filter @ftw/runner build, or pnpm bench)`);
  process.exit(1);
}
// A warning, not a failure: turbo (pnpm bench) rebuilds by content hash and may restore an older dist/
// from its cache, whose dates say nothing.
if (statSync(cli).mtimeMs < newest(join(runner, 'src'))) {
  console.warn(
    `warning: ${cli} is older than a file of src/; pnpm bench rebuilds it when the sources changed`,
  );
}

// A process that only trains: its wall time, and the time its trainSeed calls took (printed on stdout).
// With `metrics`, it then builds the text of metrics.ndjson from the rows and prints that time too.
const training = await buildFromSource({ entry: 'src/training.ts', name: 'training' });
const trainOnlyScript = (metrics) => `
const { REPRODUCE_CONFIG, ndjson, trainSeed } = await import(${JSON.stringify(training.file)});
const config = { ...REPRODUCE_CONFIG, seeds: Array.from({ length: 100 }, (_, i) => i) };
let ms = 0;
const results = [];
for (const seed of config.seeds) {
  const start = performance.now();
  results.push(trainSeed(config, seed));
  ms += performance.now() - start;
}
let text = 0;
if (${metrics}) {
  const start = performance.now();
  const length = ndjson(results.flatMap((r) => r.metrics)).length;
  text = performance.now() - start;
  if (!(length > 0)) throw new Error('no metrics text');
}
process.stdout.write(JSON.stringify([ms, text]));
`;
function trainOnly(metrics) {
  const start = performance.now();
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', trainOnlyScript(metrics)], {
    encoding: 'utf8',
  });
  const wall = performance.now() - start;
  if (child.status !== 0) throw new Error(`the training-only process failed:\n${child.stderr}`);
  const [ms, text] = JSON.parse(child.stdout);
  return { wall, training: ms, text, ratio: wall / ms };
}

const rounds = [];
const startups = [];
const bare = [];
const withMetrics = [];
try {
  for (let round = 0; round < ROUNDS; round++) {
    startups.push(timed(['-e', '0']));
    bare.push(trainOnly(false));
    withMetrics.push(trainOnly(true));
    const out = mkdtempSync(join(tmpdir(), 'ftw-train-process-'));
    try {
      const wall = timed([cli, ...ARGS, '--out', out]);
      const timing = JSON.parse(readFileSync(join(out, 'train', 'timing.json'), 'utf8'));
      if (!(typeof timing.trainingMs === 'number' && timing.trainingMs > 0)) {
        throw new Error(`timing.json has no trainingMs: ${JSON.stringify(timing)}`);
      }
      rounds.push({ wall, training: timing.trainingMs, ratio: wall / timing.trainingMs });
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }
} finally {
  training.remove();
}
const ratios = rounds.map((r) => r.ratio);
const bareRatios = bare.map((r) => r.ratio);
const ratio = median(ratios);
const met = ratio <= GOAL;
const ms = (v) => `${v.toFixed(0)} ms`;
console.log(`ftw ${ARGS.join(' ')} (${ROUNDS} rounds, each in a fresh folder)`);
console.log(`  process wall time  median ${ms(median(rounds.map((r) => r.wall)))}`);
console.log(`  training (trainingMs of timing.json)  median ${ms(median(rounds.map((r) => r.training)))}`);
console.log(`  node start-up (node -e 0, floor)  median ${ms(median(startups))}`);
console.log(
  `  for scale, a process that only trains (no CLI, nothing written): ${ms(median(bare.map((r) => r.wall)))} against ${ms(median(bare.map((r) => r.training)))} of training, ${median(bareRatios).toFixed(2)}× (rounds ${Math.min(...bareRatios).toFixed(2)}–${Math.max(...bareRatios).toFixed(2)}×)`,
);
const metricsRatios = withMetrics.map((r) => r.ratio);
const textShares = withMetrics.map((r) => r.text / r.training);
console.log(
  `  for scale, the same process, then the text of metrics.ndjson (built, not written): ${median(metricsRatios).toFixed(2)}× (rounds ${Math.min(...metricsRatios).toFixed(2)}–${Math.max(...metricsRatios).toFixed(2)}×); the text alone ${ms(median(withMetrics.map((r) => r.text)))}, ${median(textShares).toFixed(2)}× the training`,
);
console.log(
  `  process / training: ${ratio.toFixed(2)}× (rounds ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}×)  goal ≤ ${GOAL}×: ${met ? 'met' : 'NOT MET'}`,
);
if (!met) {
  console.log('1 goal missed');
  process.exitCode = 1;
}
