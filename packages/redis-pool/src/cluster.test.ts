// A pool on a real Redis Cluster of three masters (test/redis-cluster.ts), through node-redis's cluster
// client (`redis+cluster://` URLs), next to a single server for the URL that names the wrong kind.
import { describe, expect, it } from 'vitest';
import { useRedisCluster } from '../test/redis-cluster.js';
import { uniqueName, useRedisServer } from '../test/redis-server.js';
import { PolicyFollower } from './policy-follower.js';
import { PoolMirror } from './pool-mirror.js';
import { RedisPool } from './redis-pool.js';
import { RedisPoolError } from './redis-pool-error.js';

const cluster = useRedisCluster({ masters: 3 });
const single = useRedisServer();

/** A cluster URL whose only seed is a master that does not serve pool `name`: every command is redirected. */
async function elsewhere(name: string): Promise<{ url: string; owner: number; slot: number }> {
  const slot = await cluster().slotOf(name);
  const { master } = await cluster().shard(slot);
  const other = cluster().servers.find((s) => s.port !== master)!;
  return { url: `redis+cluster://127.0.0.1:${other.port}`, owner: master, slot };
}

describe('RedisPool on a Redis Cluster, through the cluster client', () => {
  it('does everything a pool does, following redirections, with every key in the slot of {name}', async () => {
    const name = uniqueName('cluster');
    const { url, owner, slot } = await elsewhere(name);
    const learner = await RedisPool.open(url, {
      name,
      capacity: 8,
      retain: 4,
      rateLimit: { updatesPerInsert: 1, minSize: 1, tolerance: 4 },
    });
    const actor = await RedisPool.open(url, { name });
    const mirror = await PoolMirror.open(url, { name });
    try {
      await learner.publishPolicy(3, new Uint8Array(new Float64Array([0.5, -0.5]).buffer));
      expect((await new PolicyFollower(actor, 'step').beginEpisode()).version).toBe(3);
      // Deltas (a stream in the slot), read by a follower that learns of versions by announcement (the
      // script's PUBLISH reaches the cluster client's Pub/Sub connection, on whichever node it is).
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
      // A blocking read (XREAD BLOCK) through the cluster client, woken by a push from another client.
      const waiting = mirror.sync({ blockMs: 5000 });
      const trajectory = { actions: [1, 0], logProbs: [-0.2, -1.1], versions: [3, 3], return: 2 };
      const [pushed] = await actor.pushMany([trajectory], { ids: ['actor-0/episode-0'] });
      expect(await waiting).toEqual({ added: 1, skipped: 0, lag: 1 });
      const [again] = await actor.pushMany([trajectory], { ids: ['actor-0/episode-0'] });
      expect([pushed!.duplicate, again!.duplicate, again!.entryId]).toEqual([false, true, pushed!.entryId]);
      expect(Array.from(mirror.pool.returns())).toEqual([2]);
      // The rate limiter: with one insert, r = 1, m = 1 and e = 4 grant r·i − r·m + e = 4 updates, no more.
      let granted = 0;
      while (await learner.tryUpdate()) granted++;
      expect(granted).toBe(4);
      expect(await learner.counters()).toEqual({ inserts: 1, updates: 4 });
      await actor.writeNote('state', 'running');
      expect(await learner.readNote('state')).toBe('running');
      const replay = await mirror.readRange(mirror.range());
      expect(Array.from(replay.at(0).actions)).toEqual([1, 0]);
      // Every key of the pool is in its slot on its master; the other masters hold nothing.
      const keys = (await cluster().command(owner, ['KEYS', `{${name}}*`])) as string[];
      expect(keys.length).toBeGreaterThanOrEqual(6);
      for (const key of keys) {
        expect([key, Number(await cluster().command(owner, ['CLUSTER', 'KEYSLOT', key]))]).toEqual([
          key,
          slot,
        ]);
      }
      expect(Number(await cluster().command(owner, ['CLUSTER', 'COUNTKEYSINSLOT', String(slot)]))).toBe(
        keys.length,
      );
      for (const server of cluster().servers.filter((s) => s.port !== owner)) {
        expect(await cluster().command(server.port, ['KEYS', `{${name}}*`])).toEqual([]);
      }
    } finally {
      await Promise.all([learner.close(), actor.close(), mirror.close()]);
    }
  });

  it('refuses a redis:// URL of a cluster node with CLUSTER_NODE, giving the cluster URL, password masked', async () => {
    const name = uniqueName('cluster');
    const port = cluster().servers[0]!.port;
    // The default user has no password here, so any password is accepted: it must not be shown.
    const url = `redis://default:s3cret@127.0.0.1:${port}`;
    const opening = RedisPool.open(url, { name, capacity: 8 });
    await expect(opening).rejects.toBeInstanceOf(RedisPoolError);
    await expect(opening).rejects.toThrow(
      `CLUSTER_NODE: redis://default:***@127.0.0.1:${port} is a node of a Redis Cluster, which a single-node connection cannot follow (slots, failovers): use redis+cluster://default:***@127.0.0.1:${port}`,
    );
    await expect(PoolMirror.open(`redis://127.0.0.1:${port}`, { name })).rejects.toMatchObject({
      code: 'CLUSTER_NODE',
    });
    // Refused before anything was written.
    for (const server of cluster().servers) {
      expect(await cluster().command(server.port, ['KEYS', `{${name}}*`])).toEqual([]);
    }
  });

  it('refuses a redis+cluster:// URL of a single server with NOT_A_CLUSTER, password masked', async () => {
    const name = uniqueName('cluster');
    const url = `redis+cluster://default:s3cret@127.0.0.1:${single().port}`;
    const opening = RedisPool.open(url, { name, capacity: 8, reconnectTimeoutMs: 2000 });
    await expect(opening).rejects.toBeInstanceOf(RedisPoolError);
    await expect(opening).rejects.toThrow(
      `NOT_A_CLUSTER: redis+cluster://default:***@127.0.0.1:${single().port} names a Redis Cluster, but a single server answers there (cluster support disabled): use a redis:// URL for it`,
    );
    await expect(
      PoolMirror.open(`redis+cluster://127.0.0.1:${single().port}`, { name }),
    ).rejects.toMatchObject({ code: 'NOT_A_CLUSTER' });
  });

  it('fails with CONNECTION_LOST when no seed of a cluster URL answers', async () => {
    const free = single().port;
    await single().shutdown();
    try {
      const opening = RedisPool.open(`redis+cluster://127.0.0.1:${free}`, {
        name: uniqueName('cluster'),
        capacity: 8,
        reconnectTimeoutMs: 300,
      });
      await expect(opening).rejects.toMatchObject({ code: 'CONNECTION_LOST' });
    } finally {
      await single().start();
    }
  });
});
