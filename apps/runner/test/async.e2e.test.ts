import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RedisServer, startRedisServer } from '@ftw/redis-pool';
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
    expect(badActor.stderr).toContain('--redis must be a redis:// or rediss:// URL, got "localhost:6379"');
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
