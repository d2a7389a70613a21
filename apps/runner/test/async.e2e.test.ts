import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RedisPool, type RedisServer, startRedisServer } from '@ftw/redis-pool';
import { decodeTrajectory } from '@ftw/replay-pool';
import { createClient, RESP_TYPES } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltCli, buildCli } from './build-cli.js';

let built: BuiltCli;
let server: RedisServer;
const out = mkdtempSync(join(tmpdir(), 'ftw-async-e2e-'));

beforeAll(async () => {
  [built, server] = await Promise.all([buildCli(), startRedisServer()]);
});
afterAll(async () => {
  built?.remove();
  await server?.stop();
  rmSync(out, { recursive: true, force: true });
});

function ftw(...args: string[]) {
  const r = spawnSync(process.execPath, [built.cli, ...args, '--out', out], {
    encoding: 'utf8',
    timeout: 300_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const COMMON = ['train', '--env', 'contextual', '--horizon', '3', '--rollouts', '2', '--iterations', '30'];

/** The state field of /proc/<pid>/stat, or null when no such process is left (a zombie counts as gone). */
function processState(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]!;
    return state === 'Z' ? null : state;
  } catch {
    return null;
  }
}

/** The processes whose parent is `pid` (Linux). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) children.push(Number(entry));
    } catch {
      // The process ended while the folder was read.
    }
  }
  return children;
}

/** Polls `check` every 100 ms until it holds; false if it still does not after `ms`. */
async function eventually(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A learner over the test server that runs until it is stopped, with `actors` actor processes of its own;
 * resolves with the pool it printed.
 */
async function startLearner(actors: number, name: string, url = server.url) {
  const learner = spawn(
    process.execPath,
    [
      built.cli,
      ...COMMON,
      '--iterations',
      '1000000',
      '--actors',
      String(actors),
      '--redis',
      url,
      '--seeds',
      '0',
      '--out',
      out,
      '--name',
      name,
    ],
    // Its own process group, so that a test can interrupt the group as Ctrl-C in a terminal does.
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  let stderr = '';
  const pool = await new Promise<string>((resolve, reject) => {
    learner.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /can join with: ftw actor --redis (\S+) --pool (\S+)\n/.exec(stderr);
      if (match !== null) resolve(match[2]!);
    });
    learner.once('exit', (code) => reject(new Error(`the learner exited (${code}):\n${stderr}`)));
  });
  return { learner, pool, stderr: () => stderr };
}

/** Opens a pool once its learner has created it (it prints the name first). */
async function openPool(name: string, url = server.url): Promise<RedisPool> {
  let pool: RedisPool | undefined;
  await eventually(async () => {
    pool = await RedisPool.open(url, { name }).catch(() => undefined);
    return pool !== undefined;
  }, 30_000);
  if (pool === undefined) throw new Error(`pool ${name} was never created`);
  return pool;
}

/** Whether the pool's policy reaches version 3 within a minute (actors acting, the learner updating). */
async function policyMoves(notes: RedisPool): Promise<boolean> {
  return eventually(async () => ((await notes.readPolicyVersion()) ?? 0) >= 3, 60_000);
}

describe('ftw train, asynchronous', () => {
  it('simulates lagged actors reproducibly from the seeds', () => {
    const args = [
      ...COMMON,
      '--actors',
      '3',
      '--lag',
      '2',
      '--hot-load',
      'step',
      '--is',
      'truncate:1',
      '--seeds',
      '0,1',
    ];
    const a = ftw(...args, '--name', 'sim-a', '--json');
    const b = ftw(...args, '--name', 'sim-b', '--json');
    expect(a.status, a.stderr).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    const summary = JSON.parse(a.stdout) as { mode: string; multiVersionShare: { mean: number } };
    expect(summary.mode).toBe('simulation');
    expect(summary.multiVersionShare.mean).toBeGreaterThan(0);
    const metrics = readFileSync(join(out, 'sim-a', 'metrics.ndjson'), 'utf8')
      .trimEnd()
      .split('\n');
    expect(metrics).toHaveLength(60);
    expect(Object.keys(JSON.parse(metrics[0]!))).toEqual(
      expect.arrayContaining(['versionSpread', 'selectionStaleness', 'logWeightMean', 'essShare']),
    );
  });

  it('runs actor processes over Redis and reports their throughput', () => {
    const r = ftw(
      ...COMMON,
      '--actors',
      '2',
      '--redis',
      server.url,
      '--seeds',
      '0',
      '--name',
      'redis',
      '--json',
    );
    expect(r.status, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout) as { mode: string; stepsPerSecond: { mean: number } };
    expect(summary.mode).toBe('redis');
    expect(summary.stepsPerSecond.mean).toBeGreaterThan(0);
  });

  it('runs a learner whose actors join from elsewhere with ftw actor, and follow it to the end', async () => {
    const learner = spawn(
      process.execPath,
      [
        built.cli,
        ...COMMON,
        '--iterations',
        '20',
        '--actors',
        '0',
        '--redis',
        server.url,
        '--seeds',
        '0,1',
        '--out',
        out,
        '--name',
        'remote',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    const hint = new Promise<string>((resolve) => {
      learner.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /can join with: ftw actor --redis (\S+) --pool (\S+)\n/.exec(stderr);
        if (match !== null) resolve(match[2]!);
      });
    });
    const pool = await hint;
    const actor = spawn(process.execPath, [built.cli, 'actor', '--redis', server.url, '--pool', pool], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let actorErr = '';
    actor.stderr!.on('data', (chunk: Buffer) => {
      actorErr += chunk.toString();
    });
    const [[learnerCode], [actorCode]] = await Promise.all([once(learner, 'exit'), once(actor, 'exit')]);
    expect(learnerCode, stderr).toBe(0);
    expect(actorCode, actorErr).toBe(0);
    expect(actorErr).toMatch(/^ftw actor: joined pool \S+-seed0 \(seed 0\)$/m);
    expect(actorErr).toMatch(/^ftw actor: joined pool \S+-seed1 \(seed 1\)$/m);
    expect(actorErr).toContain('ftw actor: the learner is done (2 seeds)');
    const summary = JSON.parse(readFileSync(join(out, 'remote', 'summary.json'), 'utf8')) as {
      mode: string;
      behaviourCheck: { steps: number; maxLogProbGap: number };
    };
    expect(summary.mode).toBe('redis');
    expect(summary.behaviourCheck.maxLogProbGap).toBe(0);
    // --actors 0 needs a Redis that actors elsewhere can reach.
    const refused = ftw(...COMMON, '--actors', '0', '--seeds', '0', '--name', 'no-remote');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(
      '--actors 0 (actor processes that join from other machines with ftw actor) needs --redis with a URL they can reach, got --redis private',
    );
    const badActor = spawnSync(
      process.execPath,
      [built.cli, 'actor', '--redis', 'localhost:6379', '--pool', 'x'],
      {
        encoding: 'utf8',
      },
    );
    expect(badActor.status).toBe(2);
    expect(badActor.stderr).toContain('--redis must be a redis[s][+cluster]:// URL, got "localhost:6379"');
  });

  it('refuses a cluster URL where a single server answers, and the reverse: exit code 2, one line', async () => {
    const node = await startRedisServer({
      args: ['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf'],
    });
    try {
      const cases = [
        [server.url.replace('redis://', 'redis+cluster://'), 'NOT_A_CLUSTER'],
        [node.url.replace('redis://', 'redis://default:s3cret@'), 'CLUSTER_NODE'],
      ] as const;
      for (const [url, code] of cases) {
        const wrong = ftw(...COMMON, '--actors', '1', '--redis', url, '--seeds', '0', '--name', code);
        expect([wrong.status, wrong.stdout]).toEqual([2, '']);
        // The message is the last line, after the join hint printed before anything connects.
        expect(wrong.stderr).toMatch(new RegExp(`\\nerror: ${code}: redis\\S+ [^\\n]+\\n$`));
        expect(wrong.stderr).not.toContain('s3cret');
      }
    } finally {
      await node.stop();
    }
  });

  it('runs Sokoban with several simulated actors, a weighted baseline too, and with actor processes over Redis', () => {
    const sokoban = [
      'train',
      '--env',
      'sokoban',
      '--policy',
      'linear',
      '--rollouts',
      '3',
      '--iterations',
      '1000000',
    ];
    const sim = [
      '--actors',
      '3',
      '--lag',
      '2',
      '--hot-load',
      'step',
      '--max-samples',
      '600',
      '--seeds',
      '0,1',
    ];
    for (const method of ['ftw', 'ppo']) {
      const r = ftw(
        ...sokoban,
        ...sim,
        '--method',
        method,
        '--is',
        'truncate:1',
        '--name',
        `sokoban-${method}`,
        '--json',
      );
      expect(r.status, r.stderr).toBe(0);
      const summary = JSON.parse(r.stdout) as { mode: string; multiVersionShare: { mean: number } };
      expect(summary.mode).toBe('simulation');
      expect(summary.multiVersionShare.mean).toBeGreaterThan(0);
    }
    // Actor processes (the CLI itself) number positions themselves; the tabular policy reaches them with
    // the name of each row, and the learner checks that they acted with what it published.
    const real = ftw(
      ...['train', '--env', 'sokoban', '--rollouts', '3', '--iterations', '1000000'],
      '--actors',
      '2',
      '--redis',
      server.url,
      '--max-samples',
      '600',
      '--seeds',
      '0',
      '--name',
      'sokoban-redis',
    );
    expect(real.status, real.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(join(out, 'sokoban-redis', 'summary.json'), 'utf8')) as {
      mode: string;
      environmentSteps: { mean: number };
      behaviourCheck: { steps: number; maxLogProbGap: number };
    };
    expect(summary.mode).toBe('redis');
    expect(summary.environmentSteps.mean).toBeGreaterThanOrEqual(600);
    expect(summary.behaviourCheck.steps).toBeGreaterThan(0);
    expect(summary.behaviourCheck.maxLogProbGap).toBe(0);
    expect(real.stdout).toContain(
      `The learner scored again the ${summary.behaviourCheck.steps} actor steps taken with its current version: largest |log π − log q| = 0 (the actors act with the policy the learner published).`,
    );
    const refused = ftw(...sokoban, '--horizon', '2', '--seeds', '0', '--name', 'no');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('--horizon applies to bandits only, got --horizon 2 with --env sokoban');
  });
});

describe('Sokoban with a linear policy over Redis', () => {
  it('trains with two actor processes that send features, on the test server and on a private one', () => {
    const args = ['train', '--env', 'sokoban', '--policy', 'linear', '--actors', '2', '--rollouts', '3'];
    const r = ftw(
      ...args,
      '--redis',
      server.url,
      '--iterations',
      '40',
      '--seeds',
      '0',
      '--name',
      'sokoban-linear-redis',
    );
    expect(r.status, r.stderr).toBe(0);
    const dir = join(out, 'sokoban-linear-redis');
    const metrics = readFileSync(join(dir, 'metrics.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { iteration: number; optimalProbability: number; version: number });
    expect(metrics.map((m) => m.iteration)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    for (const m of metrics) expect(m.optimalProbability).toBeGreaterThanOrEqual(0);
    expect(metrics.at(-1)!.version).toBeGreaterThan(0);
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as {
      mode: string;
      skipped: number;
      behaviourCheck: { steps: number; maxLogProbGap: number };
    };
    expect(summary.mode).toBe('redis');
    // Every pushed trajectory carried F features per step (none skipped), and every step the learner
    // scored again had the log-probability its actor recorded.
    expect(summary.skipped).toBe(0);
    expect(summary.behaviourCheck.steps).toBeGreaterThan(0);
    expect(summary.behaviourCheck.maxLogProbGap).toBe(0);
    const own = ftw(
      ...args,
      '--redis',
      'private',
      '--iterations',
      '10',
      '--seeds',
      '0',
      '--name',
      'sokoban-linear-private',
    );
    expect(own.status, own.stderr).toBe(0);
  });

  it('refuses, exit code 2 with one line, to act for a learner of another architecture or to follow into another run', async () => {
    // A learner's pool, written by hand: notes, version 0 and the task (the configuration of the run the test
    // before wrote).
    const pool = async (name: string, runId: string, parameters: number, next: string) => {
      const p = await RedisPool.open(server.url, { name, capacity: 100 });
      const config = JSON.parse(
        readFileSync(join(out, 'sokoban-linear-redis', 'config.json'), 'utf8'),
      ) as Record<string, unknown>;
      const { asynchronous, ...train } = config;
      await p.writeNote(
        'architecture',
        JSON.stringify({ kind: 'linear', numActions: 4, observationSize: 84, parameters }),
      );
      await p.writeNote('run', runId);
      await p.publishPolicy(0, new Uint8Array(8 * parameters));
      await p.writeNote('state', next === '' ? 'running' : 'done');
      await p.writeNote('next', next);
      await p.writeNote('task', JSON.stringify({ config: train, options: asynchronous, seed: 0, runId }));
      await p.close();
    };
    const stamp = Date.now().toString(36);
    // A learner whose θ has another length than this actor's linear policy (4 × 84).
    await pool(`wide-${stamp}`, `wide-${stamp}`, 4 * 85, '');
    const wide = spawnSync(
      process.execPath,
      [built.cli, 'actor', '--redis', server.url, '--pool', `wide-${stamp}`, '--wait', '5'],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(wide.status).toBe(2);
    // What it did (it joined), then the refusal on one line.
    expect(wide.stderr.trimEnd().split('\n').at(-1)).toBe(
      "error: ARCHITECTURE_MISMATCH: the learner's policy has parameters 340, this actor's has parameters 336",
    );
    // A run's first pool sends its actors on to a pool that another run publishes to.
    await pool(`other-${stamp}`, `run-b-${stamp}`, 4 * 84, '');
    await pool(`first-${stamp}`, `run-a-${stamp}`, 4 * 84, `other-${stamp}`);
    const moved = spawnSync(
      process.execPath,
      [built.cli, 'actor', '--redis', server.url, '--pool', `first-${stamp}`, '--wait', '5'],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(moved.status).toBe(2);
    expect(moved.stderr.trimEnd().split('\n').at(-1)).toBe(
      `error: RUN_MISMATCH: the pool's versions are published by run "run-b-${stamp}", this actor belongs to run "run-a-${stamp}"`,
    );
  });
});

describe('an asynchronous learner that is stopped', () => {
  it('ends its own actor processes with it, whether it is terminated, interrupted by Ctrl-C or killed', async () => {
    // Ctrl-C in a terminal interrupts the whole process group: the actors too, whose exits the learner may
    // see while it marks its pool (a run that failed), and must not report as such.
    // Writes are held back for a second, so that the learner sees the actors' exits while it marks its pool,
    // every time.
    const holdWrites = async () => {
      const client = await createClient({ url: server.url }).connect();
      await client.sendCommand(['CLIENT', 'PAUSE', '1000', 'WRITE']);
      await client.quit();
    };
    const cases = [
      {
        how: 'SIGTERM',
        send: (pid: number) => process.kill(pid, 'SIGTERM'),
        code: 143,
        state: 'interrupted',
      },
      {
        how: 'Ctrl-C',
        send: async (pid: number) => {
          await holdWrites();
          process.kill(-pid, 'SIGINT');
        },
        code: 130,
        state: 'interrupted',
      },
      { how: 'SIGKILL', send: (pid: number) => process.kill(pid, 'SIGKILL'), code: null, state: 'running' },
    ];
    for (const { how, send, code, state } of cases) {
      const { learner, pool, stderr } = await startLearner(2, `stopped-${how}`);
      let notes: RedisPool | undefined;
      let actors: number[] = [];
      try {
        notes = await openPool(pool);
        expect(await policyMoves(notes), stderr()).toBe(true);
        actors = childrenOf(learner.pid!);
        expect(actors).toHaveLength(2);
        const exited = once(learner, 'exit');
        await send(learner.pid!);
        const [exitCode, bySignal] = (await exited) as [number | null, string | null];
        expect([exitCode, bySignal], `${how}: ${stderr()}`).toEqual(
          code === null ? [null, 'SIGKILL'] : [code, null],
        );
        // Terminated, it kills them on exit; killed, they see its IPC channel close and exit.
        expect(await eventually(() => actors.every((pid) => processState(pid) === null), 10_000)).toBe(true);
        // Stopped by a signal it handles, it marks its pool for actors from elsewhere; killed, it cannot.
        expect(await notes.readNote('state')).toBe(state);
        expect(stderr()).not.toContain('the run failed');
        expect(readdirSync(out)).not.toContain(`stopped-${how}`);
      } finally {
        learner.kill('SIGKILL');
        // A failed check leaves nothing running either.
        for (const pid of actors) if (processState(pid) !== null) process.kill(pid, 'SIGKILL');
        await notes?.close();
      }
    }
  });

  it('tells actors that joined from elsewhere at once when it is interrupted', async () => {
    const { learner, pool } = await startLearner(0, 'interrupted');
    const actor = spawn(process.execPath, [built.cli, 'actor', '--redis', server.url, '--pool', pool], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let actorErr = '';
    actor.stderr!.on('data', (chunk: Buffer) => {
      actorErr += chunk.toString();
    });
    try {
      const notes = await openPool(pool);
      const moving = await policyMoves(notes);
      await notes.close();
      expect(moving, actorErr).toBe(true);
      const learnerExit = once(learner, 'exit');
      const actorExit = once(actor, 'exit');
      const interruptedAt = Date.now();
      learner.kill('SIGINT');
      expect((await learnerExit)[0]).toBe(130);
      // Told through the pool, not by 600 s (its --wait) without a new policy.
      const timeout = new Promise<unknown[]>((resolve) =>
        setTimeout(() => resolve(['still running']), 15_000),
      );
      expect((await Promise.race([actorExit, timeout]))[0]).toBe(1);
      expect(Date.now() - interruptedAt).toBeLessThan(15_000);
      expect(actorErr).toContain(`LearnerStoppedError: the learner of pool ${pool} stopped: interrupted`);
    } finally {
      learner.kill('SIGKILL');
      actor.kill('SIGKILL');
    }
  });

  it('fails, exit code 1 with the reason, when its Redis goes away, and leaves no actor behind', async () => {
    const lost = await startRedisServer();
    const { learner, pool, stderr } = await startLearner(2, 'lost', lost.url);
    let notes: RedisPool | undefined;
    let actors: number[] = [];
    try {
      notes = await openPool(pool, lost.url);
      expect(await policyMoves(notes), stderr()).toBe(true);
      actors = childrenOf(learner.pid!).filter((pid) =>
        readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('cli.js'),
      );
      expect(actors).toHaveLength(2);
      const exited = once(learner, 'exit');
      const start = Date.now();
      await lost.kill();
      expect((await exited)[0], stderr()).toBe(1);
      // Within its reconnect timeout (10 s) and no second one spent marking a pool it cannot reach.
      expect(Date.now() - start).toBeLessThan(16_000);
      expect(stderr()).toContain('CONNECTION_LOST');
      expect(await eventually(() => actors.every((pid) => processState(pid) === null), 10_000)).toBe(true);
      expect(readdirSync(out)).not.toContain('lost');
    } finally {
      learner.kill('SIGKILL');
      for (const pid of actors) if (processState(pid) !== null) process.kill(pid, 'SIGKILL');
      await notes?.close();
      await lost.stop();
    }
  }, 60_000);

  it('resumes a SIGKILLed learner from its checkpoint: every iteration once, no episode counted twice, the report says so', async () => {
    const name = `resume-${Date.now().toString(36)}`;
    const checkpoint = join(out, `${name}-checkpoint`);
    const file = join(checkpoint, 'checkpoint.json');
    const train = [
      ...[
        'train',
        '--env',
        'sokoban',
        '--policy',
        'linear',
        '--optimizer',
        'adam',
        '--lr',
        '0.05',
        '--reference',
        'previous',
      ],
      ...['--iterations', '120', '--actors', '2', '--redis', server.url, '--seeds', '0'],
      ...['--checkpoint', checkpoint, '--checkpoint-every', '10', '--out', out, '--name', name],
    ];
    const learner = spawn(process.execPath, [built.cli, ...train], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    learner.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const iterationOf = (): number => {
      try {
        return (JSON.parse(readFileSync(file, 'utf8')) as { current: { iteration: number } | null }).current!
          .iteration;
      } catch {
        return 0;
      }
    };
    const exited = once(learner, 'exit');
    expect(await eventually(() => iterationOf() >= 30, 120_000), stderr).toBe(true);
    // Killed between two checkpoints, with its actors' episodes still coming in.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const actors = childrenOf(learner.pid!);
    expect(actors).toHaveLength(2);
    learner.kill('SIGKILL');
    await exited;
    // Its actors end with it (their IPC channel closes).
    expect(await eventually(() => actors.every((pid) => processState(pid) === null), 10_000)).toBe(true);
    const resumedFrom = iterationOf();
    expect(resumedFrom).toBeGreaterThanOrEqual(30);
    expect(readdirSync(out)).not.toContain(name);

    const resumed = spawnSync(process.execPath, [built.cli, 'train', '--resume', checkpoint, '--json'], {
      encoding: 'utf8',
      timeout: 300_000,
    });
    expect(resumed.status, resumed.stderr).toBe(0);
    const summary = JSON.parse(resumed.stdout) as {
      faults: { kind: string; iteration: number; redone: number }[];
      behaviourCheck: { maxLogProbGap: number };
    };
    expect(summary.faults).toEqual([
      expect.objectContaining({ kind: 'learner-restart', iteration: resumedFrom }),
    ]);
    expect(summary.faults[0]!.redone).toBeGreaterThanOrEqual(0);
    expect(summary.behaviourCheck.maxLogProbGap).toBe(0);
    // The run is written where it would have been, and the checkpoint is gone.
    const rows = readFileSync(join(out, name, 'metrics.ndjson'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { iteration: number; samples: number; replay: { pool: string } });
    expect(rows.map((r) => r.iteration)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
    expect(readdirSync(out)).not.toContain(`${name}-checkpoint`);
    expect(readFileSync(join(out, name, 'report.md'), 'utf8')).toContain(
      `the learner restarted from its checkpoint after iteration ${resumedFrom}`,
    );
    // Nothing counted twice: the steps the learners consumed are at most those the actors pushed (the
    // stream keeps every entry of this run: capacity + retain = 256), and the new actors pushed ids of
    // their own (restart 4 and on: past the 3 replacements each killed actor could have had).
    const client = createClient({ url: server.url }).withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
    await client.connect();
    const stream = `{${rows[0]!.replay.pool}}:trajectories`;
    const entries = (await client.sendCommand(['XRANGE', stream, '-', '+'])) as [Buffer, Buffer[]][];
    await client.quit();
    const field = (fields: Buffer[], key: string) =>
      fields[fields.findIndex((f) => f.toString() === key) + 1]!;
    const ids = entries.map(([, fields]) => field(fields, 'id').toString());
    expect(ids.length).toBeLessThan(256);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.some((id) => /^[01]r4-/.test(id))).toBe(true);
    expect(ids.some((id) => /^[01]-/.test(id))).toBe(true);
    const pushed = entries.reduce(
      (n, [, fields]) => n + decodeTrajectory(field(fields, 't')).actions.length,
      0,
    );
    expect(rows.at(-1)!.samples).toBeLessThanOrEqual(pushed);
  });

  it('refuses, exit code 2 with the reason, a --resume it cannot go on from', () => {
    const resume = (...args: string[]) =>
      spawnSync(process.execPath, [built.cli, 'train', '--resume', ...args], { encoding: 'utf8' });
    const lastLine = (r: { stderr: string }) => r.stderr.trimEnd().split('\n').at(-1);
    const missing = join(out, 'no-checkpoint');
    const none = resume(missing);
    expect(none.status).toBe(2);
    expect(lastLine(none)).toBe(
      `error: --resume ${missing}: cannot read ${join(missing, 'checkpoint.json')} (ENOENT); give the folder of a run's --checkpoint`,
    );
    const extra = resume(missing, '--seeds', '0', '--lr', '0.1');
    expect(extra.status).toBe(2);
    expect(extra.stderr).toMatch(
      /--resume takes the run's options from its checkpoint; drop --lr, --seeds \(only --redis, --quiet, --json apply\)/,
    );
    const other = join(out, 'other-checkpoint');
    mkdirSync(other, { recursive: true });
    writeFileSync(join(other, 'checkpoint.json'), '{"format":"something-else"}');
    const foreign = resume(other);
    expect(foreign.status).toBe(2);
    expect(lastLine(foreign)).toMatch(
      /is not a learner checkpoint \(format must be ftw-learner-checkpoint\/1, got "something-else"\)/,
    );
    const keys = ['config', 'out', 'name', 'prefix', 'restarts', 'done', 'current'];
    const secret = {
      format: 'ftw-learner-checkpoint/1',
      ...Object.fromEntries(keys.map((k) => [k, k === 'done' ? [] : k === 'current' ? null : k])),
      options: { redis: 'redis://app:***@cache:6379' },
    };
    writeFileSync(join(other, 'checkpoint.json'), JSON.stringify(secret));
    const password = resume(other);
    expect(password.status).toBe(2);
    expect(lastLine(password)).toMatch(
      /keeps the Redis URL without its password \(redis:\/\/app:\*\*\*@cache:6379\); give it with --redis/,
    );
  });
});
