import { ErrorReply, RESP_TYPES } from 'redis';
import type { LuaScript } from './lua-scripts.js';
import { redactUrl } from './redact-url.js';
import { createLink, type Link, type RedisArgument } from './redis-link.js';
import { RedisPoolError } from './redis-pool-error.js';
import { parseRedisUrl } from './redis-url.js';

export type { RedisArgument } from './redis-link.js';

/** Every bulk string comes back as a Buffer, so trajectory bytes are never decoded as UTF-8. */
const BUFFERS = { [RESP_TYPES.BLOB_STRING]: Buffer } as const;

/**
 * How long a command may wait for its reply (node-redis's default) before it fails and is sent again; a
 * blocking command gets its blocking time on top.
 */
const COMMAND_TIMEOUT_MS = 5000;

const SOCKET = {
  reconnectStrategy: (retries: number) => Math.min(20 * 2 ** retries, 500),
  connectTimeout: 5000,
};

/** Connection settings shared by pools and mirrors. */
export interface ConnectionOptions {
  /**
   * How long a command waits for a lost connection to come back (on a Redis Cluster: for the slot's new
   * master after a failover) before failing with `CONNECTION_LOST`.
   * @defaultValue 10000
   */
  readonly reconnectTimeoutMs?: number;
}

/**
 * A subscription to one channel on a connection of its own (see {@link RedisConnection.subscribe}).
 * Internal.
 */
export interface Subscription {
  /** Unsubscribes and closes its connection. */
  close(): Promise<void>;
}

/**
 * Whether a failed command can be sent again: it never ran. Anything but an error reply is a connection
 * error; of the error replies, those of a cluster in the middle of a failover or a resharding, and of a
 * server still loading its data after a restart.
 */
const isTransient = (error: unknown): boolean =>
  !(error instanceof ErrorReply) || /^(CLUSTERDOWN|TRYAGAIN|LOADING) /.test(error.message);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A promise that rejects with `CONNECTION_LOST` after `ms` (its timer does not hold the process open), to
 * race against a connection attempt.
 */
function lostAfter(ms: number, message: () => string, cause: () => unknown): Promise<never> {
  return new Promise<never>((_, reject) => {
    setTimeout(
      () => reject(new RedisPoolError('CONNECTION_LOST', message(), { cause: cause() })),
      ms,
    ).unref();
  });
}

/**
 * One node-redis client, single-node or cluster, with binary replies, reconnection, and retry of
 * idempotent commands. Internal: pools and mirrors own one each.
 */
export class RedisConnection {
  readonly #link: Link;
  readonly #reconnectTimeoutMs: number;
  /** The URL with its password masked, for messages. */
  readonly #where: string;
  #lastError: unknown;
  #closed = false;
  #connections = 0;

  /** The subscriptions opened on this connection's behalf, closed with it. */
  readonly #subscriptions = new Set<Subscription>();

  private constructor(link: Link, reconnectTimeoutMs: number, where: string) {
    this.#link = link;
    this.#reconnectTimeoutMs = reconnectTimeoutMs;
    this.#where = where;
  }

  /**
   * Connects to `url`: one server (`redis://[user:password@]host:port[/db]`, `rediss://` for TLS) through
   * a single-node client, or a Redis Cluster (`redis+cluster://[user:password@]host:port[,host:port…]`,
   * `rediss+cluster://` for TLS) through node-redis's cluster client. Each form is refused where the other
   * kind of server answers.
   *
   * @param url - the server or cluster
   * @param reconnectTimeoutMs - see {@link ConnectionOptions}
   * @returns the open connection
   * @throws TypeError naming `url` when it is none of the forms; RedisPoolError `CONNECTION_LOST` when the
   *   first connection fails, `CLUSTER_NODE` for a single-server URL that reaches a cluster node,
   *   `NOT_A_CLUSTER` for a cluster URL that reaches a single server
   */
  static async open(url: string, reconnectTimeoutMs: number): Promise<RedisConnection> {
    const target = parseRedisUrl(url);
    const link = createLink(target, SOCKET);
    const where = redactUrl(url);
    const connection = new RedisConnection(link, reconnectTimeoutMs, where);
    let singleServer = false;
    // Without a listener, node-redis would throw connection errors as uncaught 'error' events; the
    // client reconnects by itself and commands report what they need to.
    link.on('error', (error) => {
      connection.#lastError = error;
      if (error instanceof ErrorReply && /cluster support disabled/i.test(error.message)) singleServer = true;
    });
    link.on('connection', () => {
      connection.#connections++;
    });
    const failed = lostAfter(
      reconnectTimeoutMs,
      () => `could not connect to ${where} within ${reconnectTimeoutMs} ms`,
      () => connection.#lastError,
    );
    // A single-node client retries by itself until it connects; a cluster client tries its seeds once.
    const connect = async (): Promise<void> => {
      for (;;) {
        try {
          await link.connect();
          return;
        } catch (error) {
          if (target.kind === 'single' || singleServer || connection.#closed) throw error;
          connection.#lastError = error;
          await sleep(100);
        }
      }
    };
    try {
      await Promise.race([connect(), failed]);
      if (target.kind === 'single') await connection.#refuseClusterNode();
    } catch (error) {
      connection.#closed = true;
      link.destroy();
      if (singleServer) {
        throw new RedisPoolError(
          'NOT_A_CLUSTER',
          `${where} names a Redis Cluster, but a single server answers there (cluster support disabled): use a redis:// URL for it`,
          { cause: connection.#lastError },
        );
      }
      if (error instanceof RedisPoolError) throw error;
      throw new RedisPoolError('CONNECTION_LOST', `could not connect to ${where}`, { cause: error });
    }
    return connection;
  }

  /**
   * A single-node client on a cluster node would serve the pool only while that node is the master of its
   * slot, and be refused (`MOVED`) or cut off after a failover: the cluster URL is the one that works. A
   * server that does not let this user run INFO is taken as it is.
   */
  async #refuseClusterNode(): Promise<void> {
    let info: unknown;
    try {
      info = await this.call('', ['INFO', 'cluster']);
    } catch (error) {
      if (error instanceof ErrorReply) return;
      throw error;
    }
    if (/cluster_enabled:1/.test(String(info))) {
      const cluster = this.#where.replace(/^(rediss?):\/\/([^/?#]*).*$/, '$1+cluster://$2');
      throw new RedisPoolError(
        'CLUSTER_NODE',
        `${this.#where} is a node of a Redis Cluster, which a single-node connection cannot follow (slots, failovers): use ${cluster}`,
      );
    }
  }

  /**
   * How many connections to a server have come up so far (reconnections and, on a cluster, connections
   * to a new master included). A value unchanged across several commands means they all ran on one
   * connection, which is what `WAIT` needs.
   */
  get connectionCount(): number {
    return this.#connections;
  }

  /**
   * Sends one command to the server that holds `key`. A connection error (not an error reply) is retried
   * once the connection is back (on a cluster, once the slot's master answers again), so use it only for
   * commands that are safe to repeat.
   *
   * @param key - the key the command touches (its slot chooses the cluster node)
   * @param args - the command and its arguments
   * @param blockMs - how long the command may block on the server (XREAD BLOCK, WAIT)
   * @returns the reply, bulk strings as Buffers
   * @throws ErrorReply for a server error; RedisPoolError `CONNECTION_LOST` when the connection does not
   *   come back within the timeout
   */
  call(key: string, args: readonly RedisArgument[], blockMs = 0): Promise<unknown> {
    const options = { typeMapping: BUFFERS, timeout: COMMAND_TIMEOUT_MS + blockMs };
    return this.#retry(() => this.#link.send(key, args, options));
  }

  /**
   * Sends a keyless command on the connection that serves `key`, retried as {@link RedisConnection.call}:
   * `WAIT`, which counts the writes of that connection only.
   *
   * @param key - the key whose server runs it
   * @param args - the command and its arguments
   * @param blockMs - how long it may block on the server
   * @returns the reply
   */
  callBeside(key: string, args: readonly RedisArgument[], blockMs = 0): Promise<unknown> {
    const options = { typeMapping: BUFFERS, timeout: COMMAND_TIMEOUT_MS + blockMs };
    return this.#retry(() => this.#link.sendBeside(key, args, options));
  }

  async #retry(send: () => Promise<unknown>): Promise<unknown> {
    const deadline = Date.now() + this.#reconnectTimeoutMs;
    for (;;) {
      await this.#ready(deadline);
      try {
        return await send();
      } catch (error) {
        if (!isTransient(error) || this.#closed) throw error;
        this.#lastError = error;
      }
      // A cluster client stays ready while one master is down and fails its commands at once; they are
      // sent again until its successor is known.
      if (Date.now() >= deadline) throw this.#lost();
      await sleep(10);
    }
  }

  /**
   * Runs a Lua script by its SHA-1, loading it with EVAL when the server does not know it (after a
   * restart, or on a replica promoted after a failover), with the same retry as
   * {@link RedisConnection.call}. Its keys share one hash slot.
   *
   * @param script - the script
   * @param keys - its KEYS (at least one)
   * @param args - its ARGV
   * @returns the script's reply
   */
  async run(script: LuaScript, keys: readonly string[], args: readonly RedisArgument[]): Promise<unknown> {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await this.call(keys[0]!, ['EVALSHA', script.sha, ...tail]);
    } catch (error) {
      if (!(error instanceof ErrorReply) || !error.message.startsWith('NOSCRIPT')) throw error;
      return this.call(keys[0]!, ['EVAL', script.source, ...tail]);
    }
  }

  #lost(): RedisPoolError {
    return new RedisPoolError(
      'CONNECTION_LOST',
      `no connection to Redis for ${this.#reconnectTimeoutMs} ms (reconnectTimeoutMs)`,
      { cause: this.#lastError },
    );
  }

  async #ready(deadline: number): Promise<void> {
    while (!this.#link.isReady) {
      if (this.#closed) throw new RedisPoolError('CONNECTION_LOST', 'the connection was closed');
      if (Date.now() >= deadline) throw this.#lost();
      await sleep(10);
    }
  }

  /**
   * Subscribes to a channel on a new connection to the same server or cluster (a subscribed connection runs
   * no other command). node-redis reconnects it and subscribes again by itself (on a cluster, on another
   * node when its node is gone); messages published while it is away are lost, so `onMissed` is called
   * whenever that may have happened: at an error, when it starts reconnecting, when it is back, and when it
   * is closed.
   *
   * @param channel - the channel
   * @param onMessage - called with each message, as text
   * @param onMissed - called when messages may have been missed
   * @returns the subscription, active once the promise resolves
   * @throws RedisPoolError `CONNECTION_LOST` when it cannot connect within the reconnect timeout
   */
  async subscribe(
    channel: string,
    onMessage: (message: string) => void,
    onMissed: () => void,
  ): Promise<Subscription> {
    if (this.#closed) throw new RedisPoolError('CONNECTION_LOST', 'the connection was closed');
    const link = this.#link.subscriber();
    let subscribed = false;
    link.on('unsettled', () => {
      if (subscribed) onMissed();
    });
    const failed = lostAfter(
      this.#reconnectTimeoutMs,
      () => `could not subscribe to ${this.#where} within ${this.#reconnectTimeoutMs} ms`,
      () => undefined,
    );
    try {
      await Promise.race([link.connect().then(() => link.subscribe(channel, onMessage)), failed]);
    } catch (error) {
      link.destroy();
      if (error instanceof RedisPoolError) throw error;
      throw new RedisPoolError('CONNECTION_LOST', `could not subscribe to ${this.#where}`, { cause: error });
    }
    subscribed = true;
    const subscription: Subscription = {
      close: async () => {
        if (!this.#subscriptions.delete(subscription)) return;
        if (link.isOpen) await link.close();
      },
    };
    this.#subscriptions.add(subscription);
    return subscription;
  }

  /** Closes the connection (pending commands finish first) and its subscriptions. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all([...this.#subscriptions].map((s) => s.close()));
    if (this.#link.isOpen) await this.#link.close();
  }
}

/**
 * When `error` is an error reply raised by one of this package's scripts with `tag`, the text after the
 * tag; otherwise `undefined`. (Redis may prefix a script's error with `ERR `.) Internal.
 *
 * @param error - what a command threw
 * @param tag - e.g. `FTW_CONFIG_MISMATCH`
 * @returns the details after the tag, or `undefined`
 */
export function scriptError(error: unknown, tag: string): string | undefined {
  if (!(error instanceof ErrorReply)) return undefined;
  const at = error.message.indexOf(tag);
  return at < 0 ? undefined : error.message.slice(at + tag.length).trim();
}
