// Test helper: a real Redis Cluster of `masters` masters with `replicas` replicas each, on loopback ports,
// formed with CLUSTER ADDSLOTS, MEET and REPLICATE (no redis-cli needed), and stopped (processes killed,
// folders removed) after the tests, also when they fail or forming it fails.
import { createClient } from 'redis';
import { afterAll, beforeAll } from 'vitest';
import { type RedisServer, startRedisServer } from '../src/start-redis-server.js';

const SLOTS = 16_384;

/** Options of {@link startRedisCluster}. */
export interface RedisClusterOptions {
  /** @defaultValue 3 */
  readonly masters?: number;
  /** Replicas per master. @defaultValue 0 */
  readonly replicas?: number;
  /** `cluster-node-timeout`: how long a master is unreachable before its replica takes over. @defaultValue 15000 */
  readonly nodeTimeoutMs?: number;
}

/** A running test cluster. */
export interface RedisCluster {
  /** Every node, masters first. */
  readonly servers: readonly RedisServer[];
  /** `redis+cluster://127.0.0.1:<port>,…` with every node as a seed. */
  readonly url: string;
  /** One command on one node, on a connection of its own. */
  command(port: number, args: string[]): Promise<unknown>;
  /** The hash slot of pool `name`'s keys. */
  slotOf(name: string): Promise<number>;
  /** The port of the live master serving `slot` and of its replicas, from CLUSTER NODES on a live node. */
  shard(slot: number): Promise<{ master: number; replicas: number[] }>;
  /** The server on `port`. */
  server(port: number): RedisServer;
  /** Each live node's view, for a failure message: CLUSTER NODES of one, and each one's replication role and link. */
  report(): Promise<string>;
  /** SIGKILLs the node on `port` (it is left out of `shard`'s questions until `restart`). */
  kill(port: number): Promise<void>;
  /** Starts a killed node again (same port and folder: its nodes.conf rejoins it to the cluster). */
  restart(port: number): Promise<void>;
  /** Kills every node and removes the folders. */
  stop(): Promise<void>;
}

/** One command on one node, on a connection of its own. */
async function command(port: number, args: string[]): Promise<unknown> {
  const client = createClient({ url: `redis://127.0.0.1:${port}`, socket: { reconnectStrategy: false } });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await client.sendCommand(args);
  } finally {
    client.destroy();
  }
}

/**
 * Until `check` is true, polling every 50 ms; throws `what` after `ms`, followed by what `state` says then
 * (for a failure that shows up on a loaded machine only, the state is all there is to read).
 */
export async function until(
  check: () => Promise<boolean>,
  ms: number,
  what: string,
  state?: () => Promise<string>,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) {
      const now =
        state === undefined ? '' : await state().catch((error: unknown) => `(state: ${String(error)})`);
      throw new Error(`${what} within ${ms} ms${now === '' ? '' : `; ${now}`}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Starts a cluster and waits until every node sees it healthy and every replica is in sync.
 *
 * @param options - masters, replicas per master, node timeout
 * @returns the cluster
 */
export async function startRedisCluster(options: RedisClusterOptions = {}): Promise<RedisCluster> {
  const masters = options.masters ?? 3;
  const perMaster = options.replicas ?? 0;
  const args = [
    '--cluster-enabled',
    'yes',
    '--cluster-config-file',
    'nodes.conf',
    '--cluster-node-timeout',
    String(options.nodeTimeoutMs ?? 15_000),
  ];
  const servers: RedisServer[] = [];
  const killed = new Set<number>();
  const live = (): RedisServer => servers.find((s) => !killed.has(s.port))!;
  const server = (port: number): RedisServer => {
    const found = servers.find((s) => s.port === port);
    if (found === undefined) throw new Error(`no node on port ${port}`);
    return found;
  };
  const cluster: RedisCluster = {
    servers,
    url: '',
    command,
    slotOf: async (name) => Number(await command(live().port, ['CLUSTER', 'KEYSLOT', `{${name}}`])),
    shard: async (slot) => {
      const lines = String(await command(live().port, ['CLUSTER', 'NODES']))
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
      return {
        master: master.port,
        replicas: nodes.filter((n) => n.masterId === master.id).map((n) => n.port),
      };
    },
    server,
    report: async () => {
      const nodes = String(await command(live().port, ['CLUSTER', 'NODES']))
        .trim()
        .replace(/\n/g, ' | ');
      const roles = await Promise.all(
        servers
          .filter((s) => !killed.has(s.port))
          .map(async (s) => {
            const info = String(await command(s.port, ['INFO', 'replication']).catch((e: unknown) => e));
            const field = (name: string) => new RegExp(`${name}:([^\\r\\n]*)`).exec(info)?.[1] ?? '?';
            return `${s.port} ${field('role')} link=${field('master_link_status')} replicas=${field('connected_slaves')}`;
          }),
      );
      return `nodes: ${nodes}; replication: ${roles.join(', ')}`;
    },
    kill: async (port) => {
      await server(port).kill();
      killed.add(port);
    },
    restart: async (port) => {
      await server(port).start();
      killed.delete(port);
    },
    stop: async () => {
      await Promise.all(servers.map((s) => s.stop()));
    },
  };
  try {
    for (let i = 0; i < masters * (1 + perMaster); i++) servers.push(await startRedisServer({ args }));
    for (let i = 0; i < masters; i++) {
      const [from, to] = [Math.floor((i * SLOTS) / masters), Math.floor(((i + 1) * SLOTS) / masters)];
      // ADDSLOTS, not ADDSLOTSRANGE (Redis 7), so that the helper runs on every server the package supports.
      const slots = Array.from({ length: to - from }, (_, k) => String(from + k));
      await command(servers[i]!.port, ['CLUSTER', 'ADDSLOTS', ...slots]);
    }
    for (const s of servers.slice(1)) {
      await command(servers[0]!.port, ['CLUSTER', 'MEET', '127.0.0.1', String(s.port)]);
    }
    const total = servers.length;
    for (const s of servers) {
      await until(
        async () =>
          String(await command(s.port, ['CLUSTER', 'INFO'])).includes(`cluster_known_nodes:${total}`),
        20_000,
        `node ${s.port} did not meet the other ${total - 1}`,
      );
    }
    for (let r = 0; r < masters * perMaster; r++) {
      const master = servers[r % masters]!;
      const id = String(await command(master.port, ['CLUSTER', 'MYID']));
      await command(servers[masters + r]!.port, ['CLUSTER', 'REPLICATE', id]);
    }
    for (const s of servers) {
      await until(
        async () => {
          if (!String(await command(s.port, ['CLUSTER', 'INFO'])).includes('cluster_state:ok')) return false;
          // A healthy cluster is not yet a replicated one: each master must see its replicas online.
          const info = String(await command(s.port, ['INFO', 'replication']));
          if (info.includes('role:slave')) return info.includes('master_link_status:up');
          return (info.match(/slave\d+:.*state=online/g) ?? []).length === perMaster;
        },
        20_000,
        `node ${s.port} did not see a healthy, replicated cluster`,
      );
    }
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return { ...cluster, url: `redis+cluster://${servers.map((s) => `127.0.0.1:${s.port}`).join(',')}` };
}

/**
 * Starts a cluster for the current test file (before its tests) and stops it after them.
 *
 * @param options - as {@link startRedisCluster}
 * @returns a getter for the running cluster (valid inside tests)
 */
export function useRedisCluster(options: RedisClusterOptions = {}): () => RedisCluster {
  let cluster: RedisCluster | undefined;
  beforeAll(async () => {
    cluster = await startRedisCluster(options);
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
  });
  return () => {
    if (cluster === undefined) throw new Error('the test Redis Cluster is not running');
    return cluster;
  };
}
