// Training across processes, measured (docs/actors.md): FTW with an mlp policy on generated 6×6 Sokoban
// levels, synchronously (one process, lockstep environments) and with A = 1, 2, 4 actor processes over a
// private redis-server, each seed a process of its own at the same budget of environment steps. Prints
// per setting: environment steps per second (wall clock of the whole `ftw train` process, and for actors
// the learner's count from the first episode's arrival), the share of the learner's time spent waiting for
// episodes (near 1: the actors bound the throughput; near 0: the learner), its updates per second, the version lag
// of the trajectories the learner held and selected (its version minus theirs), the version spread inside
// trajectories, and held-out greedy success of the final policies on 500 levels of another level seed
// (`ftw evaluate --level-seed 1 --held-out 500`), each a mean over seeds ± a 95% t interval; and the
// machine's cores and load average before and after. Needs a built runner (`pnpm build`).
//
//   node scripts/actors-study.mjs                                   seeds 0..4, 50 000 steps, A = 1, 2, 4
//   node scripts/actors-study.mjs --seeds 0..1 --samples 5000 --actors 1,2 --out /tmp/actors
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg, cli, mean, showInterval } from './study-helpers.mjs';

const [first, last] = arg('--seeds', '0..4').split('..').map(Number);
const seeds = Array.from({ length: last - first + 1 }, (_, k) => first + k);
const samples = arg('--samples', '50000');
const actorCounts = arg('--actors', '1,2,4').split(',').map(Number);
const keepOut = arg('--out', undefined);
const out = keepOut ?? mkdtempSync(join(tmpdir(), 'ftw-actors-'));

const common = [
  'train',
  ...['--env', 'sokoban', '--size', '6', '--boxes', '1'],
  ...['--level-set', 'split', '--levels', '2000', '--held-out', '20', '--level-cache', join(out, 'levels')],
  ...['--policy', 'mlp', '--optimizer', 'adam', '--lr', '0.001'],
  ...['--max-samples', samples, '--iterations', '10000000', '--quiet', '--out', out],
];

const SETTINGS = [
  { name: 'synchronous (8 lockstep environments)', args: [] },
  ...actorCounts.map((a) => ({
    name: `${a} actor process${a > 1 ? 'es' : ''} over Redis`,
    args: ['--actors', String(a)],
  })),
];

const ftw = (args) => {
  const started = performance.now();
  const run = spawnSync(process.execPath, [cli, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`ftw ${args.join(' ')} exited with ${run.status}`);
  return { stdout: run.stdout, seconds: (performance.now() - started) / 1000 };
};

const before = { cores: cpus().length, load: loadavg()[0] };
const rows = [];
for (const [i, setting] of SETTINGS.entries()) {
  const figures = {
    wall: [],
    learner: [],
    wait: [],
    updates: [],
    held: [],
    selected: [],
    spread: [],
    multi: [],
    heldOut: [],
  };
  for (const seed of seeds) {
    const name = `setting-${i}-seed-${seed}`;
    const { seconds } = ftw([...common, ...setting.args, '--seeds', String(seed), '--name', name, '--force']);
    const folder = join(out, name);
    const metrics = readFileSync(join(folder, 'metrics.ndjson'), 'utf8').trim().split('\n').map(JSON.parse);
    const summary = JSON.parse(readFileSync(join(folder, 'summary.json'), 'utf8'));
    const steps = metrics.at(-1).samples;
    const updates = metrics.filter((m) => m.updated).length;
    figures.wall.push(steps / seconds);
    figures.updates.push(updates / seconds);
    if (summary.stepsPerSecond !== undefined) figures.learner.push(summary.stepsPerSecond.mean);
    if (summary.learnerWaitShare !== undefined) figures.wait.push(summary.learnerWaitShare.mean);
    const of = (key) => metrics.filter((m) => m[key] !== null && m[key] !== undefined).map((m) => m[key]);
    figures.held.push(mean(of('poolStaleness')));
    figures.selected.push(mean(of('selectionStaleness')));
    if (of('versionSpread').length > 0) {
      figures.spread.push(mean(of('versionSpread')));
      figures.multi.push(mean(of('multiVersionShare')));
    }
    const evaluation = JSON.parse(
      ftw([
        'evaluate',
        folder,
        '--level-seed',
        '1',
        '--held-out',
        '500',
        '--json',
        '--out',
        out,
        '--name',
        `${name}-evaluate`,
      ]).stdout,
    );
    figures.heldOut.push(evaluation.heldOutSuccess.mean);
  }
  rows.push([
    setting.name,
    showInterval(figures.wall, 0),
    showInterval(figures.learner, 0),
    showInterval(figures.wait, 2),
    showInterval(figures.updates, 1),
    showInterval(figures.held, 1),
    showInterval(figures.selected, 1),
    showInterval(figures.spread, 2),
    showInterval(figures.multi, 2),
    showInterval(figures.heldOut),
  ]);
}
const after = loadavg()[0];

console.log(
  `6×6 Sokoban, one box, mlp (64 hidden), FTW N = 128, C = 5, K = 1, J = 4, Adam 0.001; seeds ${first}..${last}, ` +
    `${samples} environment steps each; mean over seeds ± 95% t interval; ${before.cores} cores, load average ` +
    `${before.load.toFixed(2)} before and ${after.toFixed(2)} after`,
);
console.log(
  '| setting | env steps / s (process) | env steps / s (learner) | learner waiting (share of its time) | updates / s | lag, pool (versions) | lag, selected | version spread | episodes spanning versions | held-out success (500 new levels) |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
if (keepOut === undefined) rmSync(out, { recursive: true, force: true });
