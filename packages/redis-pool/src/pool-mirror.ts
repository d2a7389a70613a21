import { describeValue } from '@ftw/internal';
import { type DecodedTrajectory, decodeTrajectory, ReplayPool, type TrajectoryInput } from '@ftw/replay-pool';
import { OPEN_SCRIPT } from './lua-scripts.js';
import { type PoolKeys, poolKeys } from './pool-keys.js';
import { type ConnectionOptions, RedisConnection, scriptError } from './redis-connection.js';
import { RedisPoolError } from './redis-pool-error.js';
import { parseRedisUrl } from './redis-url.js';

/** Options of {@link PoolMirror.open}. */
export interface PoolMirrorOptions extends ConnectionOptions {
  /** The pool's name (it must exist: opened once with a capacity). */
  readonly name: string;
  /** `maxVersionLag` of the local {@link ReplayPool} (see its `selectable`). */
  readonly maxVersionLag?: number | undefined;
  /**
   * Entries per XREVRANGE while catching up.
   * @defaultValue 1000
   */
  readonly readChunk?: number;
  /**
   * What the local pool holds of each entry: the decoded trajectory, or what this returns for it (e.g.
   * observations numbered the learner's way), or nothing for `null` (the entry is skipped and counted in
   * {@link PoolMirror.malformedCount}, as is a returned trajectory the pool refuses). It must give the same
   * answer for the same trajectory every time, so that {@link PoolMirror.readRange} rebuilds the same pool.
   * An error it throws ends the sync before anything is added.
   * @defaultValue the decoded trajectory itself
   */
  readonly prepare?: ((trajectory: DecodedTrajectory) => TrajectoryInput | null) | undefined;
}

/** What one {@link PoolMirror.sync} did. */
export interface SyncResult {
  /** Entries read and pushed to the local pool. */
  readonly added: number;
  /** Entries read but skipped as malformed (counted in {@link PoolMirror.malformedCount}). */
  readonly skipped: number;
  /**
   * How far behind the mirror was: trajectories inserted on the server (counter read with the first
   * chunk) after the newest one the mirror held before this sync. When it exceeds N, the older ones were
   * never read (they are not among the newest N); either way the mirror is then current.
   */
  readonly lag: number;
}

/**
 * The stream entries behind a local pool: the id of its oldest and newest entries and how many it held.
 * An update logs the range it selected from; {@link PoolMirror.readRange} rebuilds the same pool from
 * it, so the update's minibatches replay exactly (with the sampler's seed).
 */
export interface EntryRange {
  /** Stream id of the oldest trajectory held. */
  readonly first: string;
  /** Stream id of the newest trajectory held. */
  readonly last: string;
  /** Trajectories held (malformed entries in between are not counted). */
  readonly size: number;
}

type RawEntry = [Buffer, Buffer[]];

/** An entry as the local pool takes it, or why it is skipped. */
interface Decoded {
  readonly trajectory?: TrajectoryInput;
  readonly n?: number;
  readonly reason?: string;
}

function field(fields: Buffer[], name: string): Buffer | undefined {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i]!.toString() === name) return fields[i + 1];
  return undefined;
}

/**
 * Decodes one stream entry. Anything that is not a well-formed trajectory entry gives `undefined`
 * together with the reason.
 */
function decodeEntry(entry: RawEntry): { trajectory?: DecodedTrajectory; n?: number; reason?: string } {
  const bytes = field(entry[1], 't');
  const n = Number(field(entry[1], 'n')?.toString());
  if (bytes === undefined || field(entry[1], 'id') === undefined || !Number.isSafeInteger(n)) {
    return { reason: 'missing field id, n or t' };
  }
  try {
    return { trajectory: decodeTrajectory(bytes), n };
  } catch (error) {
    return { reason: (error as Error).message };
  }
}

/**
 * The learner's view of a {@link RedisPool}: a local {@link ReplayPool} holding the newest N
 * trajectories of the stream, brought up to date incrementally. Each {@link PoolMirror.sync} reads only
 * the entries after the last one seen, newest first, at most N of them (cost follows the new work, not
 * the pool size), so selection and staleness run on local memory at the speed of `@ftw/replay-pool`.
 * Malformed entries are skipped and counted. The mirror owns one connection.
 *
 * @example
 * ```ts
 * const mirror = await PoolMirror.open('redis://127.0.0.1:6379', { name: 'bandit' });
 * console.log(await mirror.sync()); // { added: 1000, skipped: 0, lag: 0 }
 * const range = mirror.range(); // log it with the update
 * const { returns, positions } = mirror.pool.selectable(version);
 * // … later, the same pool again for replay:
 * const again = await mirror.readRange(range);
 * console.log(again.returns().join() === mirror.pool.returns().join()); // true (if nothing was pushed since)
 * ```
 */
export class PoolMirror {
  readonly #connection: RedisConnection;
  readonly #keys: PoolKeys;
  readonly #capacity: number;
  readonly #chunk: number;
  readonly #maxVersionLag: number | undefined;
  readonly #prepare: ((trajectory: DecodedTrajectory) => TrajectoryInput | null) | undefined;
  readonly #pool: ReplayPool;
  /** Stream entry id of each trajectory held, by local sequence modulo capacity. */
  readonly #entryIds: string[];
  #lastId: string | undefined;
  #newestInsert = 0;
  #malformed = 0;
  #lastMalformed: string | undefined;

  private constructor(
    connection: RedisConnection,
    keys: PoolKeys,
    capacity: number,
    options: PoolMirrorOptions,
  ) {
    this.#connection = connection;
    this.#keys = keys;
    this.#capacity = capacity;
    this.#chunk = options.readChunk ?? 1000;
    this.#maxVersionLag = options.maxVersionLag;
    this.#prepare = options.prepare;
    this.#pool = new ReplayPool({ capacity, maxVersionLag: options.maxVersionLag });
    this.#entryIds = new Array<string>(capacity);
  }

  /**
   * Connects to the pool `name` at `url`. The mirror starts empty; call {@link PoolMirror.sync}.
   *
   * @param url - one server or a Redis Cluster, as {@link RedisPool.open} takes it
   * @param options - name, local version-lag bound, read chunk, reconnect timeout
   * @returns the mirror
   * @throws TypeError/RangeError for a bad URL or option; RedisPoolError `POOL_NOT_FOUND`,
   *   `CONNECTION_LOST`, `CLUSTER_NODE`, `NOT_A_CLUSTER`
   */
  static async open(url: string, options: PoolMirrorOptions): Promise<PoolMirror> {
    parseRedisUrl(url);
    if (typeof options !== 'object' || options === null) {
      throw new TypeError(`options must be an object like { name }, got ${describeValue(options)}`);
    }
    const keys = poolKeys(options.name);
    const chunk = options.readChunk ?? 1000;
    if (!Number.isSafeInteger(chunk) || chunk < 1 || chunk > 100_000) {
      throw new RangeError(`readChunk must be an integer in [1, 100000], got ${describeValue(chunk)}`);
    }
    if (options.prepare !== undefined && typeof options.prepare !== 'function') {
      throw new TypeError(`prepare must be a function, got ${describeValue(options.prepare)}`);
    }
    // The local pool validates maxVersionLag; check it before connecting.
    new ReplayPool({ capacity: 1, maxVersionLag: options.maxVersionLag });
    const connection = await RedisConnection.open(url, options.reconnectTimeoutMs ?? 10_000);
    try {
      const reply = (await connection.run(OPEN_SCRIPT, [keys.meta], [''])) as Buffer[];
      const { capacity } = JSON.parse(reply[0]!.toString()) as { capacity: number };
      return new PoolMirror(connection, keys, capacity, options);
    } catch (error) {
      await connection.close();
      if (scriptError(error, 'FTW_POOL_NOT_FOUND') !== undefined) {
        throw new RedisPoolError(
          'POOL_NOT_FOUND',
          `no pool named ${options.name}; open it once with a capacity`,
        );
      }
      throw error;
    }
  }

  /** The local pool of the newest N trajectories (read it; do not push to it). */
  get pool(): ReplayPool {
    return this.#pool;
  }

  /** Malformed entries skipped since the mirror was opened. */
  get malformedCount(): number {
    return this.#malformed;
  }

  /** Why the last malformed entry was skipped, or `undefined`. */
  get lastMalformedReason(): string | undefined {
    return this.#lastMalformed;
  }

  /** Stream id of the newest entry read (malformed ones included), or `undefined` before any. */
  get lastEntryId(): string | undefined {
    return this.#lastId;
  }

  /**
   * Stream entry id of the trajectory at a local pool position.
   *
   * @param position - 0 = oldest … `pool.size − 1`
   * @returns its stream id
   * @throws RangeError when `position` is not an integer in [0, pool.size)
   */
  entryIdAt(position: number): string {
    this.#pool.at(position);
    return this.#entryIds[(this.#pool.evictedCount + position) % this.#capacity]!;
  }

  /**
   * The id range of the local pool now: what an update that selects now selects from.
   *
   * @returns the range
   * @throws RangeError when the pool is empty
   */
  range(): EntryRange {
    const size = this.#pool.size;
    if (size === 0) throw new RangeError('range of an empty mirror: sync first');
    return { first: this.entryIdAt(0), last: this.entryIdAt(size - 1), size };
  }

  /**
   * Reads what was added since the last sync: the newest min(new, N) entries after the last id seen,
   * in chunks of `readChunk`, then pushes them oldest first to the local pool. With `blockMs`, first
   * waits up to that long for at least one new entry.
   *
   * @param options - `blockMs`: wait for a new entry (0 = do not wait)
   * @returns entries added, skipped, and how many entries behind the mirror was
   * @throws RedisPoolError `CONNECTION_LOST`
   */
  async sync(options: { readonly blockMs?: number } = {}): Promise<SyncResult> {
    const blockMs = options.blockMs ?? 0;
    if (!Number.isSafeInteger(blockMs) || blockMs < 0) {
      throw new RangeError(`options.blockMs must be an integer >= 0, got ${describeValue(blockMs)}`);
    }
    if (blockMs > 0) {
      const stream = this.#keys.stream;
      const block = [
        'XREAD',
        'COUNT',
        '1',
        'BLOCK',
        String(blockMs),
        'STREAMS',
        stream,
        this.#lastId ?? '0-0',
      ];
      await this.#connection.call(stream, block, blockMs);
    }
    const start = this.#lastId === undefined ? '-' : `(${this.#lastId}`;
    const collected: RawEntry[] = [];
    let upper = '+';
    let inserts = 0;
    while (collected.length < this.#capacity) {
      const count = Math.min(this.#chunk, this.#capacity - collected.length);
      const [reply, counter] = await Promise.all([
        this.#connection.call(this.#keys.stream, [
          'XREVRANGE',
          this.#keys.stream,
          upper,
          start,
          'COUNT',
          String(count),
        ]) as Promise<RawEntry[]>,
        collected.length === 0
          ? (this.#connection.call(this.#keys.meta, [
              'HGET',
              this.#keys.meta,
              'inserts',
            ]) as Promise<Buffer | null>)
          : null,
      ]);
      if (counter !== null) inserts = Number(counter?.toString() ?? '0');
      collected.push(...reply);
      if (reply.length < count) break;
      upper = `(${reply[reply.length - 1]![0].toString()}`;
    }
    const lag = Math.max(0, inserts - this.#newestInsert);
    // Everything is decoded and prepared, oldest first as pushed, before the first push, so that a
    // throwing `prepare` leaves the mirror as it was.
    const prepared: Decoded[] = [];
    for (let k = collected.length - 1; k >= 0; k--) prepared[k] = this.#decode(collected[k]!);
    let added = 0;
    let skipped = 0;
    for (let k = collected.length - 1; k >= 0; k--) {
      const entry = collected[k]!;
      const { trajectory, n } = prepared[k]!;
      let reason = prepared[k]!.reason;
      if (trajectory !== undefined) {
        try {
          const sequence = this.#pool.push(trajectory);
          this.#entryIds[sequence % this.#capacity] = entry[0].toString();
          this.#newestInsert = Math.max(this.#newestInsert, n!);
          added++;
          continue;
        } catch (error) {
          if (!(error instanceof RangeError || error instanceof TypeError)) throw error;
          reason = `prepared trajectory refused: ${error.message}`;
        }
      }
      skipped++;
      this.#malformed++;
      this.#lastMalformed = `entry ${entry[0].toString()}: ${reason}`;
    }
    if (collected.length > 0) this.#lastId = collected[0]![0].toString();
    return { added, skipped, lag };
  }

  /**
   * Rebuilds the pool an update selected from, from its logged {@link EntryRange}, for replay: the
   * same trajectories in the same positions (as long as the stream still holds them; keep `retain`
   * large enough).
   *
   * @param range - a range returned by {@link PoolMirror.range}
   * @returns a new pool equal to the mirror's pool at the time `range` was taken
   * @throws RedisPoolError `RANGE_TRIMMED` when the range's entries are no longer all in the stream
   */
  async readRange(range: EntryRange): Promise<ReplayPool> {
    const pool = new ReplayPool({ capacity: this.#capacity, maxVersionLag: this.#maxVersionLag });
    await this.#readRange(range, pool, () => {});
    return pool;
  }

  /**
   * Makes this mirror, still empty, what a mirror stood at when it gave `range`: the same trajectories in
   * the same positions, and the next {@link PoolMirror.sync} reads from the entry after `range.last`. A
   * learner restarted from a checkpoint resumes so: nothing it had consumed is read as new again, and
   * nothing pushed since is missed (as long as the stream still holds the range; keep `retain` large enough).
   *
   * @param range - a range returned by {@link PoolMirror.range}
   * @throws RangeError when the mirror has synced already; RedisPoolError `RANGE_TRIMMED` (the mirror stays
   *   empty), `CONNECTION_LOST`
   * @example
   * ```ts
   * const saved = learnerMirror.range(); // kept with the checkpoint
   * const mirror = await PoolMirror.open(url, { name }); // after the restart
   * await mirror.restore(saved);
   * await mirror.sync(); // only what was pushed after saved.last
   * ```
   */
  async restore(range: EntryRange): Promise<void> {
    if (this.#lastId !== undefined || this.#pool.pushedCount > 0) {
      throw new RangeError(`restore needs an empty mirror, this one has read up to ${this.#lastId}`);
    }
    const pool = new ReplayPool({ capacity: this.#capacity, maxVersionLag: this.#maxVersionLag });
    const kept: { id: string; trajectory: TrajectoryInput }[] = [];
    let newest = 0;
    await this.#readRange(range, pool, (id, n, trajectory) => {
      kept.push({ id, trajectory });
      newest = Math.max(newest, n);
    });
    // All read and checked (by the same pool rules): only now does the mirror change.
    for (const { id, trajectory } of kept) {
      const sequence = this.#pool.push(trajectory);
      this.#entryIds[sequence % this.#capacity] = id;
    }
    this.#newestInsert = newest;
    this.#lastId = range.last;
  }

  /** Pushes the trajectories of `range` to `pool`, calling `kept` for each one it took. */
  async #readRange(
    range: EntryRange,
    pool: ReplayPool,
    kept: (id: string, n: number, trajectory: TrajectoryInput) => void,
  ): Promise<void> {
    let start = range.first;
    for (let first = true; ; first = false) {
      const reply = (await this.#connection.call(this.#keys.stream, [
        'XRANGE',
        this.#keys.stream,
        start,
        range.last,
        'COUNT',
        String(this.#chunk),
      ])) as RawEntry[];
      if (first && reply[0]?.[0].toString() !== range.first) break;
      for (const entry of reply) {
        const { trajectory, n } = this.#decode(entry);
        if (trajectory === undefined) continue;
        try {
          pool.push(trajectory);
          kept(entry[0].toString(), n!, trajectory);
        } catch (error) {
          if (!(error instanceof RangeError || error instanceof TypeError)) throw error;
        }
      }
      if (reply.length < this.#chunk) break;
      start = `(${reply[reply.length - 1]![0].toString()}`;
    }
    if (pool.pushedCount !== range.size) {
      throw new RedisPoolError(
        'RANGE_TRIMMED',
        `the stream holds ${pool.pushedCount} of the ${range.size} trajectories from ${range.first} to ${range.last}; raise retain to replay older updates`,
      );
    }
  }

  /** An entry decoded and prepared, or why it is skipped. */
  #decode(entry: RawEntry): Decoded {
    const decoded = decodeEntry(entry);
    if (decoded.trajectory === undefined || this.#prepare === undefined) return decoded;
    const trajectory = this.#prepare(decoded.trajectory);
    return trajectory === null ? { reason: 'refused by prepare' } : { trajectory, n: decoded.n! };
  }

  /** Closes the connection. */
  async close(): Promise<void> {
    await this.#connection.close();
  }
}
