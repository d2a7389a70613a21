import { describeValue } from '@ftw/internal';
import { crc32 } from './crc32.js';
import {
  TRAJECTORY_FORMAT_VERSION,
  TRAJECTORY_HEADER_BYTES,
  TRAJECTORY_MAGIC,
  TRAJECTORY_NO_METADATA,
  TRAJECTORY_PREFIX_BYTES,
} from './encode-trajectory.js';
import { freezeJsonValue, type JsonValue } from './json-value.js';
import { PoolError } from './pool-error.js';

/**
 * A trajectory read back by {@link decodeTrajectory}: fresh typed arrays owned by the caller, ready to
 * hand to {@link ReplayPool.push} (it is a valid `TrajectoryInput`).
 *
 * @example
 * ```ts
 * const t: DecodedTrajectory = decodeTrajectory(bytes);
 * pool.push(t);
 * ```
 */
export interface DecodedTrajectory {
  /** Action per step. */
  readonly actions: Int32Array;
  /** Behaviour log-probability per step, each finite and ≤ 0. */
  readonly logProbs: Float64Array;
  /** Policy version per step. */
  readonly versions: Uint32Array;
  /** Terminal return, finite (`-0` kept). */
  readonly return: number;
  /** Observations, `d` values per step, or `undefined` when none were encoded. */
  readonly observations?: Float64Array | undefined;
  /** Frozen JSON metadata, or `undefined` when none was encoded. */
  readonly metadata?: JsonValue | undefined;
}

const corrupt = (reason: string, offset: number, place: string): PoolError =>
  new PoolError('SNAPSHOT_CORRUPT', reason, { offset, place: `trajectory ${place}` });

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Verifies and reads the bytes written by {@link encodeTrajectory}: magic, format version, announced
 * length, CRC-32 of the body, then every field (steps ≥ 1, actions ≥ 0, log-probabilities finite and
 * ≤ 0, finite return and observations, canonical JSON metadata). Nothing is returned unless all of it
 * verifies. The error codes are the snapshot ones of {@link PoolError}, with `place` starting with
 * `trajectory`.
 *
 * @param bytes - one encoded trajectory, nothing before or after it
 * @returns the trajectory, in fresh typed arrays
 * @throws TypeError when `bytes` is not a Uint8Array; PoolError `SNAPSHOT_MAGIC` (not a trajectory),
 *   `SNAPSHOT_VERSION` (another format version), `SNAPSHOT_TRUNCATED` (fewer bytes than announced) or
 *   `SNAPSHOT_CORRUPT` (checksum mismatch, trailing bytes, a field out of its domain), with the byte
 *   offset of the failure
 * @example
 * ```ts
 * const bytes = encodeTrajectory({ actions: [1], logProbs: [-0.5], versions: 3, return: 2 });
 * console.log(decodeTrajectory(bytes));
 * // { actions: Int32Array(1) [ 1 ], logProbs: Float64Array(1) [ -0.5 ], versions: Uint32Array(1) [ 3 ],
 * //   return: 2, observations: undefined, metadata: undefined }
 * bytes[30] ^= 1;
 * decodeTrajectory(bytes); // PoolError: SNAPSHOT_CORRUPT: body checksum … (trajectory checksum, byte 16)
 * ```
 */
export function decodeTrajectory(bytes: Uint8Array): DecodedTrajectory {
  if (!(bytes instanceof Uint8Array)) {
    throw new TypeError(`bytes must be a Uint8Array, got ${describeValue(bytes)}`);
  }
  for (let i = 0; i < TRAJECTORY_MAGIC.length; i++) {
    if (i >= bytes.length) {
      throw new PoolError('SNAPSHOT_TRUNCATED', `${bytes.length} bytes end inside the magic`, {
        offset: bytes.length,
        place: 'trajectory magic',
      });
    }
    if (bytes[i] !== TRAJECTORY_MAGIC[i]) {
      throw new PoolError('SNAPSHOT_MAGIC', 'not an encoded trajectory (wrong magic bytes)', {
        offset: i,
        place: 'trajectory magic',
      });
    }
  }
  if (bytes.length < TRAJECTORY_HEADER_BYTES) {
    throw new PoolError(
      'SNAPSHOT_TRUNCATED',
      `${bytes.length} bytes end inside the ${TRAJECTORY_HEADER_BYTES}-byte header`,
      { offset: bytes.length, place: 'trajectory header' },
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(4, true);
  if (version !== TRAJECTORY_FORMAT_VERSION) {
    throw new PoolError(
      'SNAPSHOT_VERSION',
      `trajectory format version ${version} is not supported; this release reads version ${TRAJECTORY_FORMAT_VERSION}`,
      { offset: 4, place: 'trajectory format version' },
    );
  }
  const end = TRAJECTORY_HEADER_BYTES + view.getUint32(8, true);
  if (bytes.length < end) {
    throw new PoolError(
      'SNAPSHOT_TRUNCATED',
      `the record has ${bytes.length} bytes, its header announces ${end}`,
      { offset: bytes.length, place: 'trajectory body' },
    );
  }
  if (bytes.length > end) throw corrupt(`${bytes.length - end} bytes follow the announced end`, end, 'end');
  const storedCrc = view.getUint32(12, true);
  const crc = crc32(bytes, TRAJECTORY_HEADER_BYTES, end);
  if (storedCrc !== crc) {
    throw corrupt(`body checksum ${storedCrc} does not match ${crc}`, TRAJECTORY_HEADER_BYTES, 'checksum');
  }

  let at = TRAJECTORY_HEADER_BYTES;
  if (end - at < TRAJECTORY_PREFIX_BYTES) throw corrupt('the body is shorter than its prefix', at, 'prefix');
  const steps = view.getUint32(at, true);
  const observationSize = view.getUint32(at + 4, true);
  const ret = view.getFloat64(at + 8, true);
  const metadataLength = view.getUint32(at + 16, true);
  if (steps === 0) throw corrupt('a trajectory without steps', at, 'length');
  if (!Number.isFinite(ret)) throw corrupt(`return ${ret} is not finite`, at + 8, 'return');
  at += TRAJECTORY_PREFIX_BYTES;

  let metadata: JsonValue | undefined;
  if (metadataLength !== TRAJECTORY_NO_METADATA) {
    if (metadataLength > end - at) throw corrupt('metadata runs past the end', at, 'metadata');
    let value: JsonValue;
    try {
      const text = decoder.decode(bytes.subarray(at, at + metadataLength));
      value = JSON.parse(text) as JsonValue;
      // Canonical text only, so that encoding what was decoded gives back the same bytes.
      if (JSON.stringify(value) !== text)
        throw new SyntaxError('not in the canonical form JSON.stringify writes');
    } catch (error) {
      throw corrupt(`metadata is not valid JSON text: ${(error as Error).message}`, at, 'metadata');
    }
    metadata = freezeJsonValue(value);
    at += metadataLength;
  }
  // A corrupt size may make this product inexact (above 2^53), but then it is far above any body length.
  const columnBytes = 16 * steps + 8 * steps * observationSize;
  if (columnBytes !== end - at) {
    throw corrupt(`the columns need ${columnBytes} bytes, the body holds ${end - at}`, at, 'columns');
  }

  const logProbs = new Float64Array(steps);
  for (let i = 0; i < steps; i++, at += 8) {
    const p = view.getFloat64(at, true);
    if (!(p <= 0) || p === Number.NEGATIVE_INFINITY) {
      throw corrupt(`log-probability ${p} is not finite and <= 0`, at, `logProbs[${i}]`);
    }
    logProbs[i] = p;
  }
  let observations: Float64Array | undefined;
  if (observationSize > 0) {
    observations = new Float64Array(steps * observationSize);
    for (let i = 0; i < observations.length; i++, at += 8) {
      const x = view.getFloat64(at, true);
      if (!Number.isFinite(x)) throw corrupt(`observation ${x} is not finite`, at, `observations[${i}]`);
      observations[i] = x;
    }
  }
  const actions = new Int32Array(steps);
  for (let i = 0; i < steps; i++, at += 4) {
    const a = view.getInt32(at, true);
    if (a < 0) throw corrupt(`negative action ${a}`, at, `actions[${i}]`);
    actions[i] = a;
  }
  const versions = new Uint32Array(steps);
  for (let i = 0; i < steps; i++, at += 4) versions[i] = view.getUint32(at, true);
  return { actions, logProbs, versions, return: ret, observations, metadata };
}
