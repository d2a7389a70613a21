// The learner restarted from its checkpoint, measured (packages/actors/README.md, "Faults"): for each run,
// `ftw train --env sokoban --policy P --actors 2 --redis <a redis-server of its own> --checkpoint <dir>`
// is SIGKILLed once the checkpoint has passed `--kill-after` iterations (plus `--delay` ms, so that the
// learner dies between two checkpoints), then `ftw train --resume <dir>` finishes it. Prints per run: the
// checkpoint's iteration and size, the updates lost with the learner and made again, the resumed
// process's wall time, whether every iteration appears once, the steps consumed against those pushed
// (never more: nothing counted twice), whether every stream id is unique, and the behaviour check's
// largest gap. Needs a built runner (`pnpm build`).
//
//   node scripts/restart-study.mjs                              3 runs, mlp, 200 iterations, killed after 50
//   node scripts/restart-study.mjs --runs 1 --policy linear --iterations 120 --kill-after 30
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRedisServer } from '@ftw/redis-pool';
import { decodeTrajectory } from '@ftw/replay-pool';
import { createClient, RESP_TYPES } from 'redis';
import { arg, cli } from './study-helpers.mjs';

const runs = Number(arg('--runs', '3'));
const policy = arg('--policy', 'mlp');
const iterations = arg('--iterations', '200');
const killAfter = Number(arg('--kill-after', '50'));
const delay = Number(arg('--delay', '500'));
const out = mkdtempSync(join(tmpdir(), 'ftw-restart-'));
const server = await startRedisServer();

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const checkpointIteration = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8')).current?.iteration ?? 0;
  } catch {
    return 0;
  }
};

/** Every stream entry of a pool: its trajectory id and steps. */
async function streamEntries(pool) {
  const client = createClient({ url: server.url }).withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
  await client.connect();
  const entries = await client.sendCommand(['XRANGE', `{${pool}}:trajectories`, '-', '+']);
  await client.quit();
  const field = (fields, key) => fields[fields.findIndex((f) => f.toString() === key) + 1];
  return entries.map(([, fields]) => ({
    id: field(fields, 'id').toString(),
    steps: decodeTrajectory(field(fields, 't')).actions.length,
  }));
}

const before = { cores: cpus().length, load: loadavg()[0] };
const rows = [];
try {
  for (let run = 0; run < runs; run++) {
    const name = `restart-${run}`;
    const dir = join(out, `${name}-checkpoint`);
    const file = join(dir, 'checkpoint.json');
    const learner = spawn(
      process.execPath,
      [
        cli,
        ...['train', '--env', 'sokoban', '--policy', policy, '--optimizer', 'adam'],
        ...[
          '--lr',
          policy === 'linear' ? '0.05' : '0.001',
          '--iterations',
          iterations,
          '--seeds',
          String(run),
        ],
        ...['--actors', '2', '--redis', server.url, '--checkpoint', dir, '--checkpoint-every', '10'],
        ...['--out', out, '--name', name, '--quiet'],
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    const exited = once(learner, 'exit');
    while (checkpointIteration(file) < killAfter) await sleep(50);
    await sleep(delay);
    learner.kill('SIGKILL');
    await exited;
    const from = JSON.parse(readFileSync(file, 'utf8'));
    const bytes = statSync(file).size;
    const started = performance.now();
    const resumed = spawnSync(process.execPath, [cli, 'train', '--resume', dir, '--json'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (resumed.status !== 0) throw new Error(`ftw train --resume exited with ${resumed.status}`);
    const seconds = (performance.now() - started) / 1000;
    const summary = JSON.parse(resumed.stdout);
    const metrics = readFileSync(join(out, name, 'metrics.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map(JSON.parse);
    const everyOnce = metrics.every((m, i) => m.iteration === i + 1) && metrics.length === Number(iterations);
    const entries = await streamEntries(metrics[0].replay.pool);
    const pushed = entries.reduce((n, e) => n + e.steps, 0);
    const restart = summary.faults.find((f) => f.kind === 'learner-restart');
    rows.push([
      run,
      from.current.iteration,
      `${(bytes / 1e3).toFixed(0)} kB`,
      restart.redone,
      seconds.toFixed(1),
      everyOnce ? 'yes' : 'NO',
      `${metrics.at(-1).samples} / ${pushed}`,
      new Set(entries.map((e) => e.id)).size === entries.length ? 'yes' : 'NO',
      summary.behaviourCheck.maxLogProbGap,
    ]);
  }
} finally {
  await server.stop();
  rmSync(out, { recursive: true, force: true });
}
console.log(
  `6×6 Sokoban, ${policy}, FTW, 2 actor processes, ${iterations} iterations, checkpoint every 10, learner SIGKILLed ` +
    `${delay} ms after the checkpoint passed iteration ${killAfter}; ${before.cores} cores, load average ` +
    `${before.load.toFixed(2)} before and ${loadavg()[0].toFixed(2)} after`,
);
console.log(
  '| run | resumed after iteration | checkpoint | updates lost and made again | resume (s) | every iteration once | steps consumed / pushed | ids unique | behaviour gap |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
