import { randomUUID } from 'node:crypto';
import { describeValue } from '@ftw/internal';
import { encodeTrajectory, type TrajectoryInput } from '@ftw/replay-pool';
import {
  type LuaScript,
  OPEN_SCRIPT,
  PUBLISH_DELTA_SCRIPT,
  PUBLISH_SCRIPT,
  PUSH_SCRIPT,
  READ_POLICY_SCRIPT,
  UPDATE_SCRIPT,
} from './lua-scripts.js';
import { type PoolKeys, poolKeys } from './pool-keys.js';
import { checkRateLimit, type RateLimit } from './rate-limit.js';
import {
  type ConnectionOptions,
  type RedisArgument,
  RedisConnection,
  scriptError,
} from './redis-connection.js';
import { RedisPoolError } from './redis-pool-error.js';
import { parseRedisUrl } from './redis-url.js';

/** Options of {@link RedisPool.open}. */
export interface RedisPoolOptions extends ConnectionOptions {
  /** Pool name; its keys are `{name}:…`. 1 to 200 characters, no braces or whitespace. */
  readonly name: string;
  /**
   * Capacity N: readers see the newest N trajectories. Required to create the pool; when omitted, the
   * pool must exist and its configuration is adopted (what actors and mirrors usually do).
   */
  readonly capacity?: number | undefined;
  /**
   * Entries kept beyond N so that an update's id range can still be re-read for replay after newer
   * pushes (the stream holds at least N + retain entries; readers still see exactly the newest N).
   * @defaultValue 0
   */
  readonly retain?: number | undefined;
  /** Optional sample-to-insert rate limit (see {@link RateLimit}). */
  readonly rateLimit?: RateLimit | undefined;
  /**
   * Trajectory ids remembered beyond N + retain: the pool remembers the ids of the newest
   * D = N + retain + idWindow inserts, so that pushing one of them again (a retry after a lost connection)
   * adds nothing, and forgets older ones. Memory grows with D, not with the number of pushes. Part of the
   * pool's configuration, like `capacity` and `retain`.
   * @defaultValue capacity
   */
  readonly idWindow?: number | undefined;
  /**
   * Trajectories per Lua call in {@link RedisPool.pushMany}; the calls themselves are pipelined.
   * @defaultValue 100
   */
  readonly batchSize?: number;
  /**
   * Replicas that must hold a push before {@link RedisPool.pushMany} acknowledges it: after the push
   * scripts it writes a fence and sends `WAIT replicas replicaTimeoutMs` on the same connection, and fails
   * with `NOT_REPLICATED` when fewer confirm. When a connection came up in between (a reconnection, a
   * failover to a new master), it pushes again first, so that pushes, fence and WAIT share one connection.
   * Redis replicates asynchronously, so with 0 a write acknowledged just before its master dies can be
   * missing on the replica promoted in its place.
   * @defaultValue 0
   */
  readonly replicas?: number;
  /**
   * How long `WAIT` waits for {@link RedisPoolOptions.replicas} confirmations.
   * @defaultValue 1000
   */
  readonly replicaTimeoutMs?: number;
}

/** What {@link RedisPool.pushMany} did with one trajectory. */
export interface PushResult {
  /** The trajectory id (given or generated). */
  readonly id: string;
  /** The stream entry id holding it. */
  readonly entryId: string;
  /** True when the id had been pushed before: nothing was added, `entryId` is the first entry. */
  readonly duplicate: boolean;
}

/** A published policy snapshot: its version and parameter bytes. */
export interface PublishedPolicy {
  /** Policy version, an integer in [0, 2^32 − 1]. */
  readonly version: number;
  /** The parameters as published (the caller chooses the encoding). */
  readonly parameters: Uint8Array;
}

/** A policy delta: what changed from the version before it to `version` (see {@link RedisPool.publishPolicyDelta}). */
export interface PolicyDelta {
  /** The version it makes, an integer in [0, 2^32 − 1]. */
  readonly version: number;
  /** The change as published (the caller chooses the encoding). */
  readonly bytes: Uint8Array;
}

/**
 * What a reader needs to reach the newest published version (see {@link RedisPool.readPolicyAfter}): a
 * snapshot or nothing, then deltas to apply in order.
 */
export interface PolicyChanges {
  /** The newest version: that of the last delta, or of the snapshot when there is none. */
  readonly version: number;
  /**
   * The snapshot to start from, or null when the deltas apply to the version the reader holds (and when
   * that version is the newest: then `deltas` is empty too).
   */
  readonly snapshot: PublishedPolicy | null;
  /** The deltas after the snapshot (or after the reader's version), oldest first. */
  readonly deltas: readonly PolicyDelta[];
}

/** The server-side counters of a pool. */
export interface PoolCounters {
  /** Trajectories ever inserted (duplicates excluded). */
  readonly inserts: number;
  /** Learner updates granted. */
  readonly updates: number;
}

/** Options of {@link RedisPool.pushMany}. */
export interface PushOptions {
  /** Trajectory ids, one per trajectory (default: random UUIDs). Same id ⇒ pushed at most once. */
  readonly ids?: readonly string[] | undefined;
  /**
   * How long to keep retrying inserts the rate limiter refuses before failing with `RATE_LIMITED`.
   * @defaultValue 60000
   */
  readonly timeoutMs?: number;
}

interface Config {
  readonly capacity: number;
  readonly retain: number;
  readonly idWindow: number;
  readonly rateLimit: RateLimit | undefined;
}

const MAX_VERSION = 0xffff_ffff;
const MAX_CAPACITY = 2 ** 26;

function positiveInteger(value: unknown, name: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer in [${min}, ${max}], got ${describeValue(value)}`);
  }
  return value;
}

function configText(config: Config): string {
  const limit = config.rateLimit;
  return JSON.stringify({
    capacity: config.capacity,
    retain: config.retain,
    idWindow: config.idWindow,
    rateLimit: limit === undefined ? null : [limit.updatesPerInsert, limit.minSize, limit.tolerance],
  });
}

function parseConfig(text: string): Config {
  const raw = JSON.parse(text) as {
    capacity: number;
    retain: number;
    idWindow: number;
    rateLimit: [number, number, number] | null;
  };
  return {
    capacity: raw.capacity,
    retain: raw.retain,
    idWindow: raw.idWindow,
    rateLimit:
      raw.rateLimit === null
        ? undefined
        : { updatesPerInsert: raw.rateLimit[0], minSize: raw.rateLimit[1], tolerance: raw.rateLimit[2] },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The FTW trajectory pool on a Redis stream, as actors and the learner use it: idempotent pushes of
 * whole trajectories, policy publication, the rate limiter and the counters. Each instance owns one
 * connection. Readers of the pool use a {@link PoolMirror}.
 *
 * Layout: stream `{name}:trajectories` (one entry per trajectory: fields `id`, `n` = insert number,
 * `t` = {@link encodeTrajectory} bytes; trimmed with `MAXLEN ~ N + retain`), hash `{name}:meta`
 * (config, counters, and `fence`, written before each `WAIT`), hash `{name}:policy` (version and
 * parameters), and the ids of the newest N + retain + idWindow inserts (hash `{name}:ids`, list
 * `{name}:id-order`), trimmed in the pushing script.
 *
 * @example
 * ```ts
 * const pool = await RedisPool.open('redis://127.0.0.1:6379', { name: 'bandit', capacity: 1000 });
 * const [result] = await pool.pushMany([{ actions: [2], logProbs: [-0.4], versions: 0, return: 1 }], { ids: ['a1'] });
 * console.log(result); // { id: 'a1', entryId: '1764510000000-0', duplicate: false }
 * console.log((await pool.pushMany([{ actions: [2], logProbs: [-0.4], versions: 0, return: 1 }], { ids: ['a1'] }))[0].duplicate); // true
 * await pool.close();
 * ```
 */
export class RedisPool {
  readonly #connection: RedisConnection;
  readonly #keys: PoolKeys;
  readonly #config: Config;
  readonly #batchSize: number;
  readonly #replicas: number;
  readonly #replicaTimeoutMs: number;
  readonly #reconnectTimeoutMs: number;
  #updates: number;

  private constructor(
    connection: RedisConnection,
    keys: PoolKeys,
    config: Config,
    options: RedisPoolOptions,
    updates: number,
  ) {
    this.#connection = connection;
    this.#keys = keys;
    this.#config = config;
    this.#batchSize = options.batchSize ?? 100;
    this.#replicas = options.replicas ?? 0;
    this.#replicaTimeoutMs = options.replicaTimeoutMs ?? 1000;
    this.#reconnectTimeoutMs = options.reconnectTimeoutMs ?? 10_000;
    this.#updates = updates;
  }

  /**
   * Connects to `url` and creates the pool (with `capacity`) or joins it. Joining with a different
   * capacity, retention, id window or rate limit is refused, so every process agrees on the rules.
   *
   * @param url - one server, `redis://[user:password@]host:port[/db]` (`rediss://` for TLS), or a Redis
   *   Cluster, `redis+cluster://[user:password@]host:port[,host:port…]` (`rediss+cluster://` for TLS; any
   *   live nodes, the client finds the rest)
   * @param options - name, capacity, retention, id window, rate limit, batch size, reconnect timeout
   * @returns the open pool
   * @throws TypeError/RangeError naming a bad URL or option; RedisPoolError `POOL_NOT_FOUND` (no capacity
   *   given and no such pool), `CONFIG_MISMATCH`, `CONNECTION_LOST`, `CLUSTER_NODE` (a `redis://` URL of a
   *   cluster node), `NOT_A_CLUSTER` (a `redis+cluster://` URL of a single server)
   */
  static async open(url: string, options: RedisPoolOptions): Promise<RedisPool> {
    parseRedisUrl(url);
    if (typeof options !== 'object' || options === null) {
      throw new TypeError(`options must be an object like { name, capacity }, got ${describeValue(options)}`);
    }
    const keys = poolKeys(options.name);
    const wanted =
      options.capacity === undefined
        ? undefined
        : {
            capacity: positiveInteger(options.capacity, 'capacity', 1, MAX_CAPACITY),
            retain: positiveInteger(options.retain ?? 0, 'retain', 0, MAX_CAPACITY),
            idWindow: positiveInteger(options.idWindow ?? options.capacity, 'idWindow', 0, MAX_CAPACITY),
            rateLimit: options.rateLimit === undefined ? undefined : checkRateLimit(options.rateLimit),
          };
    if (options.batchSize !== undefined) positiveInteger(options.batchSize, 'batchSize', 1, 10_000);
    if (options.replicas !== undefined) positiveInteger(options.replicas, 'replicas', 0, 1000);
    if (options.replicaTimeoutMs !== undefined) {
      positiveInteger(options.replicaTimeoutMs, 'replicaTimeoutMs', 1, 2 ** 31 - 1);
    }
    const timeout = positiveInteger(
      options.reconnectTimeoutMs ?? 10_000,
      'reconnectTimeoutMs',
      1,
      2 ** 31 - 1,
    );

    const connection = await RedisConnection.open(url, timeout);
    try {
      const reply = (await connection.run(
        OPEN_SCRIPT,
        [keys.meta],
        [wanted === undefined ? '' : configText(wanted)],
      )) as Buffer[];
      const config = parseConfig(reply[0]!.toString());
      return new RedisPool(connection, keys, config, options, Number(reply[2]!.toString()));
    } catch (error) {
      await connection.close();
      const existing = scriptError(error, 'FTW_CONFIG_MISMATCH');
      if (existing !== undefined) {
        throw new RedisPoolError(
          'CONFIG_MISMATCH',
          `pool ${options.name} exists with ${existing}, asked for ${configText(wanted!)}`,
        );
      }
      if (scriptError(error, 'FTW_POOL_NOT_FOUND') !== undefined) {
        throw new RedisPoolError(
          'POOL_NOT_FOUND',
          `no pool named ${options.name}; open it once with a capacity`,
        );
      }
      throw error;
    }
  }

  /** Capacity N. */
  get capacity(): number {
    return this.#config.capacity;
  }

  /** Entries kept beyond N for replay. */
  get retain(): number {
    return this.#config.retain;
  }

  /**
   * Ids remembered beyond N + retain: a push of an id among the newest D = N + retain + idWindow inserts
   * adds nothing; an id pushed again after D other inserts is added as a new entry.
   */
  get idWindow(): number {
    return this.#config.idWindow;
  }

  /** The rate limit, or `undefined` for none. */
  get rateLimit(): RateLimit | undefined {
    return this.#config.rateLimit;
  }

  /**
   * Pushes trajectories, each as one stream entry (all of it or nothing: a killed process leaves no
   * partial entry). The calls are pipelined, {@link RedisPoolOptions.batchSize} trajectories per Lua
   * call. Idempotent by trajectory id: an id among the newest N + retain + {@link RedisPool.idWindow} inserts is
   * not added again, so after a lost connection the whole call can be (and is) retried safely. With a rate limit, refused inserts are
   * retried until `timeoutMs`.
   *
   * @param trajectories - the trajectories (validated and encoded before anything is sent)
   * @param options - ids and rate-limit timeout
   * @returns one result per trajectory, in order
   * @throws TypeError/RangeError for an invalid trajectory or option (nothing is sent);
   *   RedisPoolError `RATE_LIMITED` (the ones accepted stay), `CONNECTION_LOST`, `NOT_REPLICATED` (with `replicas`: written, not confirmed)
   */
  async pushMany(trajectories: readonly TrajectoryInput[], options: PushOptions = {}): Promise<PushResult[]> {
    if (!Array.isArray(trajectories)) {
      throw new TypeError(`trajectories must be an array, got ${describeValue(trajectories)}`);
    }
    const ids = options.ids ?? trajectories.map(() => randomUUID());
    if (!Array.isArray(ids) || ids.length !== trajectories.length) {
      throw new RangeError(
        `options.ids must hold one id per trajectory (${trajectories.length}), got ${describeValue(ids)}`,
      );
    }
    ids.forEach((id, i) => {
      if (typeof id !== 'string' || id.length === 0 || id.length > 200) {
        throw new RangeError(
          `options.ids[${i}] must be a string of 1 to 200 characters, got ${describeValue(id)}`,
        );
      }
    });
    const timeoutMs = positiveInteger(options.timeoutMs ?? 60_000, 'options.timeoutMs', 0, 2 ** 31 - 1);
    const payloads = trajectories.map((t, i) => {
      try {
        const bytes = encodeTrajectory(t);
        return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      } catch (error) {
        if (error instanceof Error) error.message = `trajectories[${i}]: ${error.message}`;
        throw error;
      }
    });

    const deadline = Date.now() + timeoutMs;
    const redoUntil = Date.now() + this.#reconnectTimeoutMs;
    let inserted: boolean[] | undefined;
    for (;;) {
      const connections = this.#connection.connectionCount;
      const results = await this.#insert(ids, payloads, deadline, timeoutMs);
      // A trajectory this call inserted in an earlier round is reported as such, not as a duplicate.
      inserted = results.map((r, i) => !r.duplicate || inserted?.[i] === true);
      const merged = results.map((r, i) => (r.duplicate && inserted![i] ? { ...r, duplicate: false } : r));
      if (this.#replicas === 0) return merged;
      const confirmed = await this.#confirm();
      if (confirmed >= 0 && this.#connection.connectionCount === connections) {
        if (confirmed < this.#replicas) {
          throw new RedisPoolError(
            'NOT_REPLICATED',
            `${confirmed} of the ${this.#replicas} replicas asked for (replicas) confirmed ${trajectories.length} pushed trajectories within ${this.#replicaTimeoutMs} ms (replicaTimeoutMs); they are not acknowledged, push them again with the same ids`,
          );
        }
        return merged;
      }
      // A connection came up between the pushes and WAIT's reply (a reconnection, or a failover to the
      // slot's new master), or WAIT reached a replica (a cluster client's map of the slots was out of date):
      // WAIT counted another connection's writes, and the pushes may have died with an old master. Pushing
      // again (what the new master has is a duplicate; a replica redirects the push, which updates the
      // map) and waiting on one connection settles it.
      if (Date.now() >= redoUntil) {
        throw new RedisPoolError(
          'NOT_REPLICATED',
          `the connection kept changing for ${this.#reconnectTimeoutMs} ms (reconnectTimeoutMs), so no replica could confirm ${trajectories.length} pushed trajectories; push them again with the same ids`,
        );
      }
    }
  }

  /** Inserts every trajectory once (the server refuses duplicates), retrying what the rate limiter refuses. */
  async #insert(
    ids: readonly string[],
    payloads: readonly Buffer[],
    deadline: number,
    timeoutMs: number,
  ): Promise<PushResult[]> {
    const results: (PushResult | undefined)[] = new Array(ids.length);
    let pending = ids.map((_, i) => i);
    for (let wait = 1; ; wait = Math.min(2 * wait, 50)) {
      const batches: number[][] = [];
      for (let k = 0; k < pending.length; k += this.#batchSize)
        batches.push(pending.slice(k, k + this.#batchSize));
      const replies = await Promise.all(batches.map((batch) => this.#pushBatch(batch, ids, payloads)));
      const refused: number[] = [];
      batches.forEach((batch, b) => {
        const reply = replies[b]!;
        batch.forEach((index, k) => {
          if (2 * k >= reply.length) {
            refused.push(index);
            return;
          }
          results[index] = {
            id: ids[index]!,
            entryId: reply[2 * k + 1]!.toString(),
            duplicate: Number(reply[2 * k]) === 0,
          };
        });
      });
      if (refused.length === 0) return results as PushResult[];
      if (Date.now() >= deadline) {
        throw new RedisPoolError(
          'RATE_LIMITED',
          `${refused.length} of ${ids.length} trajectories were still refused by the rate limiter after ${timeoutMs} ms (the learner is not updating)`,
        );
      }
      pending = refused;
      await sleep(wait);
    }
  }

  /**
   * Pushes one trajectory ({@link RedisPool.pushMany} of one).
   *
   * @param trajectory - the trajectory
   * @param id - its id (default: a random UUID)
   * @returns what happened to it
   * @throws as {@link RedisPool.pushMany}
   */
  async push(trajectory: TrajectoryInput, id?: string): Promise<PushResult> {
    const [result] = await this.pushMany([trajectory], id === undefined ? {} : { ids: [id] });
    return result!;
  }

  #pushBatch(
    batch: readonly number[],
    ids: readonly string[],
    payloads: readonly Buffer[],
  ): Promise<Buffer[]> {
    const keys = [this.#keys.stream, this.#keys.meta, this.#keys.ids, this.#keys.idOrder];
    const args: RedisArgument[] = [
      String(this.#config.capacity + this.#config.retain),
      String(this.#config.capacity + this.#config.retain + this.#config.idWindow),
      ...this.#limitArgs(),
    ];
    for (const index of batch) args.push(ids[index]!, payloads[index]!);
    return this.#connection.run(PUSH_SCRIPT, keys, args) as Promise<Buffer[]>;
  }

  /**
   * Writes a fence (a counter in the meta hash), then sends WAIT on the same connection: WAIT confirms the
   * writes of its own connection up to its last one, and the fence comes after every push this call made
   * and after the first insert of each duplicate, whichever connection made it.
   *
   * @returns how many replicas confirmed, or -1 when WAIT reached a replica
   */
  async #confirm(): Promise<number> {
    const meta = this.#keys.meta;
    await this.#connection.call(meta, ['HINCRBY', meta, 'fence', '1']);
    const wait = ['WAIT', String(this.#replicas), String(this.#replicaTimeoutMs)];
    try {
      return Number(await this.#connection.callBeside(meta, wait, this.#replicaTimeoutMs));
    } catch (error) {
      if (error instanceof Error && /^ERR WAIT cannot be used with replica/.test(error.message)) return -1;
      throw error;
    }
  }

  #limitArgs(): string[] {
    const limit = this.#config.rateLimit;
    return limit === undefined
      ? ['0', '0', '0', '0']
      : ['1', String(limit.updatesPerInsert), String(limit.minSize), String(limit.tolerance)];
  }

  /**
   * Asks the rate limiter for one learner update. Without a rate limit it is always granted (and
   * counted). Idempotent: a retry after a lost reply does not count twice.
   *
   * @returns true when granted (the update may run), false when the learner must wait for inserts
   * @throws RedisPoolError `CONNECTION_LOST`
   */
  async tryUpdate(): Promise<boolean> {
    const reply = (await this.#connection.run(
      UPDATE_SCRIPT,
      [this.#keys.meta],
      [String(this.#updates + 1), ...this.#limitArgs()],
    )) as number[];
    const granted = Number(reply[0]) === 1;
    this.#updates = Number(reply[2]);
    return granted;
  }

  /**
   * Waits until the rate limiter grants one learner update.
   *
   * @param timeoutMs - how long to wait
   * @throws RedisPoolError `RATE_LIMITED` after `timeoutMs` without a grant (the actors are not inserting)
   */
  async acquireUpdate(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (let wait = 1; !(await this.tryUpdate()); wait = Math.min(2 * wait, 50)) {
      if (Date.now() >= deadline) {
        throw new RedisPoolError(
          'RATE_LIMITED',
          `no update granted within ${timeoutMs} ms (the actors are not inserting)`,
        );
      }
      await sleep(wait);
    }
  }

  /**
   * The server's insert and update counters.
   *
   * @returns the counters
   */
  async counters(): Promise<PoolCounters> {
    const meta = this.#keys.meta;
    const reply = (await this.#connection.call(meta, ['HMGET', meta, 'inserts', 'updates'])) as Buffer[];
    return { inserts: Number(reply[0]!.toString()), updates: Number(reply[1]!.toString()) };
  }

  /**
   * Publishes a policy snapshot atomically (version and parameters in one write). Versions must increase;
   * publishing the same version with the same parameters again does nothing (a safe retry). The deltas
   * published after the previous snapshot are dropped: they are part of this one.
   *
   * @param version - an integer in [0, 2^32 − 1], above the published one
   * @param parameters - the parameters as bytes (e.g. `new Uint8Array(float64Array.buffer)`)
   * @throws RangeError/TypeError for bad arguments; RedisPoolError `VERSION_NOT_NEWER`, `CONNECTION_LOST`
   */
  async publishPolicy(version: number, parameters: Uint8Array): Promise<void> {
    await this.#publish(PUBLISH_SCRIPT, version, parameters, 'parameters');
  }

  /**
   * Publishes a policy delta: what changed since the version published before (snapshot or delta), in the
   * caller's encoding, so that a version costs the parameters it moved rather than all of them. Readers
   * holding the version before apply it ({@link PolicyFollower} with a loader); a reader that holds none, or
   * one older than the last snapshot, gets that snapshot and every delta after it
   * ({@link RedisPool.readPolicyAfter}). The deltas stay on the server until the next
   * {@link RedisPool.publishPolicy}: publish a snapshot again once the deltas since the last one add up to
   * about its size, which bounds both the server's memory and a late reader's load at twice a snapshot.
   * Publishing the same version with the same bytes again does nothing (a safe retry).
   *
   * @param version - an integer in [0, 2^32 − 1], above the published one
   * @param delta - the change as bytes
   * @throws RangeError/TypeError for bad arguments; RedisPoolError `NO_POLICY` when no snapshot was
   *   published yet (a delta needs one to apply to), `VERSION_NOT_NEWER`, `CONNECTION_LOST`
   * @example
   * ```ts
   * await learner.publishPolicy(0, snapshotBytes);
   * await learner.publishPolicyDelta(1, rowsMovedBytes);
   * ```
   */
  async publishPolicyDelta(version: number, delta: Uint8Array): Promise<void> {
    await this.#publish(PUBLISH_DELTA_SCRIPT, version, delta, 'delta');
  }

  async #publish(script: LuaScript, version: number, bytes: Uint8Array, name: string): Promise<void> {
    positiveInteger(version, 'version', 0, MAX_VERSION);
    if (!(bytes instanceof Uint8Array)) {
      throw new TypeError(`${name} must be a Uint8Array, got ${describeValue(bytes)}`);
    }
    try {
      await this.#connection.run(
        script,
        [this.#keys.policy, this.#keys.policyDeltas],
        [
          String(version),
          Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
          this.#keys.policyChannel,
        ],
      );
    } catch (error) {
      const published = scriptError(error, 'FTW_VERSION_NOT_NEWER');
      if (published !== undefined) {
        throw new RedisPoolError(
          'VERSION_NOT_NEWER',
          `policy version ${version} is not above the published version ${published}`,
        );
      }
      if (scriptError(error, 'FTW_NO_POLICY') !== undefined) {
        throw new RedisPoolError(
          'NO_POLICY',
          `no policy snapshot has been published to this pool yet: publish one (publishPolicy) before delta version ${version}`,
        );
      }
      throw error;
    }
  }

  /**
   * The newest published policy snapshot, read in one command (version and parameters always match). When
   * deltas were published after it, this is the snapshot they apply to: read them with
   * {@link RedisPool.readPolicyAfter}.
   *
   * @returns the snapshot, or `undefined` when none was published
   */
  async readPolicy(): Promise<PublishedPolicy | undefined> {
    const policy = this.#keys.policy;
    const reply = (await this.#connection.call(policy, [
      'HMGET',
      policy,
      'base',
      'version',
      'parameters',
    ])) as (Buffer | null)[];
    if (reply[1] === null || reply[2] === null) return undefined;
    const bytes = reply[2]!;
    return {
      version: Number((reply[0] ?? reply[1])!.toString()),
      parameters: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    };
  }

  /**
   * What a reader that holds version `version` needs to reach the newest one, read in one script (snapshot
   * and deltas always match): nothing when it holds the newest; the deltas after its version when it holds
   * the last snapshot's version or a later delta's; otherwise (a version older than the last snapshot, or
   * one never published) the last snapshot and every delta after it. Its cost follows what
   * changed: a reader one version behind reads one delta, not the parameters.
   *
   * @param version - the version the reader holds, or null for none
   * @returns the changes, or `undefined` when no policy was published
   * @throws RangeError naming `version` when it is neither null nor an integer in [0, 2^32 − 1];
   *   RedisPoolError `CONNECTION_LOST`
   * @example
   * ```ts
   * const changes = await actor.readPolicyAfter(held.version);
   * let state = changes.snapshot === null ? held.state : decode(changes.snapshot.parameters);
   * for (const delta of changes.deltas) state = apply(state, delta.bytes);
   * ```
   */
  async readPolicyAfter(version: number | null): Promise<PolicyChanges | undefined> {
    if (version !== null) positiveInteger(version, 'version', 0, MAX_VERSION);
    const reply = (await this.#connection.run(
      READ_POLICY_SCRIPT,
      [this.#keys.policy, this.#keys.policyDeltas],
      [String(version ?? -1)],
    )) as [Buffer, Buffer?, Buffer?, [Buffer, Buffer[]][]?] | null;
    if (reply === null) return undefined;
    const newest = Number(reply[0].toString());
    const entries = reply[3] ?? [];
    const deltas = entries.map(([id, fields]) => {
      const bytes = fields[1]!;
      return {
        version: Number(id.toString().slice(0, -2)),
        bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      };
    });
    const base = reply[1];
    if (base === undefined || base.length === 0) return { version: newest, snapshot: null, deltas };
    const parameters = reply[2]!;
    return {
      version: newest,
      snapshot: {
        version: Number(base.toString()),
        parameters: new Uint8Array(parameters.buffer, parameters.byteOffset, parameters.byteLength),
      },
      deltas,
    };
  }

  /**
   * Watches the policy version: `onVersion` is called with each version published after the promise
   * resolves (snapshot or delta), announced by the publishing script on the pool's channel and received
   * on a connection of the watch's own. Delivery is at most once: a version published while that
   * connection is lost is not announced to it, so `onMissed` is called whenever announcements may have
   * been missed (an error, a reconnection, its return, its closing; read the version then).
   * {@link PolicyFollower} with `notify` builds on it.
   *
   * @param onVersion - called with each version announced
   * @param onMissed - called when announcements may have been missed
   * @returns the watch; `close()` ends it (closing the pool ends it too)
   * @throws RedisPoolError `CONNECTION_LOST` when it cannot connect
   * @example
   * ```ts
   * const watch = await actor.watchPolicyVersion((v) => (newest = v), () => (newest = undefined));
   * await watch.close();
   * ```
   */
  watchPolicyVersion(
    onVersion: (version: number) => void,
    onMissed: () => void = () => {},
  ): Promise<{ close(): Promise<void> }> {
    return this.#connection.subscribe(
      this.#keys.policyChannel,
      (message) => onVersion(Number(message)),
      onMissed,
    );
  }

  /**
   * The newest published policy version alone: a cheap check before loading parameters.
   *
   * @returns the version, or `undefined` when none was published
   */
  async readPolicyVersion(): Promise<number | undefined> {
    const policy = this.#keys.policy;
    const reply = (await this.#connection.call(policy, ['HGET', policy, 'version'])) as Buffer | null;
    return reply === null ? undefined : Number(reply.toString());
  }

  /**
   * Writes a note: a small text every process of the pool can read by its key, such as what an actor
   * process joining the pool must run, or that the learner is done. A later write of the key replaces it.
   *
   * @param key - 1 to 200 characters
   * @param value - the text, at most 1 MiB in UTF-8
   * @throws RangeError/TypeError for a bad key or value; RedisPoolError `CONNECTION_LOST`
   * @example
   * ```ts
   * await pool.writeNote('state', 'done');
   * ```
   */
  async writeNote(key: string, value: string): Promise<void> {
    noteKey(key);
    if (typeof value !== 'string') throw new TypeError(`value must be a string, got ${describeValue(value)}`);
    const bytes = Buffer.byteLength(value);
    if (bytes > MAX_NOTE_BYTES) {
      throw new RangeError(`value must be at most ${MAX_NOTE_BYTES} bytes in UTF-8, got ${bytes}`);
    }
    await this.#connection.call(this.#keys.notes, ['HSET', this.#keys.notes, key, value]);
  }

  /**
   * Reads a note (see {@link RedisPool.writeNote}).
   *
   * @param key - the note's key
   * @returns its text, or `undefined` when none was written
   * @throws RangeError/TypeError for a bad key; RedisPoolError `CONNECTION_LOST`
   */
  async readNote(key: string): Promise<string | undefined> {
    noteKey(key);
    const reply = (await this.#connection.call(this.#keys.notes, [
      'HGET',
      this.#keys.notes,
      key,
    ])) as Buffer | null;
    return reply === null ? undefined : reply.toString('utf8');
  }

  /** Closes the connection. */
  async close(): Promise<void> {
    await this.#connection.close();
  }
}

/** Largest note value, in bytes of UTF-8. */
const MAX_NOTE_BYTES = 1 << 20;

function noteKey(key: unknown): void {
  if (typeof key !== 'string') throw new TypeError(`key must be a string, got ${describeValue(key)}`);
  if (key.length === 0 || key.length > 200) {
    throw new RangeError(`key must be 1 to 200 characters, got ${describeValue(key)}`);
  }
}
