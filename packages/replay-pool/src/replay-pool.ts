import { describeValue } from '@ftw/internal';
import { checkInteger } from './check-integer.js';
import { ColumnArena, SlabViews } from './column-arena.js';
import { blockTrajectory, MAX_VERSION, storeTrajectory } from './create-trajectory.js';
import { decodeSnapshot } from './decode-snapshot.js';
import { encodeSnapshot } from './encode-snapshot.js';
import { FifoExtremes } from './fifo-extremes.js';
import type { JsonValue } from './json-value.js';
import { PoolError } from './pool-error.js';
import { MAX_CAPACITY, type PoolState } from './pool-state.js';
import { readSnapshotFile } from './read-snapshot-file.js';
import type { ReplayPoolOptions } from './replay-pool-options.js';
import type { SelectableIndex } from './selectable-index.js';
import type { SelectableTrajectories } from './selectable-trajectories.js';
import { INLINE_FLAG, INLINE_WORD, SLOT_STRIDE, SlotBlocks, SPARE_BYTES } from './slot-blocks.js';
import { type AgeSummary, measureStaleness, type Staleness } from './staleness.js';
import type { Trajectory } from './trajectory.js';
import type { TrajectoryColumns } from './trajectory-columns.js';
import type { TrajectoryInput } from './trajectory-input.js';
import { writeFileAtomic } from './write-file-atomic.js';

/** `T` with its fields writable: how `staleness` refills the object it is given. */
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The FIFO pool of FTW: holds the last N trajectories pushed, in a ring of N slots plus a mirrored
 * array of their returns (each return is written at slot j and j + N, so the returns in position order
 * are always one contiguous range). `push` is O(T) in the trajectory's length and O(1) in the pool.
 *
 * What FTW asks of the pool at every update does not grow with N either: {@link ReplayPool.staleness} is
 * read from running sums and version counts kept on push and eviction, and
 * {@link ReplayPool.selectableIndex} gives random access to the trajectories within the version-lag
 * bound from a set kept up to date as trajectories enter, leave, or age out (each trajectory joins and
 * leaves it once as the version advances).
 *
 * Positions count from 0 = oldest to `size − 1` = newest. Sequence ids count pushes from 0 and are
 * never reused, so `position = sequence − evictedCount` for any trajectory held.
 *
 * @example
 * ```ts
 * const pool = new ReplayPool({ capacity: 2 });
 * pool.push({ actions: [0], logProbs: [-0.7], versions: 0, return: 1 }); // 0
 * pool.push({ actions: [1], logProbs: [-0.7], versions: 1, return: 3 }); // 1
 * pool.push({ actions: [1], logProbs: [-0.2], versions: 2, return: 2 }); // 2, evicts sequence 0
 * console.log(pool.size, pool.evictedCount, pool.returns()); // 2 1 Float64Array(2) [ 3, 2 ]
 * ```
 */
export class ReplayPool implements Iterable<Trajectory> {
  #capacity = 1;
  #maxVersionLag: number | undefined;
  // Per ring slot, what `at` builds a trajectory's record from: its block (inline in its slot entry, or in
  // the arena: buffer, byte offset), length, observation size, version range and metadata (an array made on
  // the first metadata).
  // A push stores numbers only, no object: at a large N every record would outlive V8's young generation,
  // and promoting it (a record and four typed-array views) cost more than the rest of an FTW update. Only
  // the trajectories read through `at` (for FTW, the ones selected) get a record, kept in `#records`.
  /** Views of the slab holding each slot's columns (undefined for a block inline in its entry). */
  #views: (SlabViews | undefined)[] = [];
  /**
   * The slot table: per slot, {@link SLOT_STRIDE} 32-bit words side by side (see `slot-blocks.ts`): byte
   * offset of its block, length, observation size, min and max version, the inline flag, and a block of at
   * most 24 bytes itself, so that reading a one-step trajectory drawn anywhere in a large pool costs one
   * place in memory for its numbers and its columns together.
   */
  #entries!: SlabViews;
  /** `#entries.uint32`. */
  #slotInfo!: Uint32Array;
  /** Where `push` stores a block: a spare entry (validated there, then placed in its slot), or the arena. */
  #blocks!: SlotBlocks;
  #metadata: (JsonValue | undefined)[] | undefined;
  // The record of each slot once `at` has built it (a trajectory never asked for has none).
  #records: (Trajectory | undefined)[] = [];
  #returns = new Float64Array(2);
  #head = 0;
  #size = 0;
  #pushed = 0;
  #evicted = 0;
  #modifications = 0;
  #arena!: ColumnArena;
  // Running staleness sums over the trajectories held (see `staleness`).
  #minVersions!: FifoExtremes;
  #maxVersions!: FifoExtremes;
  #minVersionSum = 0;
  #stepCount = 0;
  #stepVersionSum = 0;
  #multiVersion = 0;
  // The selectable set under `maxVersionLag` (see `selectableIndex`): ring slots `#dense[0 .. #denseSize)`,
  // `#denseOf[slot]` its index there or −1, valid for `#windowVersion` (−1: not built). Every held slot
  // is also on the doubly linked list of its minVersion (`#buckets` → first slot, `#next`/`#previous`),
  // so the trajectories that age out when the version advances are found without a scan.
  #windowVersion = -1;
  #dense = new Int32Array(0);
  #denseOf = new Int32Array(0);
  #denseSize = 0;
  #next = new Int32Array(0);
  #previous = new Int32Array(0);
  readonly #buckets = new Map<number, number>();
  readonly #index = new IndexView();
  readonly #columns = new ColumnsView();

  /**
   * @param options - capacity and optional version-lag bound
   * @throws TypeError when `options` is not an object; RangeError when `capacity` is not an integer in
   *   [1, 2^26] or `maxVersionLag` is not undefined or an integer in [0, 2^32 − 1]
   */
  constructor(options: ReplayPoolOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new TypeError(`options must be an object like { capacity: 1000 }, got ${describeValue(options)}`);
    }
    const capacity = checkInteger(options.capacity, 'capacity', 1, MAX_CAPACITY);
    const lag = options.maxVersionLag;
    const maxVersionLag = lag === undefined ? undefined : checkInteger(lag, 'maxVersionLag', 0, MAX_VERSION);
    this.#adopt({ capacity, maxVersionLag, pushedCount: 0, evictedCount: 0, trajectories: [] });
  }

  /**
   * Reads a snapshot written by {@link ReplayPool.save}.
   *
   * @param path - the snapshot file
   * @returns a pool equal to the one saved, bit for bit
   * @throws PoolError (`SNAPSHOT_MAGIC`, `SNAPSHOT_VERSION`, `SNAPSHOT_TRUNCATED`, `SNAPSHOT_CORRUPT`) with
   *   `path`, `offset` and `place`; the `fs` error when the file cannot be read
   * @example
   * ```ts
   * const pool = ReplayPool.load('/data/pool.snap');
   * console.log(pool.size, pool.pushedCount); // 3 4   (as saved)
   * ```
   */
  static load(path: string): ReplayPool {
    return ReplayPool.#fromState(readSnapshotFile(path));
  }

  /**
   * Decodes snapshot bytes produced by {@link ReplayPool.toBytes}.
   *
   * @param bytes - a whole snapshot
   * @returns the pool it holds
   * @throws PoolError as {@link ReplayPool.load}; TypeError when `bytes` is not a Uint8Array
   */
  static fromBytes(bytes: Uint8Array): ReplayPool {
    if (!(bytes instanceof Uint8Array))
      throw new TypeError(`bytes must be a Uint8Array, got ${describeValue(bytes)}`);
    return ReplayPool.#fromState(decodeSnapshot(bytes));
  }

  static #fromState(state: PoolState): ReplayPool {
    const pool = new ReplayPool({ capacity: 1 });
    pool.#adopt(state);
    return pool;
  }

  /** Capacity N. */
  get capacity(): number {
    return this.#capacity;
  }

  /** Number of trajectories held, at most `capacity`. */
  get size(): number {
    return this.#size;
  }

  /** The version-lag bound of {@link ReplayPool.selectable}, or `undefined` for none. */
  get maxVersionLag(): number | undefined {
    return this.#maxVersionLag;
  }

  /** Trajectories pushed since the pool was created (restored with a snapshot); the next sequence id. */
  get pushedCount(): number {
    return this.#pushed;
  }

  /** Trajectories evicted to make room; always `pushedCount − size`. */
  get evictedCount(): number {
    return this.#evicted;
  }

  /**
   * Validates and stores a trajectory, evicting the oldest one when the pool is full. A refused input
   * throws before anything changes.
   *
   * @param trajectory - the trajectory (see {@link TrajectoryInput} for the rules)
   * @returns its sequence id
   * @throws TypeError or RangeError naming the offending field, e.g.
   *   `RangeError: trajectory.logProbs[2] must be a finite log-probability <= 0, got 0.5`
   * @example
   * ```ts
   * const pool = new ReplayPool({ capacity: 1 });
   * pool.push({ actions: [1, 0], logProbs: [-0.3, -1.2], versions: [2, 3], return: 1 }); // 0
   * pool.push({ actions: [0], logProbs: [-0.1], versions: 3, return: 0 }); // 1
   * console.log(pool.evictedCount, pool.at(0).sequence); // 1 1
   * ```
   */
  push(trajectory: TrajectoryInput): number {
    const sequence = this.#pushed;
    const stored = storeTrajectory(trajectory, this.#blocks);
    const capacity = this.#capacity;
    let tail = this.#head + this.#size;
    if (tail >= capacity) tail -= capacity;
    if (this.#size === capacity) this.#leave(tail);
    this.#blocks.place(this.#entries, this.#views, tail, stored);
    this.#records[tail] = undefined;
    if (stored.metadata !== undefined || this.#metadata !== undefined) {
      (this.#metadata ??= new Array<JsonValue | undefined>(capacity).fill(undefined))[tail] = stored.metadata;
    }
    this.#returns[tail] = stored.return;
    this.#returns[tail + capacity] = stored.return;
    this.#enter(tail);
    if (this.#size === capacity) {
      this.#head = tail + 1 === capacity ? 0 : tail + 1;
      this.#evicted++;
    } else {
      this.#size++;
    }
    this.#pushed = sequence + 1;
    this.#modifications++;
    return sequence;
  }

  /**
   * The trajectory at a position: a frozen record whose typed arrays are views of the pool's own copy of
   * the columns. The pool builds it on the first call and keeps it while the trajectory is held (a push
   * stores columns and numbers only), so later calls return the same object.
   *
   * @param position - 0 = oldest, `size − 1` = newest
   * @returns the stored trajectory
   * @throws RangeError when `position` is not an integer in [0, size)
   * @example
   * ```ts
   * console.log(pool.at(0).sequence === pool.evictedCount); // true: position 0 is the oldest
   * ```
   */
  at(position: number): Trajectory {
    if (!Number.isInteger(position) || position < 0 || position >= this.#size) {
      throw new RangeError(
        `position must be an integer in [0, ${this.#size}), got ${describeValue(position)}`,
      );
    }
    return this.#at(position);
  }

  /**
   * The steps of the trajectory at a position, read in place: for a loop that needs a few fields of many
   * trajectories (a learner reading its selected ones) without the record {@link ReplayPool.at} builds.
   *
   * Cost: O(1), no allocation.
   *
   * @param position - 0 = oldest, `size − 1` = newest
   * @returns a view valid until the pool is next changed or `columnsAt` is called again
   * @throws RangeError when `position` is not an integer in [0, size)
   * @example
   * ```ts
   * pool.push({ actions: [1], logProbs: [-0.7], versions: 4, return: 2.5, observations: [3] });
   * const steps = pool.columnsAt(pool.size - 1);
   * console.log(steps.length, steps.action(0), steps.observation(0), steps.return); // 1 1 3 2.5
   * ```
   */
  columnsAt(position: number): TrajectoryColumns {
    if (!Number.isInteger(position) || position < 0 || position >= this.#size) {
      throw new RangeError(
        `position must be an integer in [0, ${this.#size}), got ${describeValue(position)}`,
      );
    }
    let slot = this.#head + position;
    if (slot >= this.#capacity) slot -= this.#capacity;
    const columns = this.#columns;
    columns.slot = slot;
    return columns;
  }

  #at(position: number): Trajectory {
    let slot = this.#head + position;
    if (slot >= this.#capacity) slot -= this.#capacity;
    return this.#records[slot] ?? this.#build(slot, position);
  }

  /** Builds the record of the trajectory in `slot` (kept apart so that `#at` stays small and inlined). */
  #build(slot: number, position: number): Trajectory {
    const info = this.#slotInfo;
    const at = slot * SLOT_STRIDE;
    const length = info[at + 1]!;
    const observationSize = info[at + 2]!;
    let buffer: ArrayBuffer;
    let offset: number;
    if (info[at + INLINE_FLAG] === 1) {
      // The record may outlive the slot's next push (a caller can keep an evicted trajectory), so its
      // columns are a copy in the arena, not views of the entry.
      const words = 2 * length * (2 + observationSize);
      const arena = this.#arena;
      ({ buffer, offset } = arena.reserve(4 * words));
      arena.views.uint32.set(info.subarray(at + INLINE_WORD, at + INLINE_WORD + words), offset >>> 2);
      arena.commit();
    } else {
      buffer = this.#views[slot]!.buffer;
      offset = info[at]!;
    }
    const record = blockTrajectory(
      this.#evicted + position,
      buffer,
      offset,
      length,
      observationSize,
      info[at + 3]!,
      info[at + 4]!,
      this.#returns[slot]!,
      this.#metadata?.[slot],
    );
    this.#records[slot] = record;
    return record;
  }

  /** Σ of the step versions of the trajectory in `slot`. */
  #versionSum(slot: number): number {
    const info = this.#slotInfo;
    const at = slot * SLOT_STRIDE;
    const length = info[at + 1]!;
    const min = info[at + 3]!;
    if (min === info[at + 4]!) return length * min;
    // Versions that differ need two steps at least, a block of 32 bytes or more: never inline.
    const versions = this.#views[slot]!.uint32;
    const first = (info[at]! >>> 2) + 2 * length * (1 + info[at + 2]!) + length;
    let sum = 0;
    for (let i = 0; i < length; i++) sum += versions[first + i]!;
    return sum;
  }

  /**
   * Position of the trajectory with a given sequence id.
   *
   * @param sequence - a sequence id returned by {@link ReplayPool.push}
   * @returns its position, or −1 when it was evicted or never pushed
   */
  positionOf(sequence: number): number {
    const position = sequence - this.#evicted;
    return Number.isInteger(position) && position >= 0 && position < this.#size ? position : -1;
  }

  /**
   * Iterates oldest to newest.
   *
   * @returns an iterator over the trajectories held
   * @throws PoolError `POOL_MODIFIED` from `next()` when the pool was pushed to or restored meanwhile
   */
  *[Symbol.iterator](): Generator<Trajectory, void, undefined> {
    const modifications = this.#modifications;
    for (let position = 0; ; position++) {
      if (this.#modifications !== modifications) {
        throw new PoolError('POOL_MODIFIED', 'the pool changed while it was being iterated');
      }
      if (position >= this.#size) return;
      yield this.#at(position);
    }
  }

  /**
   * The returns of the trajectories held, oldest first, as a fresh array owned by the caller: one copy
   * of `size` numbers from the mirrored return array, no trajectory is touched.
   *
   * @returns `Float64Array` of length `size`
   * @example
   * ```ts
   * console.log(pool.returns()); // Float64Array(3) [ 0.5, 3, 2 ]   (oldest first)
   * ```
   */
  returns(): Float64Array {
    return this.#returns.slice(this.#head, this.#head + this.#size);
  }

  /**
   * The same numbers as {@link ReplayPool.returns} without copying: a view into the pool's mirrored
   * return array. Valid until the next `push` or `restore` (which overwrite or replace what it shows);
   * never write to it.
   *
   * @returns a read-only-by-contract `Float64Array` view of length `size`
   */
  returnsView(): Float64Array {
    return this.#returns.subarray(this.#head, this.#head + this.#size);
  }

  /**
   * The trajectories that may be selected at `currentVersion`: all of them, or with `maxVersionLag`
   * set those whose oldest step is at most `maxVersionLag` versions old.
   *
   * @param currentVersion - the current policy version, at least the newest version held
   * @returns fresh `returns` and the `positions` they map back to
   * @throws RangeError when `currentVersion` is not an integer in [0, 2^32 − 1] or is older than a
   *   version held
   * @example
   * ```ts
   * const pool = new ReplayPool({ capacity: 4, maxVersionLag: 1 });
   * pool.push({ actions: [0], logProbs: [-1], versions: 5, return: 7 });
   * pool.push({ actions: [0], logProbs: [-1], versions: 6, return: 4 });
   * console.log(pool.selectable(7)); // { returns: Float64Array(1) [ 4 ], positions: Uint32Array(1) [ 1 ] }
   * ```
   */
  selectable(currentVersion: number): SelectableTrajectories {
    const version = checkInteger(currentVersion, 'currentVersion', 0, MAX_VERSION);
    const size = this.#size;
    const oldest = this.#maxVersionLag === undefined ? 0 : version - this.#maxVersionLag;
    const returns = new Float64Array(size);
    const positions = new Uint32Array(size);
    let newest = 0;
    let count = 0;
    for (let position = 0; position < size; position++) {
      let slot = this.#head + position;
      if (slot >= this.#capacity) slot -= this.#capacity;
      const maxVersion = this.#slotInfo[slot * SLOT_STRIDE + 4]!;
      if (maxVersion > newest) newest = maxVersion;
      if (this.#slotInfo[slot * SLOT_STRIDE + 3]! >= oldest) {
        returns[count] = this.#returns[slot]!;
        positions[count++] = position;
      }
    }
    if (newest > version) {
      throw new RangeError(
        `currentVersion must be >= ${newest}, the newest policy version in the pool, got ${version}`,
      );
    }
    return count === size
      ? { returns, positions }
      : { returns: returns.slice(0, count), positions: positions.slice(0, count) };
  }

  /**
   * Random access to the trajectories that may be selected at `currentVersion` (the same set as
   * {@link ReplayPool.selectable}, in an order of the pool's choosing), without copying: what a sampler
   * needs to draw C of them uniformly in O(C).
   *
   * Cost: O(1) without `maxVersionLag`. With it, the selectable set is kept up to date as trajectories are
   * pushed and evicted (O(1) each), and as the version advances: the trajectories that age out are taken
   * from per-version lists, so each trajectory leaves once, O(1) amortised per push for versions that
   * grow by small steps. Asking for an older version than the previous call rebuilds the set (O(N)).
   *
   * @param currentVersion - the current policy version, at least the newest version held
   * @returns a view valid until the next `push`, `restore`, or `selectableIndex` call
   * @throws RangeError when `currentVersion` is not an integer in [0, 2^32 − 1] or is older than a
   *   version held
   * @example
   * ```ts
   * const pool = new ReplayPool({ capacity: 4, maxVersionLag: 1 });
   * pool.push({ actions: [0], logProbs: [-1], versions: 5, return: 7 });
   * pool.push({ actions: [0], logProbs: [-1], versions: 6, return: 4 });
   * const index = pool.selectableIndex(7);
   * console.log(index.size, index.positionAt(0), index.returnAt(0)); // 1 1 4
   * ```
   */
  selectableIndex(currentVersion: number): SelectableIndex {
    const version = checkInteger(currentVersion, 'currentVersion', 0, MAX_VERSION);
    this.#checkNewest(version, 'the newest policy version in the pool');
    const index = this.#index;
    if (this.#maxVersionLag === undefined) {
      index.size = this.#size;
      index.view(this.#returns, this.#head, undefined, this.#capacity);
    } else {
      this.#advanceWindow(version);
      index.size = this.#denseSize;
      index.view(this.#returns, this.#head, this.#dense, this.#capacity);
    }
    return index;
  }

  /**
   * Staleness of everything held, measured at `currentVersion` (see {@link Staleness}).
   *
   * Cost: O(1): read from sums and sliding-window version extremes kept as trajectories enter and leave. The means
   * are exact while n·c and the step-version sums stay below 2^53 (e.g. 2^20 trajectories of versions
   * below 2^32). With `out`, nothing is allocated.
   *
   * @param currentVersion - the current policy version, at least the newest version held
   * @param out - optional: a `Staleness` an earlier call returned, refilled in place (its `trajectoryAge` and
   *   `stepAge` objects included) and returned, so that a training loop allocates nothing
   * @returns ages per trajectory and per step, and the share of multi-version trajectories (`out` when given)
   * @throws PoolError `EMPTY_POOL` when the pool is empty; RangeError as {@link ReplayPool.selectable};
   *   TypeError when `out` is not an object with `trajectoryAge` and `stepAge` objects
   * @example
   * ```ts
   * pool.push({ actions: [0, 1], logProbs: [-1, -1], versions: [3, 4], return: 1 });
   * const s = pool.staleness(4);
   * console.log(s.trajectoryAge); // { min: 1, mean: 1, max: 1 }
   * console.log(pool.staleness(5, s) === s, s.trajectoryAge.mean); // true 2
   * ```
   */
  staleness(currentVersion: number, out?: Staleness): Staleness {
    const version = checkInteger(currentVersion, 'currentVersion', 0, MAX_VERSION);
    if (
      out !== undefined &&
      (typeof out !== 'object' ||
        out === null ||
        typeof out.trajectoryAge !== 'object' ||
        out.trajectoryAge === null ||
        typeof out.stepAge !== 'object' ||
        out.stepAge === null)
    ) {
      throw new TypeError(
        `out must be a Staleness an earlier call returned (with trajectoryAge and stepAge objects), got ${describeValue(out)}`,
      );
    }
    const n = this.#size;
    if (n === 0) throw new PoolError('EMPTY_POOL', 'staleness of an empty pool is undefined');
    this.#checkNewest(version, 'the newest policy version among the trajectories');
    const steps = this.#stepCount;
    const oldest = version - this.#minVersions.min;
    if (out === undefined) {
      return {
        currentVersion: version,
        trajectories: n,
        distinct: n,
        steps,
        trajectoryAge: {
          min: version - this.#minVersions.max,
          mean: (n * version - this.#minVersionSum) / n,
          max: oldest,
        },
        stepAge: {
          min: version - this.#maxVersions.max,
          mean: (steps * version - this.#stepVersionSum) / steps,
          max: oldest,
        },
        multiVersionShare: this.#multiVersion / n,
      };
    }
    const s = out as Mutable<Staleness>;
    const trajectoryAge = out.trajectoryAge as Mutable<AgeSummary>;
    const stepAge = out.stepAge as Mutable<AgeSummary>;
    s.currentVersion = version;
    s.trajectories = n;
    s.distinct = n;
    s.steps = steps;
    trajectoryAge.min = version - this.#minVersions.max;
    trajectoryAge.mean = (n * version - this.#minVersionSum) / n;
    trajectoryAge.max = oldest;
    stepAge.min = version - this.#maxVersions.max;
    stepAge.mean = (steps * version - this.#stepVersionSum) / steps;
    stepAge.max = oldest;
    s.multiVersionShare = this.#multiVersion / n;
    return out;
  }

  #checkNewest(version: number, what: string): void {
    const newest = this.#maxVersions.max;
    if (newest > version) {
      throw new RangeError(`currentVersion must be >= ${newest}, ${what}, got ${version}`);
    }
  }

  /** Books the trajectory stored in `slot` into the running sums and the selectable set. */
  #enter(slot: number): void {
    const minVersion = this.#slotInfo[slot * SLOT_STRIDE + 3]!;
    const maxVersion = this.#slotInfo[slot * SLOT_STRIDE + 4]!;
    this.#minVersions.add(minVersion);
    this.#maxVersions.add(maxVersion);
    this.#minVersionSum += minVersion;
    this.#stepCount += this.#slotInfo[slot * SLOT_STRIDE + 1]!;
    this.#stepVersionSum += this.#versionSum(slot);
    if (minVersion !== maxVersion) this.#multiVersion++;
    const lag = this.#maxVersionLag;
    if (lag === undefined) return;
    const first = this.#buckets.get(minVersion) ?? -1;
    this.#next[slot] = first;
    this.#previous[slot] = -1;
    if (first >= 0) this.#previous[first] = slot;
    this.#buckets.set(minVersion, slot);
    this.#denseOf[slot] = -1;
    if (this.#windowVersion >= 0 && minVersion >= this.#windowVersion - lag) this.#addDense(slot);
  }

  /** Undoes {@link ReplayPool.#enter} for the trajectory leaving `slot`. */
  #leave(slot: number): void {
    const minVersion = this.#slotInfo[slot * SLOT_STRIDE + 3]!;
    const maxVersion = this.#slotInfo[slot * SLOT_STRIDE + 4]!;
    this.#minVersions.removeOldest();
    this.#maxVersions.removeOldest();
    this.#minVersionSum -= minVersion;
    this.#stepCount -= this.#slotInfo[slot * SLOT_STRIDE + 1]!;
    this.#stepVersionSum -= this.#versionSum(slot);
    if (minVersion !== maxVersion) this.#multiVersion--;
    if (this.#maxVersionLag === undefined) return;
    const before = this.#previous[slot]!;
    const after = this.#next[slot]!;
    if (before >= 0) this.#next[before] = after;
    else if (after >= 0) this.#buckets.set(minVersion, after);
    else this.#buckets.delete(minVersion);
    if (after >= 0) this.#previous[after] = before;
    if (this.#denseOf[slot]! >= 0) this.#removeDense(slot);
  }

  #addDense(slot: number): void {
    this.#dense[this.#denseSize] = slot;
    this.#denseOf[slot] = this.#denseSize++;
  }

  #removeDense(slot: number): void {
    const k = this.#denseOf[slot]!;
    const last = this.#dense[--this.#denseSize]!;
    this.#dense[k] = last;
    this.#denseOf[last] = k;
    this.#denseOf[slot] = -1;
  }

  /** Brings the selectable set to `version`: the trajectories whose minVersion falls below the cut leave. */
  #advanceWindow(version: number): void {
    const lag = this.#maxVersionLag!;
    if (this.#windowVersion < 0 || version < this.#windowVersion) {
      this.#denseSize = 0;
      for (let position = 0; position < this.#size; position++) {
        let slot = this.#head + position;
        if (slot >= this.#capacity) slot -= this.#capacity;
        this.#denseOf[slot] = -1;
        if (this.#slotInfo[slot * SLOT_STRIDE + 3]! >= version - lag) this.#addDense(slot);
      }
      this.#windowVersion = version;
      return;
    }
    const from = this.#windowVersion - lag;
    const to = version - lag;
    this.#windowVersion = version;
    if (to <= from) return;
    if (to - from <= this.#buckets.size) {
      for (let v = from; v < to; v++) this.#ageOut(this.#buckets.get(v));
    } else {
      for (const [v, first] of this.#buckets) if (v >= from && v < to) this.#ageOut(first);
    }
  }

  #ageOut(first: number | undefined): void {
    for (let slot = first ?? -1; slot >= 0; slot = this.#next[slot]!) {
      if (this.#denseOf[slot]! >= 0) this.#removeDense(slot);
    }
  }

  /**
   * Staleness of a selection (what FTW imitates): each position counts as often as it occurs.
   *
   * @param positions - pool positions of the selected trajectories, repeats allowed, e.g.
   *   `selectable(v).positions[i]` for each index i a sampler picked
   * @param currentVersion - the current policy version, at least the newest version selected
   * @returns ages per selected trajectory and step, with `distinct` the number of different ones
   * @throws PoolError `EMPTY_POOL` when the pool is empty; TypeError when `positions` is not array-like;
   *   RangeError when it is empty or holds a value that is not an integer in [0, size)
   * @example
   * ```ts
   * const { positions } = pool.selectable(version);
   * const picked = [0, 0, 3].map((i) => positions[i]!); // indices from a sampler over `returns`
   * console.log(pool.selectionStaleness(picked, version).distinct); // 2
   * ```
   */
  selectionStaleness(positions: ArrayLike<number>, currentVersion: number): Staleness {
    const version = checkInteger(currentVersion, 'currentVersion', 0, MAX_VERSION);
    if (this.#size === 0) throw new PoolError('EMPTY_POOL', 'no selection can come from an empty pool');
    const count = typeof positions === 'object' && positions !== null ? positions.length : undefined;
    if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) {
      throw new TypeError(`positions must be an array of pool positions, got ${describeValue(positions)}`);
    }
    if (count === 0) throw new RangeError('positions must hold at least one position, got an empty array');
    const seen = new Set<number>();
    const selected: Trajectory[] = new Array(count);
    for (let i = 0; i < count; i++) {
      const p = positions[i];
      if (typeof p !== 'number' || !Number.isInteger(p) || p < 0 || p >= this.#size) {
        throw new RangeError(
          `positions[${i}] must be an integer in [0, ${this.#size}), got ${describeValue(p)}`,
        );
      }
      seen.add(p);
      selected[i] = this.#at(p);
    }
    return measureStaleness(selected, seen.size, version);
  }

  /**
   * The pool as snapshot bytes (format in the README): header with magic, format version, length and
   * CRC-32s, then configuration, counters and every trajectory, little-endian.
   *
   * @returns a new `Uint8Array`
   */
  toBytes(): Uint8Array {
    return encodeSnapshot(this.#state());
  }

  /**
   * Saves a snapshot atomically: temporary file in the same directory, fsync, rename over `path`, fsync
   * of the directory. A crash at any moment leaves either the previous file or the new one at `path`.
   *
   * @param path - destination file
   * @throws TypeError for an empty path; the `fs` error when writing fails (the old file is kept)
   * @example
   * ```ts
   * pool.save('/data/pool.snap');
   * console.log(ReplayPool.load('/data/pool.snap').toBytes().length === pool.toBytes().length); // true
   * ```
   */
  save(path: string): void {
    if (typeof path !== 'string' || path === '') {
      throw new TypeError(`path must be a non-empty string, got ${describeValue(path)}`);
    }
    writeFileAtomic(path, this.toBytes());
  }

  /**
   * Replaces this pool's whole state (capacity, lag bound, counters, trajectories) with a snapshot's,
   * only once the entire file has verified; on any error the pool is left exactly as it was.
   *
   * @param path - the snapshot file
   * @throws as {@link ReplayPool.load}
   * @example
   * ```ts
   * try {
   *   pool.restore('/data/damaged.snap');
   * } catch (error) {
   *   console.log((error as PoolError).code); // SNAPSHOT_CORRUPT   (pool unchanged)
   * }
   * ```
   */
  restore(path: string): void {
    this.#adopt(readSnapshotFile(path));
  }

  /**
   * {@link ReplayPool.restore} from bytes.
   *
   * @param bytes - a whole snapshot
   * @throws as {@link ReplayPool.fromBytes}
   */
  restoreBytes(bytes: Uint8Array): void {
    if (!(bytes instanceof Uint8Array))
      throw new TypeError(`bytes must be a Uint8Array, got ${describeValue(bytes)}`);
    this.#adopt(decodeSnapshot(bytes));
  }

  #state(): PoolState {
    return {
      capacity: this.#capacity,
      maxVersionLag: this.#maxVersionLag,
      pushedCount: this.#pushed,
      evictedCount: this.#evicted,
      trajectories: Array.from(this, (t) => t),
    };
  }

  #adopt(state: PoolState): void {
    const { capacity, trajectories } = state;
    // Copied into a fresh arena (the state's columns may be views into a snapshot's bytes). Trajectories
    // of a decoded snapshot or of this pool are valid inputs, so nothing below can throw half-way.
    const arena = new ColumnArena();
    const views = new Array<SlabViews | undefined>(capacity).fill(undefined);
    // The slot columns share one buffer (allocating a typed array of its own costs about a microsecond
    // each): the spare entry first, then the returns mirror (2N doubles), then the slot entries.
    const entriesAt = SPARE_BYTES + 16 * capacity;
    const slots = new ArrayBuffer(entriesAt + 4 * SLOT_STRIDE * capacity);
    const returns = new Float64Array(slots, SPARE_BYTES, 2 * capacity);
    const entries = new SlabViews(slots, entriesAt);
    const blocks = new SlotBlocks(arena, new SlabViews(slots, 0, SPARE_BYTES));
    let metadata: (JsonValue | undefined)[] | undefined;
    trajectories.forEach((t, position) => {
      const stored = storeTrajectory(t, blocks);
      blocks.place(entries, views, position, stored);
      if (stored.metadata !== undefined) {
        (metadata ??= new Array<JsonValue | undefined>(capacity).fill(undefined))[position] = stored.metadata;
      }
      returns[position] = returns[position + capacity] = stored.return;
    });
    this.#capacity = capacity;
    this.#maxVersionLag = state.maxVersionLag;
    this.#arena = arena;
    this.#views = views;
    this.#entries = entries;
    this.#slotInfo = entries.uint32;
    this.#blocks = blocks;
    this.#metadata = metadata;
    this.#records = new Array<Trajectory | undefined>(capacity).fill(undefined);
    this.#returns = returns;
    this.#columns.bind(views, entries, returns);
    this.#head = 0;
    this.#size = trajectories.length;
    this.#pushed = state.pushedCount;
    this.#evicted = state.evictedCount;
    this.#modifications++;
    this.#minVersions = new FifoExtremes(capacity);
    this.#maxVersions = new FifoExtremes(capacity);
    this.#minVersionSum = 0;
    this.#stepCount = 0;
    this.#stepVersionSum = 0;
    this.#multiVersion = 0;
    this.#windowVersion = -1;
    this.#denseSize = 0;
    this.#buckets.clear();
    if (state.maxVersionLag !== undefined) {
      this.#dense = new Int32Array(capacity);
      this.#denseOf = new Int32Array(capacity);
      this.#next = new Int32Array(capacity);
      this.#previous = new Int32Array(capacity);
    }
    for (let position = 0; position < trajectories.length; position++) this.#enter(position);
  }
}

/**
 * The {@link SelectableIndex} a pool hands out: plain fields set from the pool's state by each
 * `selectableIndex` call (a view valid until the pool changes), so that `returnAt` and `positionAt` are
 * one or two array reads a sampler's loop can inline.
 */
class IndexView implements SelectableIndex {
  size = 0;
  #returns: Float64Array = new Float64Array(0);
  #head = 0;
  #capacity = 1;
  /** Ring slots of the selectable trajectories under `maxVersionLag`; undefined: every held one, in order. */
  #dense: Int32Array | undefined = undefined;

  view(returns: Float64Array, head: number, dense: Int32Array | undefined, capacity: number): void {
    this.#returns = returns;
    this.#head = head;
    this.#dense = dense;
    this.#capacity = capacity;
  }

  positionAt(k: number): number {
    const dense = this.#dense;
    if (dense === undefined) return k;
    const position = dense[k]! - this.#head;
    return position < 0 ? position + this.#capacity : position;
  }

  returnAt(k: number): number {
    const dense = this.#dense;
    // The returns are stored twice over (slot and slot + capacity), so head + k needs no wrap.
    return dense === undefined ? this.#returns[this.#head + k]! : this.#returns[dense[k]!]!;
  }
}

/**
 * The {@link TrajectoryColumns} a pool hands out: it reads the pool's slot arrays (bound whenever the pool
 * replaces them) at the slot a `columnsAt` call points it to, so that pointing it costs one store.
 */
class ColumnsView implements TrajectoryColumns {
  slot = 0;
  #views: (SlabViews | undefined)[] = [];
  #entries!: SlabViews;
  #info!: Uint32Array;
  #returns!: Float64Array;

  bind(views: (SlabViews | undefined)[], entries: SlabViews, returns: Float64Array): void {
    this.#views = views;
    this.#entries = entries;
    this.#info = entries.uint32;
    this.#returns = returns;
  }

  get length(): number {
    return this.#info[this.slot * SLOT_STRIDE + 1]!;
  }

  get observationSize(): number {
    return this.#info[this.slot * SLOT_STRIDE + 2]!;
  }

  get return(): number {
    return this.#returns[this.slot]!;
  }

  get minVersion(): number {
    return this.#info[this.slot * SLOT_STRIDE + 3]!;
  }

  get maxVersion(): number {
    return this.#info[this.slot * SLOT_STRIDE + 4]!;
  }

  // The block of a trajectory of L steps and d values per observation: L log-probs and L·d observation
  // values (float64), then L actions and L versions (32-bit); in the slot's entry from word INLINE_WORD when
  // it is inline (no read of `#views`: the entry's line is the one the other fields came from), else in its
  // slab from byte `offset`.
  action(t: number): number {
    const slot = this.slot;
    const info = this.#info;
    const at = slot * SLOT_STRIDE;
    const skip = 2 * info[at + 1]! * (1 + info[at + 2]!) + t;
    return info[at + INLINE_FLAG] === 1
      ? this.#entries.int32[at + INLINE_WORD + skip]!
      : this.#views[slot]!.int32[(info[at]! >>> 2) + skip]!;
  }

  logProb(t: number): number {
    const slot = this.slot;
    const info = this.#info;
    const at = slot * SLOT_STRIDE;
    return info[at + INLINE_FLAG] === 1
      ? this.#entries.float64[((at + INLINE_WORD) >>> 1) + t]!
      : this.#views[slot]!.float64[(info[at]! >>> 3) + t]!;
  }

  version(t: number): number {
    const slot = this.slot;
    const info = this.#info;
    const at = slot * SLOT_STRIDE;
    const length = info[at + 1]!;
    const skip = 2 * length * (1 + info[at + 2]!) + length + t;
    return info[at + INLINE_FLAG] === 1
      ? info[at + INLINE_WORD + skip]!
      : this.#views[slot]!.uint32[(info[at]! >>> 2) + skip]!;
  }

  observation(t: number, k = 0): number {
    const slot = this.slot;
    const info = this.#info;
    const at = slot * SLOT_STRIDE;
    const skip = info[at + 1]! + t * info[at + 2]! + k;
    return info[at + INLINE_FLAG] === 1
      ? this.#entries.float64[((at + INLINE_WORD) >>> 1) + skip]!
      : this.#views[slot]!.float64[(info[at]! >>> 3) + skip]!;
  }
}
