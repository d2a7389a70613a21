import { createClient, createCluster, type RESP_TYPES } from 'redis';
import type { RedisTarget } from './redis-url.js';

/** A Redis argument: text or bytes. Internal. */
export type RedisArgument = string | Buffer;

/** What a command is sent with: the reply types, and how long it may take. Internal. */
export interface SendOptions {
  readonly typeMapping: { readonly [RESP_TYPES.BLOB_STRING]: BufferConstructor };
  readonly timeout: number;
}

/** Events a {@link Link} reports. Internal. */
export type LinkEvent =
  /** An error of the client or of one of its node connections. */
  | 'error'
  /** A connection to a node came up (the first, or again after a loss, or to a new master). */
  | 'connection'
  /** Anything after which a subscription may have missed messages. */
  | 'unsettled';

/**
 * One node-redis client behind a common face: a single-node client (`createClient`) or a cluster client
 * (`createCluster`, which follows `MOVED`/`ASK` and learns a new master after a failover). Internal.
 */
export interface Link {
  /** Whether commands can be sent now. */
  readonly isReady: boolean;
  /** Whether it is open (connected or reconnecting). */
  readonly isOpen: boolean;
  connect(): Promise<void>;
  /** Sends a command to the master serving `key`. */
  send(key: string, args: readonly RedisArgument[], options: SendOptions): Promise<unknown>;
  /**
   * Sends a keyless command on the very connection that serves `key` (WAIT, which counts that
   * connection's writes; a cluster client would send it to every master).
   */
  sendBeside(key: string, args: readonly RedisArgument[], options: SendOptions): Promise<unknown>;
  on(event: LinkEvent, listener: (error?: unknown) => void): void;
  /** A new link to the same place for subscriptions, not connected yet. */
  subscriber(): Link;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  close(): Promise<void>;
  destroy(): void;
}

/** The part of a node-redis client this package uses. */
interface Client {
  readonly isReady: boolean;
  readonly isOpen: boolean;
  connect(): Promise<unknown>;
  sendCommand(args: readonly RedisArgument[], options?: SendOptions): Promise<unknown>;
  close(): Promise<void>;
  destroy(): void;
  on(event: string, listener: (error?: unknown) => void): unknown;
  duplicate(): Client;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
}

/** The part of a node-redis cluster client this package uses. */
interface Cluster {
  readonly isReady: boolean;
  readonly isOpen: boolean;
  connect(): Promise<unknown>;
  sendCommand(
    firstKey: string,
    isReadonly: boolean | undefined,
    args: readonly RedisArgument[],
    options?: SendOptions,
  ): Promise<unknown>;
  getNodeClientForKey(key: string): Promise<Client>;
  close(): Promise<void>;
  destroy(): void;
  on(event: string, listener: (error?: unknown) => void): unknown;
  duplicate(overrides: { minimizeConnections: boolean }): Cluster;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
}

/** Socket settings every connection uses. */
export interface SocketSettings {
  readonly reconnectStrategy: (retries: number) => number;
  readonly connectTimeout: number;
}

/**
 * How long after a node connection starts reconnecting the cluster client asks a live node for the slots
 * again (and again as long as it is down): how soon it finds the replica promoted in a dead master's place.
 */
const TOPOLOGY_REFRESH_MS = 200;

const CLIENT_EVENTS: Readonly<Record<LinkEvent, readonly string[]>> = {
  error: ['error'],
  connection: ['ready'],
  unsettled: ['error', 'ready', 'reconnecting', 'end'],
};

const CLUSTER_EVENTS: Readonly<Record<LinkEvent, readonly string[]>> = {
  error: ['error', 'node-error'],
  connection: ['node-ready'],
  unsettled: ['error', 'node-error', 'node-ready', 'node-reconnecting', 'node-disconnect', 'disconnect'],
};

function clientLink(client: Client): Link {
  return {
    get isReady() {
      return client.isReady;
    },
    get isOpen() {
      return client.isOpen;
    },
    connect: async () => {
      await client.connect();
    },
    send: (_key, args, options) => client.sendCommand(args, options),
    sendBeside: (_key, args, options) => client.sendCommand(args, options),
    on: (event, listener) => {
      for (const name of CLIENT_EVENTS[event]) client.on(name, listener);
    },
    subscriber: () => clientLink(client.duplicate()),
    subscribe: (channel, listener) => client.subscribe(channel, listener),
    close: () => client.close(),
    destroy: () => client.destroy(),
  };
}

function clusterLink(cluster: Cluster): Link {
  return {
    get isReady() {
      return cluster.isReady;
    },
    get isOpen() {
      return cluster.isOpen;
    },
    connect: async () => {
      await cluster.connect();
    },
    send: (key, args, options) => cluster.sendCommand(key, false, args, options),
    sendBeside: async (key, args, options) =>
      (await cluster.getNodeClientForKey(key)).sendCommand(args, options),
    on: (event, listener) => {
      for (const name of CLUSTER_EVENTS[event]) cluster.on(name, listener);
    },
    // Subscriptions use the cluster client's own Pub/Sub connection; no connection to every master.
    subscriber: () => clusterLink(cluster.duplicate({ minimizeConnections: true })),
    subscribe: (channel, listener) => cluster.subscribe(channel, listener),
    close: () => cluster.close(),
    destroy: () => cluster.destroy(),
  };
}

/**
 * A link to `target`, not connected yet. A node connection that is down fails commands at once (no
 * offline queue), so that a command meant for a dead master is retried by the caller once the cluster
 * client has found its successor, instead of waiting in the dead connection's queue. Internal.
 *
 * @param target - the parsed URL
 * @param socket - reconnection and connect timeout
 * @returns the link
 */
export function createLink(target: RedisTarget, socket: SocketSettings): Link {
  if (target.kind === 'single') return clientLink(createClient({ url: target.url, socket }) as Client);
  const cluster = createCluster({
    rootNodes: target.seeds.map(({ host, port }) => ({ socket: { host, port } })),
    defaults: {
      ...(target.username === undefined ? {} : { username: target.username }),
      ...(target.password === undefined ? {} : { password: target.password }),
      socket: { ...socket, ...(target.tls ? { tls: true as const } : {}) },
      disableOfflineQueue: true,
    },
    topologyRefreshOnReconnectionAttemptStrategy: TOPOLOGY_REFRESH_MS,
  });
  return clusterLink(cluster as unknown as Cluster);
}
