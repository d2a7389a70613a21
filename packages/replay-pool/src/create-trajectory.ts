import { describeValue } from '@ftw/internal';
import type { BlockTarget, ColumnArena, SlabViews } from './column-arena.js';
import { cloneJsonValue, type JsonValue } from './json-value.js';
import type { Trajectory } from './trajectory.js';
import type { TrajectoryInput } from './trajectory-input.js';

/** Largest action: actions are stored in an Int32Array. */
export const MAX_ACTION = 0x7fff_ffff;
/** Largest policy version: versions are stored in a Uint32Array. */
export const MAX_VERSION = 0xffff_ffff;

/**
 * Builds the frozen stored record from already verified columns, always with the same keys in the same
 * order so that every trajectory shares one object shape. Internal.
 */
export function makeTrajectory(
  sequence: number,
  actions: Int32Array,
  logProbs: Float64Array,
  versions: Uint32Array,
  minVersion: number,
  maxVersion: number,
  ret: number,
  observations: Float64Array | undefined,
  observationSize: number,
  metadata: JsonValue | undefined,
): Trajectory {
  return Object.freeze({
    sequence,
    length: actions.length,
    actions,
    logProbs,
    versions,
    minVersion,
    maxVersion,
    return: ret,
    observations,
    observationSize,
    metadata,
  });
}

function lengthOf(value: unknown, name: string): number {
  const length =
    typeof value === 'object' && value !== null ? (value as ArrayLike<unknown>).length : undefined;
  if (typeof length !== 'number' || !Number.isSafeInteger(length) || length < 0) {
    throw new TypeError(`${name} must be an array or typed array of numbers, got ${describeValue(value)}`);
  }
  return length;
}

function sameLength(length: number, name: string, steps: number): void {
  if (length !== steps) {
    throw new RangeError(
      `${name} must have one entry per step (${steps}, the length of actions), got length ${length}`,
    );
  }
}

/**
 * Where {@link storeTrajectory} put a trajectory's columns, and its scalars. Block layout (8-aligned, from
 * `offset` in `buffer`): logProbs f64[T], observations f64[T·d], actions i32[T], versions u32[T].
 * Internal.
 */
export interface StoredBlock {
  buffer: ArrayBuffer;
  /** Views of the whole of `buffer`. */
  views: SlabViews;
  offset: number;
  length: number;
  observationSize: number;
  minVersion: number;
  maxVersion: number;
  return: number;
  metadata: JsonValue | undefined;
}

// The one record storeTrajectory fills in: its caller reads it before the next call.
const block: StoredBlock = {
  buffer: new ArrayBuffer(0),
  views: undefined as unknown as SlabViews,
  offset: 0,
  length: 0,
  observationSize: 0,
  minVersion: 0,
  maxVersion: 0,
  return: 0,
  metadata: undefined,
};

/**
 * The frozen {@link Trajectory} record of a block written by {@link storeTrajectory}: typed-array views
 * of its columns, and its scalars. Internal.
 */
export function blockTrajectory(
  sequence: number,
  buffer: ArrayBuffer,
  offset: number,
  length: number,
  observationSize: number,
  minVersion: number,
  maxVersion: number,
  ret: number,
  metadata: JsonValue | undefined,
): Trajectory {
  const floats = 8 * length * (1 + observationSize);
  return makeTrajectory(
    sequence,
    new Int32Array(buffer, offset + floats, length),
    new Float64Array(buffer, offset, length),
    new Uint32Array(buffer, offset + floats + 4 * length, length),
    minVersion,
    maxVersion,
    ret,
    observationSize === 0
      ? undefined
      : new Float64Array(buffer, offset + 8 * length, length * observationSize),
    observationSize,
    metadata,
  );
}

/**
 * Verifies a {@link TrajectoryInput} and copies it into a stored {@link Trajectory} whose columns are
 * views into one block of `arena` (see {@link storeTrajectory}). Internal.
 *
 * @param input - what the caller pushed
 * @param sequence - the sequence id to give the record
 * @param arena - where the columns are allocated
 * @returns the frozen columnar record
 * @throws TypeError when a field has the wrong type; RangeError when a value is out of its domain
 */
export function createTrajectory(input: TrajectoryInput, sequence: number, arena: ColumnArena): Trajectory {
  const b = storeTrajectory(input, arena);
  return blockTrajectory(
    sequence,
    b.buffer,
    b.offset,
    b.length,
    b.observationSize,
    b.minVersion,
    b.maxVersion,
    b.return,
    b.metadata,
  );
}

/**
 * Verifies a {@link TrajectoryInput} and copies its columns into one block of `arena`, without building
 * any object for it: the pool keeps the block's place and the scalars, and builds the record on demand
 * ({@link blockTrajectory}). Every field is read once and checked before the block is committed, so a
 * refused input leaves no trace. Internal.
 *
 * Block layout (8-aligned): logProbs f64[T], observations f64[T·d], actions i32[T], versions u32[T].
 *
 * @param input - what the caller pushed
 * @param arena - where the columns are allocated (a `ColumnArena`, or the pool's slot entries for a small
 *   block)
 * @returns the block and the scalars, in a record that the next call overwrites
 * @throws TypeError when a field has the wrong type; RangeError when a value is out of its domain
 */
export function storeTrajectory(input: TrajectoryInput, arena: BlockTarget): StoredBlock {
  if (typeof input !== 'object' || input === null) {
    throw new TypeError(`trajectory must be an object, got ${describeValue(input)}`);
  }
  const { actions, logProbs, versions, return: ret, observations, metadata } = input;

  const steps = lengthOf(actions, 'trajectory.actions');
  if (steps === 0) throw new RangeError('trajectory.actions must hold at least one step, got length 0');
  sameLength(lengthOf(logProbs, 'trajectory.logProbs'), 'trajectory.logProbs', steps);
  const singleVersion = typeof versions === 'number';
  if (!singleVersion) sameLength(lengthOf(versions, 'trajectory.versions'), 'trajectory.versions', steps);
  const observationCount = observations === undefined ? 0 : lengthOf(observations, 'trajectory.observations');
  if (observations !== undefined && (observationCount === 0 || observationCount % steps !== 0)) {
    throw new RangeError(
      `trajectory.observations must hold d values per step for a whole d >= 1 (a positive multiple of ${steps}), got length ${observationCount}`,
    );
  }
  if (typeof ret !== 'number' || !Number.isFinite(ret)) {
    throw new RangeError(`trajectory.return must be a finite number, got ${describeValue(ret)}`);
  }

  const floatBytes = 8 * (steps + observationCount);
  const { buffer, offset } = arena.reserve(floatBytes + 8 * steps);
  // The columns are written through views of the whole buffer, at element offsets: a new view per
  // column would cost more than the copy for a short trajectory.
  const views = arena.views;
  const { float64, int32, uint32 } = views;
  const logProbAt = offset >>> 3;
  const actionAt = (offset + floatBytes) >>> 2;
  const versionAt = actionAt + steps;

  for (let i = 0; i < steps; i++) {
    const a = actions[i];
    if (typeof a !== 'number' || !(a >= 0 && a <= MAX_ACTION) || Math.floor(a) !== a) {
      throw new RangeError(
        `trajectory.actions[${i}] must be an integer in [0, ${MAX_ACTION}], got ${describeValue(a)}`,
      );
    }
    int32[actionAt + i] = a;
  }

  for (let i = 0; i < steps; i++) {
    const p = logProbs[i];
    if (typeof p !== 'number' || !(p <= 0) || p === Number.NEGATIVE_INFINITY) {
      throw new RangeError(
        `trajectory.logProbs[${i}] must be a finite log-probability <= 0, got ${describeValue(p)}`,
      );
    }
    float64[logProbAt + i] = p;
  }

  let minVersion = MAX_VERSION;
  let maxVersion = 0;
  if (singleVersion) {
    if (!(versions >= 0 && versions <= MAX_VERSION) || Math.floor(versions) !== versions) {
      throw new RangeError(
        `trajectory.versions must be an integer in [0, ${MAX_VERSION}] or one per step, got ${describeValue(versions)}`,
      );
    }
    uint32.fill(versions, versionAt, versionAt + steps);
    minVersion = maxVersion = versions;
  } else {
    for (let i = 0; i < steps; i++) {
      const v = versions[i];
      if (typeof v !== 'number' || !(v >= 0 && v <= MAX_VERSION) || Math.floor(v) !== v) {
        throw new RangeError(
          `trajectory.versions[${i}] must be an integer in [0, ${MAX_VERSION}], got ${describeValue(v)}`,
        );
      }
      uint32[versionAt + i] = v;
      if (v < minVersion) minVersion = v;
      if (v > maxVersion) maxVersion = v;
    }
  }

  if (observations !== undefined) {
    const observationAt = logProbAt + steps;
    for (let i = 0; i < observationCount; i++) {
      const x = observations[i];
      if (typeof x !== 'number' || !Number.isFinite(x)) {
        throw new RangeError(
          `trajectory.observations[${i}] must be a finite number, got ${describeValue(x)}`,
        );
      }
      float64[observationAt + i] = x;
    }
  }

  const storedMetadata = metadata === undefined ? undefined : cloneJsonValue(metadata, 'trajectory.metadata');
  arena.commit();

  block.buffer = buffer;
  block.views = views;
  block.offset = offset;
  block.length = steps;
  block.observationSize = observationCount / steps;
  block.minVersion = minVersion;
  block.maxVersion = maxVersion;
  block.return = ret;
  block.metadata = storedMetadata;
  return block;
}
