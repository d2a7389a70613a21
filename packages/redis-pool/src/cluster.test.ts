// A pool on a real Redis Cluster: three redis-server processes in cluster mode, each serving a third of the
// 16384 hash slots, joined with CLUSTER MEET (no redis-cli needed), stopped and removed after the tests.
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from '../test/redis-server.js';
import { PolicyFollower } from './policy-follower.js';
import { PoolMirror } from './pool-mirror.js';
import { RedisPool } from './redis-pool.js';
import { RedisPoolError } from './redis-pool-error.js';
import { type RedisServer, startRedisServer } from './start-redis-server.js';

const SLOTS = 16_384;
const NODES = 3;
const CLUSTER_ARGS = ['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf'];

/** One command on one node, on a connection of its own. */
async function command(url: string, args: string[]): Promise<unknown> {
  const client = createClient({ url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await client.sendCommand(args);
  } finally {
    await client.close();
  }
}

/** The first slot served by node i (node i serves [first(i), first(i + 1))). */
const first = (i: number): number => Math.floor((i * SLOTS) / NODES);

const servers: RedisServer[] = [];

beforeAll(async () => {
  try {
    for (let i = 0; i < NODES; i++) servers.push(await startRedisServer({ args: CLUSTER_ARGS }));
    for (const [i, server] of servers.entries()) {
      // ADDSLOTS, not ADDSLOTSRANGE (Redis 7), so that the test runs on every server the package supports.
      const slots = Array.from({ length: first(i + 1) - first(i) }, (_, k) => String(first(i) + k));
      await command(server.url, ['CLUSTER', 'ADDSLOTS', ...slots]);
    }
    for (const server of servers.slice(1)) {
      await command(servers[0]!.url, ['CLUSTER', 'MEET', '127.0.0.1', String(server.port)]);
    }
    const deadline = Date.now() + 20_000;
    for (const server of servers) {
      for (;;) {
        const info = String(await command(server.url, ['CLUSTER', 'INFO']));
        if (info.includes('cluster_state:ok') && info.includes(`cluster_known_nodes:${NODES}`)) break;
        if (Date.now() > deadline) throw new Error(`the cluster did not form within 20 s:\n${info}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  } catch (error) {
    await Promise.all(servers.map((s) => s.stop()));
    throw error;
  }
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

/** The pool's hash slot, the node that serves it and one that does not. */
async function placement(name: string): Promise<{ slot: number; owner: RedisServer; other: RedisServer }> {
  const slot = Number(await command(servers[0]!.url, ['CLUSTER', 'KEYSLOT', `{${name}}`]));
  const index = servers.findIndex((_, i) => slot >= first(i) && slot < first(i + 1));
  return { slot, owner: servers[index]!, other: servers[(index + 1) % NODES]! };
}

describe('RedisPool on a Redis Cluster', () => {
  it('works on the master that serves its hash slot, every key in that one slot', async () => {
    const name = uniqueName('cluster');
    const { slot, owner } = await placement(name);
    const learner = await RedisPool.open(owner.url, {
      name,
      capacity: 8,
      retain: 4,
      rateLimit: { updatesPerInsert: 1, minSize: 1, tolerance: 4 },
    });
    const actor = await RedisPool.open(owner.url, { name });
    const mirror = await PoolMirror.open(owner.url, { name });
    try {
      await learner.publishPolicy(3, new Uint8Array(new Float64Array([0.5, -0.5]).buffer));
      const policy = await new PolicyFollower(actor, 'step').beginEpisode();
      expect(policy.version).toBe(3);
      // Deltas (a stream in the slot), read by a follower that learns of versions by announcement.
      const loader = {
        snapshot: (bytes: Uint8Array) => Array.from(bytes),
        delta: (held: number[], bytes: Uint8Array) => [...held, ...bytes],
      };
      const notified = new PolicyFollower(actor, 'step', { loader, notify: true });
      expect((await notified.beginEpisode()).parameters).toHaveLength(16);
      await learner.publishPolicyDelta(4, Uint8Array.of(7));
      const deadline = Date.now() + 10_000;
      while ((await notified.beforeStep()).version !== 4) {
        if (Date.now() > deadline) throw new Error('no announcement of version 4 in 10 s');
      }
      expect((await notified.beforeStep()).parameters.at(-1)).toBe(7);
      expect(notified.reads).toBe(2);
      await notified.close();
      const trajectory = { actions: [1, 0], logProbs: [-0.2, -1.1], versions: [3, 3], return: 2 };
      const [pushed] = await actor.pushMany([trajectory], { ids: ['actor-0/episode-0'] });
      const [again] = await actor.pushMany([trajectory], { ids: ['actor-0/episode-0'] });
      expect([pushed!.duplicate, again!.duplicate, again!.entryId]).toEqual([false, true, pushed!.entryId]);
      expect(await mirror.sync()).toEqual({ added: 1, skipped: 0, lag: 1 });
      expect(Array.from(mirror.pool.returns())).toEqual([2]);
      expect(await learner.tryUpdate()).toBe(true);
      expect(await learner.counters()).toEqual({ inserts: 1, updates: 1 });
      const replay = await mirror.readRange(mirror.range());
      expect(Array.from(replay.at(0).actions)).toEqual([1, 0]);
      // Every key of the pool is in its slot; the other nodes hold nothing.
      const keys = (await command(owner.url, ['KEYS', `{${name}}*`])) as string[];
      expect(keys.length).toBeGreaterThanOrEqual(4);
      expect(Number(await command(owner.url, ['CLUSTER', 'COUNTKEYSINSLOT', String(slot)]))).toBe(
        keys.length,
      );
      for (const server of servers.filter((s) => s !== owner)) {
        expect(Number(await command(server.url, ['DBSIZE']))).toBe(0);
      }
    } finally {
      await Promise.all([learner.close(), actor.close(), mirror.close()]);
    }
  });

  it('refuses another node with WRONG_NODE, naming the node that serves the pool', async () => {
    const name = uniqueName('cluster');
    const { slot, owner, other } = await placement(name);
    const where = `127.0.0.1:${owner.port}`;
    const opening = RedisPool.open(other.url, { name, capacity: 8 });
    await expect(opening).rejects.toBeInstanceOf(RedisPoolError);
    await expect(opening).rejects.toMatchObject({ code: 'WRONG_NODE' });
    await expect(opening).rejects.toThrow(
      `WRONG_NODE: 127.0.0.1:${other.port} is a Redis Cluster node that does not serve this pool's hash slot ${slot}; ${where} does: open the pool with that node's URL`,
    );
    await expect(PoolMirror.open(other.url, { name })).rejects.toMatchObject({ code: 'WRONG_NODE' });
    // The refused attempts wrote nothing anywhere.
    for (const server of servers) expect(await command(server.url, ['KEYS', `{${name}}*`])).toEqual([]);
  });
});
