// The pool on a real Redis Cluster of 3 masters and 3 replicas (test/redis-cluster.ts), through node-redis's
// cluster client (`redis+cluster://` with every node as a seed), with a short node timeout so that a
// replica takes over within seconds of its master's SIGKILL; 2 s, not less, so that a node starved of CPU
// on a loaded machine is not taken for failed (a spurious failover, which the waits below do not expect).
import { describe, expect, it } from 'vitest';
import { until, useRedisCluster } from '../test/redis-cluster.js';
import { uniqueName } from '../test/redis-server.js';
import { PolicyFollower } from './policy-follower.js';
import { PoolMirror } from './pool-mirror.js';
import { RedisPool } from './redis-pool.js';
import { RedisPoolError } from './redis-pool-error.js';

const cluster = useRedisCluster({ masters: 3, replicas: 1, nodeTimeoutMs: 2000 });

const trajectory = (n: number) => ({ actions: [n % 3], logProbs: [-0.5], versions: 0, return: n });

/**
 * How many times each return appears among every entry of pool `name`, read through a new mirror, and when
 * each entry was written (the server's clock, in the stream entry id).
 */
async function census(name: string): Promise<Map<number, number> & { writtenAt: number[] }> {
  const mirror = await PoolMirror.open(cluster().url, { name });
  try {
    while ((await mirror.sync()).added > 0);
    const counts = Object.assign(new Map<number, number>(), { writtenAt: [] as number[] });
    for (const r of mirror.pool.returns()) counts.set(r, (counts.get(r) ?? 0) + 1);
    for (let k = 0; k < mirror.pool.size; k++)
      counts.writtenAt.push(Number(mirror.entryIdAt(k).split('-')[0]));
    return counts;
  } finally {
    await mirror.close();
  }
}

describe('RedisPool on a Redis Cluster with replicas, through the cluster client', () => {
  it('with replicas: 1, refuses to acknowledge a push its replica has not confirmed', async () => {
    const name = uniqueName('cluster-e2e');
    const { master, replicas } = await cluster().shard(await cluster().slotOf(name));
    const pool = await RedisPool.open(cluster().url, {
      name,
      capacity: 8,
      replicas: 1,
      replicaTimeoutMs: 200,
    });
    try {
      // WAIT goes to the pool's master only: another shard without its replica does not matter.
      const other = cluster().servers.find((s) => s.port !== master && !replicas.includes(s.port))!;
      const info = String(await cluster().command(other.port, ['INFO', 'replication']));
      const otherReplica = info.includes('role:slave')
        ? other.port
        : Number(/slave0:ip=[^,]+,port=(\d+)/.exec(info)![1]);
      await cluster().kill(otherReplica);
      try {
        expect((await pool.push(trajectory(0), 'a')).duplicate).toBe(false);
      } finally {
        await cluster().restart(otherReplica);
        await until(
          async () =>
            String(await cluster().command(otherReplica, ['INFO', 'replication'])).includes(
              'master_link_status:up',
            ),
          20_000,
          'the other replica did not come back',
        );
      }
      // A replica that cannot answer (paused, shorter than the node timeout) confirms nothing.
      await cluster().command(replicas[0]!, ['CLIENT', 'PAUSE', '600', 'ALL']);
      const refused = pool.push(trajectory(1), 'b');
      await expect(refused).rejects.toBeInstanceOf(RedisPoolError);
      await expect(refused).rejects.toMatchObject({ code: 'NOT_REPLICATED' });
      await new Promise((resolve) => setTimeout(resolve, 700));
      // Pushed again once the replica is back: a duplicate of the write WAIT could not confirm.
      expect((await pool.push(trajectory(1), 'b')).duplicate).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it('carries on when the master of the pool is SIGKILLed: no acknowledged push lost or doubled, the same clients go on', async () => {
    const name = uniqueName('cluster-e2e');
    const slot = await cluster().slotOf(name);
    const { master } = await cluster().shard(slot);
    // reconnectTimeoutMs covers the promotion (node timeout 2 s + election) and the restarted node's sync.
    const options = {
      name,
      capacity: 100_000,
      replicas: 1,
      replicaTimeoutMs: 500,
      reconnectTimeoutMs: 20_000,
    };
    const writer = await RedisPool.open(cluster().url, options);
    const learner = await RedisPool.open(cluster().url, { name, reconnectTimeoutMs: 20_000 });
    const reader = await PoolMirror.open(cluster().url, { name, reconnectTimeoutMs: 20_000 });
    const follower = new PolicyFollower(writer, 'step', { notify: true });
    const acknowledged: number[] = [];
    const acknowledgedAt: number[] = [];
    const refusals = new Map<string, number>();
    let firstRefusal = 0;
    let stop = false;
    // The actor: pushes ids in order through one RedisPool for the whole test; on an error it pushes the
    // same id again.
    const actor = (async () => {
      for (let n = 0; !stop; ) {
        try {
          await writer.push(trajectory(n), `id-${n}`);
          acknowledged.push(n);
          acknowledgedAt.push(Date.now());
          n++;
        } catch (error) {
          if (!(error instanceof RedisPoolError)) throw error;
          refusals.set(error.code, (refusals.get(error.code) ?? 0) + 1);
          firstRefusal ||= Date.now();
        }
      }
    })();
    // The reader: one mirror, synced all along.
    let newestRead = -1;
    const readerLoop = (async () => {
      while (!stop) {
        await reader.sync({ blockMs: 100 });
        newestRead = Math.max(
          newestRead,
          reader.pool.size === 0 ? -1 : reader.pool.at(reader.pool.size - 1).return,
        );
      }
    })();
    let killedAt = 0;
    let promotedAt = 0;
    let before = 0;
    // What a failed wait reports: how far the clients got, and the cluster as each live node sees it.
    const state = async () =>
      `${acknowledged.length} pushes acknowledged (${before} before the kill), ` +
      `last ${acknowledgedAt.length === 0 ? 'never' : `${Date.now() - acknowledgedAt.at(-1)!} ms ago`}, ` +
      `refusals ${JSON.stringify(Object.fromEntries(refusals))}, newest read ${newestRead}; ${await cluster().report()}`;
    try {
      await until(async () => acknowledged.length >= 200, 10_000, 'fewer than 200 pushes');
      await learner.publishPolicy(1, Uint8Array.of(1));
      expect((await follower.beginEpisode()).version).toBe(1);
      before = acknowledged.length;
      killedAt = Date.now();
      await cluster().kill(master);
      await until(
        async () => (await cluster().shard(slot)).master !== master,
        15_000,
        'no replica was promoted',
        state,
      );
      promotedAt = Date.now();
      // The promoted master has no replica left, so nothing can be acknowledged (NOT_REPLICATED) until the
      // old master comes back, which rejoins as its replica (its nodes.conf remembers the cluster).
      await cluster().restart(master);
      await until(
        async () => acknowledged.length >= before + 200,
        30_000,
        'pushes did not carry on after the failover',
        state,
      );
      // The learner publishes on the new master; the follower hears of it on its (re-made) subscription.
      await learner.publishPolicy(2, Uint8Array.of(2));
      await until(
        async () => (await follower.beforeStep()).version === 2,
        10_000,
        'version 2 was not seen',
        state,
      );
      await until(async () => newestRead >= before + 100, 10_000, 'the reader did not carry on', state);
    } finally {
      // Also when a wait above fails: the loops stop and their errors, if any, are reported.
      stop = true;
      await Promise.all([actor, readerLoop]);
      await follower.close();
    }
    const resumedAt = acknowledgedAt.find((t) => t > killedAt)!;
    const counts = await census(name);
    const rewrittenAt = counts.writtenAt.find((t) => t > killedAt)!;
    const lost = acknowledged.filter((n) => !counts.has(n));
    const doubled = [...counts.entries()].filter(([, c]) => c > 1).map(([n]) => n);
    const readerCounts = new Map<number, number>();
    for (const r of reader.pool.returns()) readerCounts.set(r, (readerCounts.get(r) ?? 0) + 1);
    const readerDoubled = [...readerCounts.values()].filter((c) => c > 1).length;
    await Promise.all([writer.close(), learner.close(), reader.close()]);
    console.info(
      `failover: ${acknowledged.length} pushes acknowledged (${before} before the kill), ${lost.length} lost, ${doubled.length} doubled; ` +
        `after the kill: promotion ${promotedAt - killedAt} ms, first refusal ${firstRefusal - killedAt} ms, ` +
        `first surviving entry written ${rewrittenAt - killedAt} ms, first acknowledged push ${resumedAt - killedAt} ms; ` +
        `refusals ${JSON.stringify(Object.fromEntries(refusals))}; reader mirror ${reader.pool.size} entries, ${readerDoubled} doubled`,
    );
    expect(lost).toEqual([]);
    expect(doubled).toEqual([]);
    expect(acknowledged.length).toBeGreaterThanOrEqual(before + 200);
    expect((await cluster().shard(slot)).master).not.toBe(master);
  });

  it('pushes again when the master dies during WAIT, instead of taking a WAIT on its successor for it', async () => {
    const name = uniqueName('cluster-e2e');
    const slot = await cluster().slotOf(name);
    const { master, replicas } = await cluster().shard(slot);
    const replica = replicas[0]!;
    // A long replicaTimeoutMs: the successor's WAIT lasts until the old master is back as its replica.
    const pool = await RedisPool.open(cluster().url, {
      name,
      capacity: 8,
      replicas: 1,
      replicaTimeoutMs: 20_000,
      reconnectTimeoutMs: 30_000,
    });
    const replicaPid = Number(
      /process_id:(\d+)/.exec(String(await cluster().command(replica, ['INFO', 'server'])))![1],
    );
    try {
      await pool.push(trajectory(0), 'before');
      // The replica is stopped and its link cut: the next push stays on the master, its WAIT blocks.
      process.kill(replicaPid, 'SIGSTOP');
      await cluster().command(master, ['CLIENT', 'KILL', 'TYPE', 'replica']);
      const pushing = pool.push(trajectory(1), 'during');
      await until(
        async () => Number(await cluster().command(master, ['HEXISTS', `{${name}}:ids`, 'during'])) === 1,
        5000,
        'the push did not reach the master',
      );
      await cluster().kill(master);
      process.kill(replicaPid, 'SIGCONT');
      await cluster().command(replica, ['CLUSTER', 'FAILOVER', 'TAKEOVER']);
      await until(async () => (await cluster().shard(slot)).master === replica, 15_000, 'no takeover');
      // Back as the new master's replica, the old master lets a WAIT on the new master succeed, which
      // says nothing of the push the old master took with it.
      await cluster().restart(master);
      expect((await pushing).duplicate).toBe(false);
      expect([...(await census(name)).keys()].sort()).toEqual([0, 1]);
    } finally {
      process.kill(replicaPid, 'SIGCONT');
      await pool.close();
    }
  });

  it('without replicas, can lose an acknowledged push at failover (what the option prevents)', async () => {
    const name = uniqueName('cluster-e2e');
    const slot = await cluster().slotOf(name);
    const { master, replicas } = await cluster().shard(slot);
    const replica = replicas[0]!;
    await until(
      async () =>
        /slave0:.*state=online/.test(String(await cluster().command(master, ['INFO', 'replication']))),
      20_000,
      'the replica was not online',
    );
    const pool = await RedisPool.open(cluster().url, { name, capacity: 8, reconnectTimeoutMs: 500 });
    // Opened before the replica is stopped: a stopped seed would hold up a cluster client's discovery.
    const waiting = await RedisPool.open(cluster().url, { name, replicas: 1, replicaTimeoutMs: 100 });
    const replicaPid = Number(
      /process_id:(\d+)/.exec(String(await cluster().command(replica, ['INFO', 'server'])))![1],
    );
    try {
      await pool.push(trajectory(0), 'before');
      expect(Number(await cluster().command(master, ['WAIT', '1', '1000']))).toBe(1);
      // The replica is stopped and its link cut, so the next write never leaves the master; stopped, it
      // cannot reconnect before the master dies.
      process.kill(replicaPid, 'SIGSTOP');
      await cluster().command(master, ['CLIENT', 'KILL', 'TYPE', 'replica']);
      expect((await pool.push(trajectory(1), 'acknowledged')).duplicate).toBe(false);
      // The same situation with replicas: 1 does not acknowledge.
      await expect(waiting.push(trajectory(2), 'refused')).rejects.toMatchObject({ code: 'NOT_REPLICATED' });
      await cluster().kill(master);
      process.kill(replicaPid, 'SIGCONT');
      await cluster().command(replica, ['CLUSTER', 'FAILOVER', 'TAKEOVER']);
      await until(
        async () => (await cluster().shard(slot)).master === replica,
        15_000,
        'the replica did not take over',
      );
    } finally {
      process.kill(replicaPid, 'SIGCONT');
      await Promise.all([pool.close(), waiting.close()]);
    }
    // Both later writes are gone: 'acknowledged' was reported as pushed, 'refused' was not.
    expect([...(await census(name)).keys()]).toEqual([0]);
  });
});
