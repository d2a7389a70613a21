import { createClient } from 'redis';
import { afterAll, describe, expect, it } from 'vitest';
import { uniqueName, useRedisServer } from '../test/redis-server.js';
import { spawnChild } from '../test/spawn-child.js';
import { PoolMirror } from './pool-mirror.js';
import { RedisPool } from './redis-pool.js';
import { RedisPoolError } from './redis-pool-error.js';
import { type RedisServer, startRedisServer } from './start-redis-server.js';

const server = useRedisServer();
const one = (r: number) => ({ actions: [1], logProbs: [-0.5], versions: 0, return: r });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every entry of the stream, raw: [id, fields] with the trajectory id. */
async function streamIds(url: string, name: string): Promise<string[]> {
  const client = createClient({ url });
  await client.connect();
  const entries = await client.xRange(`{${name}}:trajectories`, '-', '+');
  await client.close();
  return (entries ?? []).map((e) => e!.message.id!);
}

describe('faults', () => {
  it('an actor killed mid-push leaves only whole entries', async () => {
    const name = uniqueName('kill-actor');
    const pool = await RedisPool.open(server().url, { name, capacity: 100_000 });
    // 20 trajectories of 20,000 steps per call: about 6.4 MB in flight when the kill lands.
    const child = spawnChild(['push', server().url, name, '20000']);
    await child.next('pushed');
    await sleep(37);
    await child.kill();
    const mirror = await PoolMirror.open(server().url, { name });
    const result = await mirror.sync();
    const { inserts } = await pool.counters();
    expect(result.skipped).toBe(0);
    expect(result.added).toBe(inserts);
    expect(inserts % 1).toBe(0);
    for (const t of mirror.pool) expect(t.length).toBe(20_000);
    const ids = await streamIds(server().url, name);
    expect(new Set(ids).size).toBe(ids.length);
    await Promise.all([pool.close(), mirror.close()]);
  });

  it('a learner killed and restarted resumes with the pool and the policy version intact', async () => {
    const name = uniqueName('kill-learner');
    const actor = await RedisPool.open(server().url, { name, capacity: 50 });
    await actor.pushMany(Array.from({ length: 80 }, (_, k) => one(k)));
    const first = spawnChild(['learn', server().url, name]);
    await first.next('version 5');
    await first.kill();
    const published = (await actor.readPolicyVersion())!;
    const { updates } = await actor.counters();
    expect(published).toBeGreaterThanOrEqual(5);
    expect(updates).toBeGreaterThanOrEqual(published - 1);

    const second = spawnChild(['learn', server().url, name]);
    const line = await second.next('version');
    await second.kill();
    expect(Number(line.split(' ')[1])).toBe(published + 1);
    const policy = (await actor.readPolicy())!;
    const [, size] = new Float64Array(policy.parameters.slice().buffer);
    expect(size).toBe(50);
    const mirror = await PoolMirror.open(server().url, { name });
    await mirror.sync();
    expect(Array.from(mirror.pool.returns())).toEqual(Array.from({ length: 50 }, (_, k) => 30 + k));
    expect((await actor.counters()).updates).toBeGreaterThan(updates);
    await Promise.all([actor.close(), mirror.close()]);
  });

  it('a lost connection is retried with nothing pushed twice', async () => {
    const name = uniqueName('lost');
    const pool = await RedisPool.open(server().url, { name, capacity: 10_000, batchSize: 10 });
    const killer = createClient({ url: server().url });
    await killer.connect();
    let kills = 0;
    let pushing = true;
    const killing = (async () => {
      while (pushing) {
        kills += Number(await killer.sendCommand(['CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes']));
        await sleep(3);
      }
    })();
    for (let batch = 0; batch < 40; batch++) {
      await pool.pushMany(
        Array.from({ length: 50 }, (_, k) => one(batch * 50 + k)),
        { ids: Array.from({ length: 50 }, (_, k) => `t${batch * 50 + k}`) },
      );
    }
    pushing = false;
    await killing;
    await killer.close();
    expect(kills).toBeGreaterThan(0);
    const ids = await streamIds(server().url, name);
    expect(ids.length).toBe(2000);
    expect(new Set(ids).size).toBe(2000);
    expect((await pool.counters()).inserts).toBe(2000);
    await pool.close();
  });
});

describe('faults of the server', () => {
  let persistent: RedisServer | undefined;
  afterAll(async () => {
    await persistent?.stop();
  });

  it('a redis-server restarted with append-only persistence keeps the pool, the ids and the policy', async () => {
    persistent = await startRedisServer({ appendonly: true });
    const name = uniqueName('restart');
    const pool = await RedisPool.open(persistent.url, { name, capacity: 30, reconnectTimeoutMs: 10_000 });
    const ids = Array.from({ length: 40 }, (_, k) => `r${k}`);
    await pool.pushMany(
      Array.from({ length: 40 }, (_, k) => one(k)),
      { ids },
    );
    await pool.publishPolicy(7, new Uint8Array([7, 7]));
    await persistent.kill();
    await persistent.start();
    const mirror = await PoolMirror.open(persistent.url, { name });
    await mirror.sync();
    expect(Array.from(mirror.pool.returns())).toEqual(Array.from({ length: 30 }, (_, k) => 10 + k));
    // The same pool object reconnects; the ids survived, so a retry adds nothing.
    const again = await pool.pushMany(
      Array.from({ length: 40 }, (_, k) => one(k)),
      { ids },
    );
    expect(again.every((r) => r.duplicate)).toBe(true);
    expect(await pool.readPolicy()).toEqual({ version: 7, parameters: new Uint8Array([7, 7]) });
    expect(await pool.counters()).toEqual({ inserts: 40, updates: 0 });
    await mirror.close();

    // With the server down for longer than reconnectTimeoutMs, a push fails with a clear error. The
    // timeout also bounds the first connection, which can take most of a second on a loaded 2-core
    // machine (CI runs every package's tests at once): 3 s keeps that from failing the test.
    const impatient = await RedisPool.open(persistent.url, { name, reconnectTimeoutMs: 3000 });
    await persistent.shutdown();
    const error = await impatient.push(one(99), 'late').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedisPoolError);
    expect((error as RedisPoolError).code).toBe('CONNECTION_LOST');
    expect((error as Error).message).toMatch(/no connection to Redis for 3000 ms/);
    await persistent.start();
    await expect(impatient.push(one(99), 'late')).resolves.toMatchObject({ duplicate: false });
    await Promise.all([pool.close(), impatient.close()]);
  });
});
