// The K = 3, C = 5 collapse study (docs/collapse.md): trains FTW (a linear policy, or with `--policy mlp`
// the network of `ftw compare --scenario sokoban-neural`) on generated Sokoban levels under
// four selection settings and prints, per setting, the share of selected elites that are failures (early
// and over the run) and the held-out greedy success at the end, each as a mean over seeds ± a 95% t interval.
// Needs a built runner (`pnpm build`).
//
//   node scripts/collapse-study.mjs                         6×6, one box, 30 steps, seeds 0..9, 30 000 steps
//   node scripts/collapse-study.mjs --hard                  the same with a 12-step limit (rarer successes)
//   node scripts/collapse-study.mjs --seeds 0..2 --samples 5000 --out /tmp/collapse
//   node scripts/collapse-study.mjs --policy mlp --samples 200000   the mlp (64 hidden), 2000/500 levels
//   node scripts/collapse-study.mjs --samples 200000 --eval-every 25   a long run of the linear policy
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg, cli, mean, showInterval } from './study-helpers.mjs';

const hard = process.argv.includes('--hard');
const policy = arg('--policy', 'linear');
// The network as in `ftw compare --scenario sokoban-neural`: 8 environments in lockstep, 8 episodes per
// iteration, Adam 0.001, 2000 training levels, evaluated every 25th iteration (and the last).
const network = policy === 'linear' ? null : ['--envs', '8', '--rollouts', '8', '--optimizer', 'adam'];
// Greedy evaluation after every `--eval-every`th iteration (and the last): it replays every level after an
// update that moved all of θ, so a long run evaluates less often.
const evalEvery = arg('--eval-every', network === null ? '1' : '25');
const seeds = arg('--seeds', '0..9');
const samples = arg('--samples', '30000');
/** Updates counted as early training: the first this many updates of each seed. */
const EARLY = Number(arg('--early', '50'));
const keepOut = arg('--out', undefined);
const out = keepOut ?? mkdtempSync(join(tmpdir(), 'ftw-collapse-'));

const common = [
  'train',
  '--env',
  'sokoban',
  '--policy',
  policy,
  ...(network === null ? [] : [...network, '--lr', '0.001']),
  '--eval-every',
  evalEvery,
  '--size',
  '6',
  '--boxes',
  '1',
  '--level-set',
  'split',
  '--levels',
  network === null ? '500' : '2000',
  '--held-out',
  network === null ? '200' : '500',
  '--level-cache',
  join(out, 'levels'),
  '--max-steps',
  hard ? '12' : '30',
  '--failure-return',
  '0',
  '--seeds',
  seeds,
  '--max-samples',
  samples,
  '--iterations',
  '10000000',
  '--quiet',
  '--out',
  out,
];

const SETTINGS = [
  { name: 'K=1 (reference)', args: ['--keep', '1'] },
  { name: 'K=3', args: ['--keep', '3'] },
  { name: 'K=3, threshold 0', args: ['--keep', '3', '--threshold', '0'] },
  { name: 'K=3, ties by length', args: ['--keep', '3', '--length-tiebreak', '1e-6'] },
];

const rows = [];
for (const [i, setting] of SETTINGS.entries()) {
  const name = `setting-${i}`;
  const run = spawnSync(process.execPath, [cli, ...common, ...setting.args, '--name', name, '--force'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (run.status !== 0) throw new Error(`${setting.name}: ftw train exited with ${run.status}`);
  const lines = readFileSync(join(out, name, 'metrics.ndjson'), 'utf8')
    .trim()
    .split('\n')
    .map(JSON.parse);
  const bySeed = new Map();
  for (const m of lines) {
    if (!bySeed.has(m.seed)) bySeed.set(m.seed, []);
    bySeed.get(m.seed).push(m);
  }
  const early = [];
  const whole = [];
  const lowFirst = [];
  const final = [];
  for (const metrics of bySeed.values()) {
    const shares = metrics.filter((m) => m.failureShare !== null).map((m) => m.failureShare);
    early.push(mean(shares.slice(0, EARLY)));
    whole.push(mean(shares));
    // Updates whose minibatches held fewer successes than K·J selections need: some failure selected.
    lowFirst.push(mean(shares.slice(0, EARLY).map((s) => (s > 0 ? 1 : 0))));
    final.push(metrics[metrics.length - 1].evaluation.heldOutSuccess);
  }
  rows.push([
    setting.name,
    showInterval(early),
    showInterval(lowFirst),
    showInterval(whole),
    showInterval(final),
  ]);
}

console.log(
  `6×6 Sokoban, one box, ${hard ? 12 : 30}-step limit, ${policy} policy, seeds ${seeds}, ${samples} steps each; ` +
    `mean over seeds ± 95% t interval`,
);
console.log(
  `| setting | failure share, first ${EARLY} updates | updates with a failure selected, first ${EARLY} | failure share, whole run | held-out greedy success at the end |`,
);
console.log('|---|---|---|---|---|');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
if (keepOut === undefined) rmSync(out, { recursive: true, force: true });
