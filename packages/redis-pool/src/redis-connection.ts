import { createClient, ErrorReply, RESP_TYPES } from 'redis';
import type { LuaScript } from './lua-scripts.js';
import { redactUrl } from './redact-url.js';
import { RedisPoolError } from './redis-pool-error.js';

/** A Redis argument: text or bytes. Internal. */
export type RedisArgument = string | Buffer;

/** Every bulk string comes back as a Buffer, so trajectory bytes are never decoded as UTF-8. */
const BUFFERS = { [RESP_TYPES.BLOB_STRING]: Buffer } as const;

/** Connection settings shared by pools and mirrors. */
export interface ConnectionOptions {
  /**
   * How long a command waits for a lost connection to come back before failing with
   * `CONNECTION_LOST`.
   * @defaultValue 10000
   */
  readonly reconnectTimeoutMs?: number;
}

/** The part of a node-redis client this package uses. */
interface Client {
  readonly isReady: boolean;
  readonly isOpen: boolean;
  connect(): Promise<unknown>;
  sendCommand(args: readonly RedisArgument[], options: { typeMapping: typeof BUFFERS }): Promise<unknown>;
  close(): Promise<void>;
  destroy(): void;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  on(event: 'ready' | 'reconnecting' | 'end', listener: () => void): unknown;
  duplicate(): Client;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
}

/**
 * A subscription to one channel on a connection of its own (see {@link RedisConnection.subscribe}).
 * Internal.
 */
export interface Subscription {
  /** Unsubscribes and closes its connection. */
  close(): Promise<void>;
}

const isConnectionError = (error: unknown): boolean => !(error instanceof ErrorReply);

/**
 * A cluster redirection (`MOVED <slot> <host:port>`, or `ASK` while a slot migrates) turned into a
 * `WRONG_NODE` error that says where the pool is served; any other error as it is. This package talks to
 * one node, so it does not follow redirections: a pool lives in one hash slot (its keys share the tag
 * `{name}`), and the URL must name the master that serves it.
 */
function redirection(error: unknown, node: string): unknown {
  if (!(error instanceof ErrorReply)) return error;
  const match = /^(MOVED|ASK) (\d+) (\S+)/.exec(error.message);
  if (match === null) return error;
  const [, kind, slot, target] = match;
  return new RedisPoolError(
    'WRONG_NODE',
    `${node} is a Redis Cluster node that does not serve this pool's hash slot ${slot}` +
      `${kind === 'ASK' ? ' (it is migrating)' : ''}; ${target} does: open the pool with that node's URL`,
    { cause: error },
  );
}

/** The `host:port` of a Redis URL (no credentials), or a placeholder when it does not parse. */
function nodeOf(url: string): string {
  try {
    return new URL(url).host || 'the node';
  } catch {
    return 'the node';
  }
}

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
 * One node-redis connection with binary replies, reconnection, and retry of idempotent commands.
 * Internal: pools and mirrors own one each.
 */
export class RedisConnection {
  readonly #client: Client;
  readonly #reconnectTimeoutMs: number;
  /** The node's `host:port`, for messages. */
  readonly #node: string;
  #lastError: unknown;
  #closed = false;

  /** The subscriptions opened on this connection's behalf, closed with it. */
  readonly #subscriptions = new Set<Subscription>();

  private constructor(client: Client, reconnectTimeoutMs: number, node: string) {
    this.#client = client;
    this.#reconnectTimeoutMs = reconnectTimeoutMs;
    this.#node = node;
  }

  /**
   * Connects to `url` (`redis://[user:password@]host:port[/db]`, or `rediss://` for TLS).
   *
   * @param url - the server
   * @param reconnectTimeoutMs - see {@link ConnectionOptions}
   * @returns the open connection
   * @throws RedisPoolError `CONNECTION_LOST` when the first connection fails
   */
  static async open(url: string, reconnectTimeoutMs: number): Promise<RedisConnection> {
    const client: Client = createClient({
      url,
      socket: { reconnectStrategy: (retries) => Math.min(20 * 2 ** retries, 500), connectTimeout: 5000 },
    });
    const connection = new RedisConnection(client, reconnectTimeoutMs, nodeOf(url));
    // Without a listener, node-redis would throw connection errors as uncaught 'error' events; the
    // client reconnects by itself and commands report what they need to.
    client.on('error', (error: unknown) => {
      connection.#lastError = error;
    });
    const failed = lostAfter(
      reconnectTimeoutMs,
      () => `could not connect to ${redactUrl(url)} within ${reconnectTimeoutMs} ms`,
      () => connection.#lastError,
    );
    try {
      await Promise.race([client.connect(), failed]);
    } catch (error) {
      client.destroy();
      if (error instanceof RedisPoolError) throw error;
      throw new RedisPoolError('CONNECTION_LOST', `could not connect to ${redactUrl(url)}`, { cause: error });
    }
    return connection;
  }

  /**
   * Sends one command. A connection error (not an error reply) is retried once the client has
   * reconnected, so use it only for commands that are safe to repeat.
   *
   * @param args - the command and its arguments
   * @returns the reply, bulk strings as Buffers
   * @throws ErrorReply for a server error; RedisPoolError `CONNECTION_LOST` when the connection does not
   *   come back within the timeout, `WRONG_NODE` when a Redis Cluster node redirects the command
   */
  async call(args: readonly RedisArgument[]): Promise<unknown> {
    const deadline = Date.now() + this.#reconnectTimeoutMs;
    for (;;) {
      await this.#ready(deadline);
      try {
        return await this.#client.sendCommand(args, { typeMapping: BUFFERS });
      } catch (error) {
        if (!isConnectionError(error) || this.#closed) throw redirection(error, this.#node);
        this.#lastError = error;
      }
    }
  }

  /**
   * Runs a Lua script by its SHA-1, loading it with EVAL when the server does not know it (after a
   * restart), with the same retry as {@link RedisConnection.call}.
   *
   * @param script - the script
   * @param keys - its KEYS
   * @param args - its ARGV
   * @returns the script's reply
   */
  async run(script: LuaScript, keys: readonly string[], args: readonly RedisArgument[]): Promise<unknown> {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await this.call(['EVALSHA', script.sha, ...tail]);
    } catch (error) {
      if (!(error instanceof ErrorReply) || !error.message.startsWith('NOSCRIPT')) throw error;
      return this.call(['EVAL', script.source, ...tail]);
    }
  }

  async #ready(deadline: number): Promise<void> {
    while (!this.#client.isReady) {
      if (this.#closed) throw new RedisPoolError('CONNECTION_LOST', 'the connection was closed');
      if (Date.now() >= deadline) {
        throw new RedisPoolError(
          'CONNECTION_LOST',
          `no connection to Redis for ${this.#reconnectTimeoutMs} ms (reconnectTimeoutMs)`,
          { cause: this.#lastError },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /**
   * Subscribes to a channel on a new connection to the same server (a subscribed connection runs no other
   * command). node-redis reconnects it and subscribes again by itself; messages published while it is away
   * are lost, so `onMissed` is called whenever that may have happened: at an error, when it starts
   * reconnecting, when it is back, and when it is closed.
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
    const client = this.#client.duplicate();
    let subscribed = false;
    const missed = () => {
      if (subscribed) onMissed();
    };
    client.on('error', missed);
    for (const event of ['ready', 'reconnecting', 'end'] as const) client.on(event, missed);
    const failed = lostAfter(
      this.#reconnectTimeoutMs,
      () => `could not subscribe to ${this.#node} within ${this.#reconnectTimeoutMs} ms`,
      () => undefined,
    );
    try {
      await Promise.race([client.connect().then(() => client.subscribe(channel, onMessage)), failed]);
    } catch (error) {
      client.destroy();
      if (error instanceof RedisPoolError) throw error;
      throw new RedisPoolError('CONNECTION_LOST', `could not subscribe to ${this.#node}`, { cause: error });
    }
    subscribed = true;
    const subscription: Subscription = {
      close: async () => {
        if (!this.#subscriptions.delete(subscription)) return;
        if (client.isOpen) await client.close();
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
    if (this.#client.isOpen) await this.#client.close();
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
