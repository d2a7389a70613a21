// A pool on a real Redis Cluster of 3 masters and 3 replicas, made by `redis-cli --cluster create`, with a
// short node timeout so that a replica takes over within seconds of its master's SIGKILL.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from '../test/redis-server.js';
import { PoolMirror } from './pool-mirror.js';
import { RedisPool } from './redis-pool.js';
import { RedisPoolError } from './redis-pool-error.js';
import { type RedisServer, startRedisServer } from './start-redis-server.js';

const run = promisify(execFile);
const NODE_TIMEOUT_MS = 1000;
const CLUSTER_ARGS = [
  '--cluster-enabled',
  'yes',
  '--cluster-config-file',
  'nodes.conf',
  '--cluster-node-timeout',
  String(NODE_TIMEOUT_MS),
];

/** One command on one node, on a connection of its own. */
async function command(port: number, args: string[]): Promise<unknown> {
  const client = createClient({ url: `redis://127.0.0.1:${port}`, socket: { reconnectStrategy: false } });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await client.sendCommand(args);
  } finally {
    await client.close();
  }
}

const servers: RedisServer[] = [];
const alive = (): RedisServer[] => servers.filter((s) => !killed.has(s));
const killed = new Set<RedisServer>();

/** Until `check` is true, polling every 50 ms; throws `what` after `ms`. */
async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The port of the master serving `slot` and of its replicas, from CLUSTER NODES on a live node. */
async function shard(slot: number): Promise<{ master: number; replicas: number[] }> {
  const lines = String(await command(alive()[0]!.port, ['CLUSTER', 'NODES']))
    .trim()
    .split('\n');
  const nodes = lines.map((line) => {
    const [id, address, flags, masterId, , , , , ...slots] = line.split(' ');
    return { id, port: Number(/:(\d+)@/.exec(address!)![1]), flags: flags!, masterId, slots };
  });
  const master = nodes.find(
    (n) =>
      n.flags.includes('master') &&
      !n.flags.includes('fail') &&
      n.slots.some((range) => {
        const [lo, hi = lo] = range.split('-').map(Number);
        return slot >= lo! && slot <= hi!;
      }),
  );
  if (master === undefined) throw new Error(`no live master serves slot ${slot}`);
  const replicas = nodes.filter((n) => n.masterId === master.id).map((n) => n.port);
  return { master: master.port, replicas };
}

beforeAll(async () => {
  try {
    for (let i = 0; i < 6; i++) servers.push(await startRedisServer({ args: CLUSTER_ARGS }));
    await run('redis-cli', [
      '--cluster',
      'create',
      ...servers.map((s) => `127.0.0.1:${s.port}`),
      '--cluster-replicas',
      '1',
      '--cluster-yes',
    ]);
    for (const server of servers) {
      await until(
        async () => {
          const info = String(await command(server.port, ['CLUSTER', 'INFO']));
          return info.includes('cluster_state:ok') && info.includes('cluster_known_nodes:6');
        },
        20_000,
        `node ${server.port} did not see a healthy cluster of 6`,
      );
    }
    // A healthy cluster is not yet a replicated one: each master must see its replica online.
    for (const server of servers) {
      await until(
        async () => {
          const info = String(await command(server.port, ['INFO', 'replication']));
          return info.includes('role:slave')
            ? info.includes('master_link_status:up')
            : /slave0:.*state=online/.test(info);
        },
        20_000,
        `node ${server.port} did not finish its replication handshake`,
      );
    }
  } catch (error) {
    await Promise.all(servers.map((s) => s.stop()));
    throw error;
  }
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

const trajectory = (n: number) => ({ actions: [n % 3], logProbs: [-0.5], versions: 0, return: n });

describe('RedisPool on a Redis Cluster with replicas', () => {
  it('puts every key it creates in the slot of {name}', async () => {
    const name = uniqueName('cluster-e2e');
    const slot = Number(await command(servers[0]!.port, ['CLUSTER', 'KEYSLOT', `{${name}}`]));
    const { master } = await shard(slot);
    const url = `redis://127.0.0.1:${master}`;
    const pool = await RedisPool.open(url, { name, capacity: 8, idWindow: 8 });
    const mirror = await PoolMirror.open(url, { name });
    try {
      await pool.publishPolicy(1, Uint8Array.of(1, 2));
      await pool.publishPolicyDelta(2, Uint8Array.of(3));
      await pool.writeNote('run', 'e2e');
      for (let n = 0; n < 10; n++) await pool.push(trajectory(n), `id-${n}`);
      expect(await mirror.sync()).toMatchObject({ added: 8 });
      const keys = ((await command(master, ['KEYS', '*'])) as string[]).filter((k) => k.includes(name));
      expect(new Set(keys)).toEqual(
        new Set(
          ['trajectories', 'meta', 'policy', 'policy-deltas', 'ids', 'id-order', 'notes'].map(
            (k) => `{${name}}:${k}`,
          ),
        ),
      );
      for (const key of keys) {
        expect([key, Number(await command(master, ['CLUSTER', 'KEYSLOT', key]))]).toEqual([key, slot]);
      }
    } finally {
      await Promise.all([pool.close(), mirror.close()]);
    }
  });

  it('with replicas: 1, refuses to acknowledge a push its replica has not confirmed', async () => {
    const name = uniqueName('cluster-e2e');
    const slot = Number(await command(servers[0]!.port, ['CLUSTER', 'KEYSLOT', `{${name}}`]));
    const { master, replicas } = await shard(slot);
    const replica = servers.find((s) => s.port === replicas[0])!;
    const pool = await RedisPool.open(`redis://127.0.0.1:${master}`, {
      name,
      capacity: 8,
      replicas: 1,
      replicaTimeoutMs: 200,
    });
    try {
      expect((await pool.push(trajectory(0), 'a')).duplicate).toBe(false);
      // A replica that cannot answer (stopped, shorter than the node timeout) confirms nothing.
      await command(replica.port, ['CLIENT', 'PAUSE', '600', 'ALL']);
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

  it('loses no acknowledged push and doubles none when the master is SIGKILLed and its replica promoted', async () => {
    const name = uniqueName('cluster-e2e');
    const slot = Number(await command(servers[0]!.port, ['CLUSTER', 'KEYSLOT', `{${name}}`]));
    const { master } = await shard(slot);
    const options = { name, capacity: 100_000, replicas: 1, replicaTimeoutMs: 500, reconnectTimeoutMs: 300 };
    let pool = await RedisPool.open(`redis://127.0.0.1:${master}`, options);
    const acknowledged: number[] = [];
    let failedOver = false;
    let stop = false;
    // The actor: pushes ids in order; on an error it finds the slot's master again and retries the same id.
    const actor = (async () => {
      for (let n = 0; !stop; ) {
        try {
          await pool.push(trajectory(n), `id-${n}`);
          acknowledged.push(n);
          n++;
        } catch (error) {
          if (!(error instanceof RedisPoolError)) throw error;
          await pool.close().catch(() => undefined);
          await until(async () => (await shard(slot)).master !== master, 15_000, 'no replica was promoted');
          pool = await RedisPool.open(`redis://127.0.0.1:${(await shard(slot)).master}`, options);
          failedOver = true;
        }
      }
    })();
    let before = 0;
    try {
      await until(async () => acknowledged.length >= 200, 10_000, 'fewer than 200 pushes');
      const victim = servers.find((s) => s.port === master)!;
      await victim.kill();
      killed.add(victim);
      before = acknowledged.length;
      await until(async () => (await shard(slot)).master !== master, 15_000, 'no replica was promoted');
      // The promoted master has no replica left, so nothing can be acknowledged (NOT_REPLICATED) until the
      // old master comes back, which rejoins as its replica (its nodes.conf remembers the cluster).
      await victim.start();
      killed.delete(victim);
      await until(
        async () => failedOver && acknowledged.length >= before + 200,
        20_000,
        'pushes did not carry on after the failover',
      );
    } finally {
      // Also when a wait above fails: the actor stops and its error, if any, is reported.
      stop = true;
      await actor;
      await pool.close();
    }

    const promoted = (await shard(slot)).master;
    expect(promoted).not.toBe(master);
    const mirror = await PoolMirror.open(`redis://127.0.0.1:${promoted}`, { name });
    try {
      while ((await mirror.sync()).added > 0);
      const returns = Array.from(mirror.pool.returns());
      const counts = new Map<number, number>();
      for (const r of returns) counts.set(r, (counts.get(r) ?? 0) + 1);
      expect(acknowledged.filter((n) => counts.get(n) !== 1)).toEqual([]);
      expect([...counts.values()].filter((c) => c > 1)).toEqual([]);
      expect(acknowledged.length).toBeGreaterThanOrEqual(before + 200);
    } finally {
      await mirror.close();
    }
  });

  it('without replicas, can lose an acknowledged push at failover (what the option prevents)', async () => {
    const name = uniqueName('cluster-e2e');
    const slot = Number(await command(servers[0]!.port, ['CLUSTER', 'KEYSLOT', `{${name}}`]));
    const { master, replicas } = await shard(slot);
    const replica = replicas[0]!;
    await until(
      async () => /slave0:.*state=online/.test(String(await command(master, ['INFO', 'replication']))),
      20_000,
      'the replica was not online',
    );
    const pool = await RedisPool.open(`redis://127.0.0.1:${master}`, { name, capacity: 8 });
    const replicaPid = Number(
      /process_id:(\d+)/.exec(String(await command(replica, ['INFO', 'server'])))![1],
    );
    try {
      await pool.push(trajectory(0), 'before');
      expect(Number(await command(master, ['WAIT', '1', '1000']))).toBe(1);
      // The replica is stopped and its link cut, so the next write never leaves the master; stopped, it
      // cannot reconnect before the master dies.
      process.kill(replicaPid, 'SIGSTOP');
      await command(master, ['CLIENT', 'KILL', 'TYPE', 'replica']);
      expect((await pool.push(trajectory(1), 'acknowledged')).duplicate).toBe(false);
      // The same situation with replicas: 1 does not acknowledge.
      const waiting = await RedisPool.open(`redis://127.0.0.1:${master}`, {
        name,
        replicas: 1,
        replicaTimeoutMs: 100,
      });
      await expect(waiting.push(trajectory(2), 'refused')).rejects.toMatchObject({ code: 'NOT_REPLICATED' });
      await waiting.close();
      const victim = servers.find((s) => s.port === master)!;
      await victim.kill();
      killed.add(victim);
      process.kill(replicaPid, 'SIGCONT');
      await command(replica, ['CLUSTER', 'FAILOVER', 'TAKEOVER']);
      await until(
        async () => (await shard(slot)).master === replica,
        15_000,
        'the replica did not take over',
      );
    } finally {
      process.kill(replicaPid, 'SIGCONT');
      await pool.close().catch(() => undefined);
    }
    const mirror = await PoolMirror.open(`redis://127.0.0.1:${replica}`, { name });
    try {
      await mirror.sync();
      // Both later writes are gone: 'acknowledged' was reported as pushed, 'refused' was not.
      expect(Array.from(mirror.pool.returns())).toEqual([0]);
    } finally {
      await mirror.close();
    }
  });
});
