import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { ActorCrew, ActorsLostError, type ServerOutage } from '@ftw/actors';
import { type RedisServer, startRedisServer } from '@ftw/redis-pool';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asyncRunResult } from '../commands/async-training-run.js';
import { ASYNC_REDIS_BASE } from '../commands/compare-async.js';
import type { ActorLauncher, ActorTask } from './actor-protocol.js';
import type { AsyncOptions } from './async-options.js';
import { trainRedisSeed } from './redis-training.js';
import { sourceLauncher } from './testing/source-launcher.js';

// Faults at scale (issue 41, item 5): what a run over Redis survives, and what its report says.

let server: RedisServer | undefined;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server?.stop();
});

/** Two actor processes, hot-loading per step, multi-step episodes; --wait 60 (actors start from source in 6–8 s). */
const options = (): AsyncOptions => ({
  actors: 2,
  redis: server!.url,
  lag: 0,
  hotLoad: 'step',
  is: { kind: 'none' },
  horizon: 4,
  wait: 60,
});

/** The trajectory id of every entry still in a pool's stream and when it went in (ms), oldest first. */
async function streamIds(name: string): Promise<{ id: string; at: number }[]> {
  const client = createClient({ url: server!.url });
  await client.connect();
  try {
    const entries = await client.xRange(`{${name}}:trajectories`, '-', '+');
    return (entries ?? []).map((e) => ({ id: e!.message['id']!, at: Number(e!.id.split('-')[0]) }));
  } finally {
    await client.close();
  }
}

/** The process id of the test's redis-server (as it reports it). */
async function serverPid(): Promise<number> {
  const client = createClient({ url: server!.url });
  await client.connect();
  try {
    return Number(/process_id:(\d+)/.exec(await client.info('server'))![1]);
  } finally {
    await client.close();
  }
}

/** A launcher that keeps every process it started, replacements included. */
function keeping(): { launch: ActorLauncher; launched: ChildProcess[] } {
  const launched: ChildProcess[] = [];
  return {
    launched,
    launch: (task, restart) => {
      const child = sourceLauncher(task, restart);
      launched.push(child);
      return child;
    },
  };
}

describe('faults of a run over Redis', () => {
  it('replaces the actor SIGKILLed mid-run: the run finishes, no trajectory twice, the report lists the death', async () => {
    // The stream keeps capacity + retain = 1024 entries: every one this run pushes.
    const config = { ...ASYNC_REDIS_BASE, capacity: 512, iterations: 40, seeds: [0] };
    const name = `kill-actor-${Date.now().toString(36)}`;
    const { launch, launched } = keeping();
    let killedAt = 0;
    let iteration = 0;
    const started = performance.now();
    // One actor: the run can only finish through its replacement.
    const result = await trainRedisSeed(
      config,
      { ...options(), actors: 1 },
      0,
      server!.url,
      launch,
      () => {
        // Actor 0 dies while it plays or pushes: what it had not pushed is lost with it.
        if (++iteration === 5) {
          killedAt = Date.now();
          launched[0]!.kill('SIGKILL');
        }
      },
      { name, next: '' },
    );
    const seconds = (performance.now() - started) / 1000;
    expect(result.metrics).toHaveLength(40);
    expect(result.faults).toHaveLength(1);
    expect(result.faults[0]).toMatchObject({
      kind: 'actor-exit',
      actor: 0,
      code: null,
      signal: 'SIGKILL',
      restart: 1,
    });
    // The process, then its replacement, started with restart 1.
    expect(launched).toHaveLength(2);
    const entries = await streamIds(name);
    const ids = entries.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    // The replacement pushed episodes of its own ids (`0r1-<episode>`), none of its predecessor's.
    const replacement = entries.filter((e) => e.id.startsWith('0r1-'));
    expect(replacement.length).toBeGreaterThan(0);
    expect(ids.filter((id) => id.startsWith('0-')).length).toBeGreaterThan(0);
    const { artifacts, text } = asyncRunResult({
      config,
      options: options(),
      mode: 'redis',
      results: [result],
    });
    expect(artifacts.report).toMatch(
      /Fault, seed 0: .* UTC: actor 0 exited \(SIGKILL\), replaced \(restart 1\)\./,
    );
    expect(text('runs/x')).toContain('actor 0 exited (SIGKILL), replaced (restart 1)');
    expect((artifacts.summary as { faults: unknown[] }).faults).toHaveLength(1);
    const seen = (result.faults[0]!.at - killedAt) / 1000;
    const back = (replacement[0]!.at - killedAt) / 1000;
    console.log(
      `actor 0 killed after iteration 5: 40 iterations in ${seconds.toFixed(1)} s, ${ids.length} trajectories in the stream (${replacement.length} from the replacement); exit seen after ${seen.toFixed(3)} s, the replacement's first push ${back.toFixed(1)} s after the kill`,
    );
  });

  it('waits out a server that answers nothing for 5 s (SIGSTOP): the run finishes, no trajectory twice, the outage reported', async () => {
    const config = { ...ASYNC_REDIS_BASE, capacity: 512, iterations: 40, seeds: [0] };
    const name = `stop-server-${Date.now().toString(36)}`;
    const pid = await serverPid();
    let stoppedAt = 0;
    let resumed: Promise<void> | undefined;
    let iteration = 0;
    const started = performance.now();
    const result = await trainRedisSeed(
      config,
      options(),
      0,
      server!.url,
      sourceLauncher,
      () => {
        // Stopped, the server keeps its sockets open and answers nothing: a partition, not a refusal.
        if (++iteration === 5) {
          stoppedAt = Date.now();
          process.kill(pid, 'SIGSTOP');
          resumed = new Promise((resolve) => setTimeout(resolve, 5000)).then(() => {
            process.kill(pid, 'SIGCONT');
          });
        }
      },
      { name, next: '' },
    ).finally(() => resumed);
    const seconds = (performance.now() - started) / 1000;
    expect(result.metrics).toHaveLength(40);
    // Longer than 3 s: a loaded machine may leave one heartbeat unanswered a little over 1 s elsewhere.
    const outages = result.faults.filter(
      (f): f is ServerOutage => f.kind === 'server-unreachable' && f.durationMs > 3000,
    );
    expect(outages).toHaveLength(1);
    const [outage] = outages;
    // Seen by the learner's heartbeat from about when the server stopped, for about 5 s.
    expect(Math.abs(outage!.at - stoppedAt)).toBeLessThan(1000);
    expect(outage!.durationMs).toBeGreaterThan(4000);
    expect(outage!.durationMs).toBeLessThan(7000);
    expect(result.faults.filter((f) => f.kind === 'actor-exit')).toEqual([]);
    const ids = (await streamIds(name)).map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    const { artifacts } = asyncRunResult({ config, options: options(), mode: 'redis', results: [result] });
    expect(artifacts.report).toMatch(
      /Fault, seed 0: .* UTC: the Redis server did not answer the learner for [4-6]\.\d s\./,
    );
    console.log(
      `server stopped (SIGSTOP) for 5 s after iteration 5: 40 iterations in ${seconds.toFixed(1)} s, ${ids.length} trajectories in the stream, outage seen ${outage!.at - stoppedAt} ms after the stop, lasting ${outage!.durationMs} ms`,
    );
  });

  it('fails with a clear message once an actor has used up its restarts', async () => {
    const config = { ...ASYNC_REDIS_BASE, iterations: 6, seeds: [0, 1] };
    const { launch, launched } = keeping();
    const crew = new ActorCrew<ActorTask, ChildProcess>(launch, { restarts: 0 });
    try {
      expect((await trainRedisSeed(config, options(), 0, server!.url, crew)).metrics).toHaveLength(6);
      const exited = once(launched[0]!, 'exit');
      launched[0]!.kill('SIGKILL');
      await exited;
      const start = Date.now();
      const error = await trainRedisSeed(config, options(), 1, server!.url, crew).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ActorsLostError);
      expect((error as Error).message).toBe(
        'actor process 0 exited (SIGKILL) with its restarts used up (0 allowed) before the run ended',
      );
      // At once, not after --wait (60 s) without episodes.
      expect(Date.now() - start).toBeLessThan(20_000);
      expect(crew.exits).toMatchObject([{ kind: 'actor-exit', actor: 0, signal: 'SIGKILL', restart: null }]);
    } finally {
      crew.stop();
    }
    expect(launched).toHaveLength(2);
  });
});
