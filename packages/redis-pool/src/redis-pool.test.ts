import { fc } from '@fast-check/vitest';
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { uniqueName, useRedisServer } from '../test/redis-server.js';
import { PoolMirror } from './pool-mirror.js';
import { RedisPool } from './redis-pool.js';
import { RedisPoolError } from './redis-pool-error.js';

const server = useRedisServer();
const one = (r: number, version = 0) => ({
  actions: [r % 3],
  logProbs: [-0.5],
  versions: version,
  return: r,
});

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof RedisPoolError) return error.code;
    throw error;
  }
  return 'none';
}

describe('RedisPool.open', () => {
  it('creates a pool, lets others join it, refuses another config or an unknown pool', async () => {
    const name = uniqueName('open');
    const pool = await RedisPool.open(server().url, { name, capacity: 8, retain: 2 });
    const joined = await RedisPool.open(server().url, { name });
    expect([joined.capacity, joined.retain, joined.rateLimit]).toEqual([8, 2, undefined]);
    const same = await RedisPool.open(server().url, { name, capacity: 8, retain: 2 });
    expect(await codeOf(RedisPool.open(server().url, { name, capacity: 9 }))).toBe('CONFIG_MISMATCH');
    await expect(RedisPool.open(server().url, { name, capacity: 9 })).rejects.toThrow(
      /exists with .*"capacity":8/,
    );
    expect(await codeOf(RedisPool.open(server().url, { name: uniqueName('none') }))).toBe('POOL_NOT_FOUND');
    expect(await codeOf(PoolMirror.open(server().url, { name: uniqueName('none') }))).toBe('POOL_NOT_FOUND');
    await Promise.all([pool.close(), joined.close(), same.close()]);
  });

  it('names the bad option', async () => {
    const url = server().url;
    await expect(RedisPool.open('http://x', { name: 'a', capacity: 1 })).rejects.toThrow(
      /^url must be redis:\/\/.* or rediss\+cluster:\/\/… \(a Redis Cluster, TLS\); unknown scheme, got "http:\/\/x"$/,
    );
    await expect(RedisPool.open(url, { name: 'a{b}', capacity: 1 })).rejects.toThrow(/name must be 1 to 200/);
    await expect(RedisPool.open(url, { name: 'a', capacity: 0 })).rejects.toThrow(
      /capacity must be an integer in \[1, 67108864\], got 0/,
    );
    await expect(RedisPool.open(url, { name: 'a', capacity: 2, retain: -1 })).rejects.toThrow(/retain/);
    await expect(
      RedisPool.open(url, {
        name: 'a',
        capacity: 2,
        rateLimit: { updatesPerInsert: 2, minSize: 1, tolerance: 1 },
      }),
    ).rejects.toThrow(/rateLimit.tolerance must be a finite number >= max\(1, updatesPerInsert\) = 2/);
    await expect(RedisPool.open(url, { name: 'a', capacity: 2, batchSize: 0 })).rejects.toThrow(/batchSize/);
    await expect(RedisPool.open(url, { name: 'a', capacity: 2, replicas: -1 })).rejects.toThrow(
      /replicas must be an integer in \[0, 1000\], got -1/,
    );
    await expect(RedisPool.open(url, { name: 'a', capacity: 2, replicaTimeoutMs: 0 })).rejects.toThrow(
      /replicaTimeoutMs must be an integer/,
    );
  });

  it('fails clearly when no server answers, naming it without its password', async () => {
    const error = await RedisPool.open('redis://app:Sup3rSecret@127.0.0.1:1', {
      name: 'a',
      capacity: 1,
      reconnectTimeoutMs: 300,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedisPoolError);
    expect((error as RedisPoolError).code).toBe('CONNECTION_LOST');
    expect((error as Error).message).toContain('redis://app:***@127.0.0.1:1');
    expect((error as Error).message).not.toContain('Sup3rSecret');
  });
});

describe('RedisPool.pushMany', () => {
  it('stores each trajectory as one entry and adds nothing for an id pushed before', async () => {
    const name = uniqueName('push');
    const pool = await RedisPool.open(server().url, { name, capacity: 10, batchSize: 3 });
    const first = await pool.pushMany([one(1), one(2), one(3), one(4)], { ids: ['a', 'b', 'c', 'd'] });
    expect(first.map((r) => [r.id, r.duplicate])).toEqual([
      ['a', false],
      ['b', false],
      ['c', false],
      ['d', false],
    ]);
    const again = await pool.pushMany([one(9), one(5)], { ids: ['b', 'e'] });
    expect(again[0]).toEqual({ id: 'b', entryId: first[1]!.entryId, duplicate: true });
    expect(again[1]!.duplicate).toBe(false);
    expect(await pool.counters()).toEqual({ inserts: 5, updates: 0 });
    const mirror = await PoolMirror.open(server().url, { name });
    await mirror.sync();
    expect(Array.from(mirror.pool.returns())).toEqual([1, 2, 3, 4, 5]);
    await Promise.all([pool.close(), mirror.close()]);
  });

  it('validates everything before sending anything', async () => {
    const name = uniqueName('invalid');
    const pool = await RedisPool.open(server().url, { name, capacity: 10 });
    await expect(pool.pushMany([one(1), { ...one(2), logProbs: [0.5] }])).rejects.toThrow(
      /trajectories\[1\]: trajectory.logProbs\[0\] must be a finite log-probability <= 0, got 0.5/,
    );
    await expect(pool.pushMany([one(1)], { ids: ['a', 'b'] })).rejects.toThrow(
      /options.ids must hold one id per trajectory/,
    );
    await expect(pool.pushMany([one(1)], { ids: [''] })).rejects.toThrow(/options.ids\[0\]/);
    expect(await pool.counters()).toEqual({ inserts: 0, updates: 0 });
    await pool.close();
  });

  it('lets readers see exactly the newest N, whatever the approximate trimming left in the stream', async () => {
    const client = createClient({ url: server().url });
    await client.connect();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 30 }),
        fc.array(fc.integer({ min: 1, max: 150 }), { minLength: 1, maxLength: 4 }),
        async (capacity, retain, bursts) => {
          const name = uniqueName('newest');
          const pool = await RedisPool.open(server().url, { name, capacity, retain, batchSize: 7 });
          const mirror = await PoolMirror.open(server().url, { name, readChunk: 5 });
          let pushed = 0;
          for (const burst of bursts) {
            await pool.pushMany(Array.from({ length: burst }, (_, k) => one(pushed + k)));
            pushed += burst;
            const result = await mirror.sync();
            expect(result.lag).toBe(burst);
            const newest = Array.from(
              { length: Math.min(capacity, pushed) },
              (_, k) => pushed - Math.min(capacity, pushed) + k,
            );
            expect(Array.from(mirror.pool.returns())).toEqual(newest);
            // Approximate trimming keeps at least N + retain entries, so the window read is what bounds it.
            expect(await client.xLen(`{${name}}:trajectories`)).toBeGreaterThanOrEqual(
              Math.min(pushed, capacity + retain),
            );
          }
          await Promise.all([pool.close(), mirror.close()]);
        },
      ),
      { numRuns: 12 },
    );
    await client.close();
  });
});

describe('RedisPool ids', () => {
  const remembered = (pool: RedisPool) => pool.capacity + pool.retain + pool.idWindow;

  it('refuses an id among the newest N + retain + idWindow inserts and adds it again one insert later', async () => {
    const name = uniqueName('window');
    const pool = await RedisPool.open(server().url, { name, capacity: 3, retain: 2, idWindow: 4 });
    expect(remembered(pool)).toBe(9);
    const [first] = await pool.pushMany([one(0)], { ids: ['x'] });
    const others = (from: number, count: number) =>
      pool.pushMany(
        Array.from({ length: count }, (_, k) => one(from + k)),
        { ids: Array.from({ length: count }, (_, k) => `o${from + k}`) },
      );
    // 8 = D - 1 inserts after x: x is still remembered, whatever the time since.
    await others(1, 8);
    expect(await pool.push(one(50), 'x')).toEqual({ id: 'x', entryId: first!.entryId, duplicate: true });
    // The refused push was no insert; one more (D after x) and x is forgotten: it is added again.
    await others(9, 1);
    const again = await pool.push(one(51), 'x');
    expect(again.duplicate).toBe(false);
    expect(again.entryId).not.toBe(first!.entryId);
    expect(await pool.counters()).toEqual({ inserts: 11, updates: 0 });
    await pool.close();
  });

  it('holds the ids of exactly the newest D inserts after 10 × D pushes, and no other key', async () => {
    const name = uniqueName('bounded');
    const pool = await RedisPool.open(server().url, { name, capacity: 40, retain: 10, batchSize: 30 });
    const d = remembered(pool);
    expect(d).toBe(90);
    const ids = Array.from({ length: 10 * d }, (_, k) => `actor-${k % 3}/episode-${k}`);
    for (let k = 0; k < ids.length; k += 100) {
      const slice = ids.slice(k, k + 100);
      await pool.pushMany(
        slice.map((_, i) => one(k + i)),
        { ids: slice },
      );
    }
    const client = createClient({ url: server().url });
    await client.connect();
    const tag = `{${name}}`;
    expect(await client.hLen(`${tag}:ids`)).toBe(d);
    expect(await client.lRange(`${tag}:id-order`, 0, -1)).toEqual(ids.slice(-d).reverse());
    expect(Object.keys(await client.hGetAll(`${tag}:ids`)).sort()).toEqual(ids.slice(-d).sort());
    const keys: string[] = [];
    for await (const batch of client.scanIterator({ MATCH: `${tag}*`, COUNT: 1000 })) keys.push(...batch);
    expect(keys.sort()).toEqual([`${tag}:id-order`, `${tag}:ids`, `${tag}:meta`, `${tag}:trajectories`]);
    await client.close();
    await pool.close();
  });

  it('agrees with a model of the newest D ids for random pushes, and no D + 1 consecutive entries share an id', async () => {
    const client = createClient({ url: server().url });
    await client.connect();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 4 }),
        fc.array(fc.array(fc.integer({ min: 0, max: 11 }), { minLength: 1, maxLength: 6 }), {
          minLength: 1,
          maxLength: 12,
        }),
        async (capacity, retain, idWindow, calls) => {
          const name = uniqueName('ids-model');
          const pool = await RedisPool.open(server().url, { name, capacity, retain, idWindow, batchSize: 2 });
          const d = capacity + retain + idWindow;
          // The model: ids of the inserts, newest last, with their entry ids.
          const inserted: { id: string; entryId: string }[] = [];
          for (const call of calls) {
            const ids = call.map((k) => `t${k}`);
            const results = await pool.pushMany(
              call.map((k) => one(k)),
              { ids },
            );
            for (const [k, result] of results.entries()) {
              const known = inserted.slice(-d).find((e) => e.id === ids[k]);
              expect(result.duplicate).toBe(known !== undefined);
              if (known !== undefined) expect(result.entryId).toBe(known.entryId);
              else inserted.push({ id: ids[k]!, entryId: result.entryId });
            }
          }
          const tag = `{${name}}`;
          expect(await client.lRange(`${tag}:id-order`, 0, -1)).toEqual(
            inserted
              .slice(-d)
              .map((e) => e.id)
              .reverse(),
          );
          expect(await client.hLen(`${tag}:ids`)).toBe(Math.min(d, inserted.length));
          const newest = await client.xRevRange(`${tag}:trajectories`, '+', '-', { COUNT: d + 1 });
          const streamIds = (newest ?? []).map((e) => e.message['id']);
          expect(new Set(streamIds).size).toBe(streamIds.length);
          await pool.close();
        },
      ),
      { numRuns: 25 },
    );
    await client.close();
  });

  it('is part of the configuration every process shares, and named when invalid', async () => {
    const name = uniqueName('id-config');
    const pool = await RedisPool.open(server().url, { name, capacity: 8, idWindow: 100 });
    const joined = await RedisPool.open(server().url, { name });
    expect(joined.idWindow).toBe(100);
    expect(await codeOf(RedisPool.open(server().url, { name, capacity: 8 }))).toBe('CONFIG_MISMATCH');
    const defaulted = await RedisPool.open(server().url, { name: uniqueName('id-config'), capacity: 8 });
    expect(defaulted.idWindow).toBe(8);
    await expect(
      RedisPool.open(server().url, { name: uniqueName('id-config'), capacity: 8, idWindow: -1 }),
    ).rejects.toThrow('idWindow must be an integer in [0, 67108864], got -1');
    await Promise.all([pool.close(), joined.close(), defaulted.close()]);
  });
});

describe('RedisPool policies', () => {
  it('publishes version and parameters together, only forward, and a retry is harmless', async () => {
    const name = uniqueName('policy');
    const pool = await RedisPool.open(server().url, { name, capacity: 4 });
    expect(await pool.readPolicy()).toBeUndefined();
    expect(await pool.readPolicyVersion()).toBeUndefined();
    const parameters = new Uint8Array(new Float64Array([0.25, -1, 3]).buffer);
    await pool.publishPolicy(3, parameters);
    await pool.publishPolicy(3, parameters);
    const read = await pool.readPolicy();
    expect(read?.version).toBe(3);
    expect(new Float64Array(read!.parameters.slice().buffer)).toEqual(new Float64Array([0.25, -1, 3]));
    expect(await codeOf(pool.publishPolicy(2, parameters))).toBe('VERSION_NOT_NEWER');
    await expect(pool.publishPolicy(3, new Uint8Array([1]))).rejects.toThrow(
      /VERSION_NOT_NEWER: policy version 3 is not above the published version 3/,
    );
    await expect(pool.publishPolicy(-1, parameters)).rejects.toThrow(/version must be an integer/);
    await expect(pool.publishPolicy(4, [1] as unknown as Uint8Array)).rejects.toThrow(
      /parameters must be a Uint8Array/,
    );
    await pool.publishPolicy(4, new Uint8Array(0));
    expect(await pool.readPolicy()).toEqual({ version: 4, parameters: new Uint8Array(0) });
    await pool.close();
  });

  it('gives a reader holding any version exactly what reaches the newest: its deltas, or the last snapshot and all after it', async () => {
    // Model: every publication in order; the state of a version is the list of bytes from the last
    // snapshot at or before it up to it. A reader that applies the reply to what it holds must reach the
    // newest version's state, and read no snapshot when the deltas after its version reach the newest.
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            snapshot: fc.boolean(),
            step: fc.integer({ min: 1, max: 3 }),
            bytes: fc.uint8Array({ maxLength: 6 }),
          }),
          { minLength: 1, maxLength: 12 },
        ),
        async (operations) => {
          const name = uniqueName('deltas');
          const pool = await RedisPool.open(server().url, { name, capacity: 4 });
          const published: { version: number; snapshot: boolean; bytes: number[] }[] = [];
          let version = 0;
          for (const [k, operation] of operations.entries()) {
            const snapshot = k === 0 || operation.snapshot;
            version += k === 0 ? 0 : operation.step;
            if (snapshot) await pool.publishPolicy(version, operation.bytes);
            else await pool.publishPolicyDelta(version, operation.bytes);
            published.push({ version, snapshot, bytes: Array.from(operation.bytes) });
            const stateOf = (index: number): number[][] => {
              let from = index;
              while (!published[from]!.snapshot) from--;
              return published.slice(from, index + 1).map((p) => p.bytes);
            };
            const newest = stateOf(published.length - 1);
            const base = published.findLastIndex((p) => p.snapshot);
            expect(await pool.readPolicy()).toEqual({
              version: published[base]!.version,
              parameters: new Uint8Array(published[base]!.bytes),
            });
            // Readers holding nothing, each version published, and versions never published.
            const held: (number | null)[] = [null, ...published.map((p) => p.version), version + 1];
            if (version > 0) held.push(version - 0.5 > 0 ? Math.floor(version / 2) : 0);
            for (const at of held) {
              const changes = (await pool.readPolicyAfter(at))!;
              expect(changes.version).toBe(version);
              const index = published.findIndex((p) => p.version === at);
              const catchUp = index >= base && index !== -1;
              let state: number[][];
              if (catchUp) {
                expect(changes.snapshot).toBeNull();
                state = stateOf(index);
              } else {
                expect(changes.snapshot?.version).toBe(published[base]!.version);
                state = [Array.from(changes.snapshot!.parameters)];
              }
              for (const delta of changes.deltas) state.push(Array.from(delta.bytes));
              expect(state).toEqual(newest);
              const expectedVersions = published.slice(catchUp ? index + 1 : base + 1).map((p) => p.version);
              expect(changes.deltas.map((d) => d.version)).toEqual(expectedVersions);
            }
          }
          await pool.close();
        },
      ),
      { numRuns: 15 },
    );
  });

  it('publishes deltas only after a snapshot and only forward, a retry is harmless, and versions reach 2^32 - 1', async () => {
    const name = uniqueName('delta-checks');
    const pool = await RedisPool.open(server().url, { name, capacity: 4 });
    expect(await pool.readPolicyAfter(null)).toBeUndefined();
    expect(await codeOf(pool.publishPolicyDelta(0, new Uint8Array([1])))).toBe('NO_POLICY');
    await expect(pool.publishPolicyDelta(0, new Uint8Array([1]))).rejects.toThrow(
      /NO_POLICY: no policy snapshot has been published to this pool yet: publish one \(publishPolicy\) before delta version 0/,
    );
    await pool.publishPolicy(5, new Uint8Array([5]));
    await pool.publishPolicyDelta(6, new Uint8Array([6]));
    await pool.publishPolicyDelta(6, new Uint8Array([6]));
    await expect(pool.publishPolicyDelta(6, new Uint8Array([7]))).rejects.toThrow(
      /VERSION_NOT_NEWER: policy version 6 is not above the published version 6/,
    );
    await expect(pool.publishPolicy(6, new Uint8Array([6]))).rejects.toThrow(/VERSION_NOT_NEWER/);
    expect(await codeOf(pool.publishPolicyDelta(5, new Uint8Array([5])))).toBe('VERSION_NOT_NEWER');
    expect((await pool.readPolicyAfter(5))!.deltas.map((d) => [d.version, ...d.bytes])).toEqual([[6, 6]]);
    await expect(pool.publishPolicyDelta(-1, new Uint8Array(0))).rejects.toThrow(
      /version must be an integer in \[0, 4294967295\], got -1/,
    );
    await expect(pool.publishPolicyDelta(7, 'x' as unknown as Uint8Array)).rejects.toThrow(
      /delta must be a Uint8Array, got "x"/,
    );
    await expect(pool.readPolicyAfter(1.5)).rejects.toThrow(
      /version must be an integer in \[0, 4294967295\], got 1.5/,
    );
    await expect(pool.readPolicyAfter(undefined as unknown as null)).rejects.toThrow(/version must be/);
    await pool.publishPolicy(2 ** 32 - 3, new Uint8Array([1]));
    await pool.publishPolicyDelta(2 ** 32 - 2, new Uint8Array([2]));
    await pool.publishPolicyDelta(2 ** 32 - 1, new Uint8Array([3]));
    const last = (await pool.readPolicyAfter(2 ** 32 - 2))!;
    expect([last.version, last.snapshot, last.deltas.map((d) => d.version)]).toEqual([
      2 ** 32 - 1,
      null,
      [2 ** 32 - 1],
    ]);
    expect(await pool.readPolicyAfter(2 ** 32 - 1)).toEqual({
      version: 2 ** 32 - 1,
      snapshot: null,
      deltas: [],
    });
    expect(await pool.readPolicyVersion()).toBe(2 ** 32 - 1);
    await pool.close();
  });

  it("keeps notes that every process of the pool reads by key, in the pool's hash slot", async () => {
    const name = uniqueName('notes');
    const pool = await RedisPool.open(server().url, { name, capacity: 4 });
    const other = await RedisPool.open(server().url, { name });
    expect(await other.readNote('task')).toBeUndefined();
    await pool.writeNote('task', '{"seed":0,"é":"ü"}');
    await pool.writeNote('state', 'running');
    await pool.writeNote('state', 'done');
    expect(await other.readNote('task')).toBe('{"seed":0,"é":"ü"}');
    expect(await other.readNote('state')).toBe('done');
    await pool.writeNote('empty', '');
    expect(await other.readNote('empty')).toBe('');
    // Another pool has notes of its own.
    const elsewhere = await RedisPool.open(server().url, { name: uniqueName('notes'), capacity: 4 });
    expect(await elsewhere.readNote('state')).toBeUndefined();
    const client = createClient({ url: server().url });
    await client.connect();
    expect(await client.hGetAll(`{${name}}:notes`)).toEqual({
      task: '{"seed":0,"é":"ü"}',
      state: 'done',
      empty: '',
    });
    await client.quit();
    await expect(pool.writeNote('', 'x')).rejects.toThrow('key must be 1 to 200 characters, got ""');
    await expect(pool.readNote(7 as unknown as string)).rejects.toThrow('key must be a string, got 7');
    await expect(pool.writeNote('k', 3 as unknown as string)).rejects.toThrow(
      'value must be a string, got 3',
    );
    await expect(pool.writeNote('k', 'x'.repeat(2 ** 20 + 1))).rejects.toThrow(
      'value must be at most 1048576 bytes in UTF-8, got 1048577',
    );
    await Promise.all([pool.close(), other.close(), elsewhere.close()]);
  });
});
