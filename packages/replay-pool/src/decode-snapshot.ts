import { checkSnapshotHeader, getU64 } from './check-snapshot-header.js';
import { ColumnArena } from './column-arena.js';
import { makeTrajectory } from './create-trajectory.js';
import { freezeJsonValue, type JsonValue } from './json-value.js';
import { PoolError } from './pool-error.js';
import { MAX_CAPACITY, type PoolState } from './pool-state.js';
import {
  BODY_PREFIX_BYTES,
  HEADER_BYTES,
  NO_METADATA,
  RECORD_PREFIX_BYTES,
  STEP_BYTES,
} from './snapshot-format.js';
import type { Trajectory } from './trajectory.js';

const corrupt = (reason: string, offset: number, place: string): PoolError =>
  new PoolError('SNAPSHOT_CORRUPT', reason, { offset, place });

function decodeMetadata(bytes: Uint8Array, offset: number, place: string): JsonValue {
  let value: JsonValue;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    value = JSON.parse(text) as JsonValue;
    // Canonical text only, so that saving what was loaded gives back the same bytes.
    if (JSON.stringify(value) !== text)
      throw new SyntaxError('not in the canonical form JSON.stringify writes');
  } catch (error) {
    throw corrupt(`metadata is not valid JSON text: ${(error as Error).message}`, offset, place);
  }
  return freezeJsonValue(value);
}

/**
 * Verifies and reads snapshot bytes: magic, format version, header checksum, announced length, body
 * checksum, then every field of every record. Nothing is returned unless all of it verifies. Internal.
 *
 * @param bytes - the whole snapshot
 * @returns the pool state it holds
 * @throws PoolError `SNAPSHOT_MAGIC`, `SNAPSHOT_VERSION`, `SNAPSHOT_TRUNCATED` or `SNAPSHOT_CORRUPT`,
 *   with the byte offset and place of the first failure
 */
export function decodeSnapshot(bytes: Uint8Array): PoolState {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = checkSnapshotHeader(bytes, view);

  let at = HEADER_BYTES;
  const need = (count: number, place: string): void => {
    if (count > end - at) throw corrupt('a record runs past the end of the body', at, place);
  };
  need(BODY_PREFIX_BYTES, 'body prefix');
  const capacity = view.getUint32(at, true);
  if (capacity < 1 || capacity > MAX_CAPACITY)
    throw corrupt(`capacity ${capacity} out of range`, at, 'capacity');
  const lagFlag = view.getUint32(at + 4, true);
  const lag = view.getUint32(at + 8, true);
  if (lagFlag > 1 || (lagFlag === 0 && lag !== 0))
    throw corrupt('invalid maxVersionLag field', at + 4, 'maxVersionLag');
  const size = view.getUint32(at + 12, true);
  if (size > capacity) throw corrupt(`size ${size} exceeds capacity ${capacity}`, at + 12, 'size');
  const pushedCount = getU64(view, at + 16, 'pushedCount');
  const evictedCount = getU64(view, at + 24, 'evictedCount');
  if (evictedCount + size !== pushedCount) {
    throw corrupt(`pushed ${pushedCount} != evicted ${evictedCount} + size ${size}`, at + 16, 'counters');
  }
  at += BODY_PREFIX_BYTES;

  const trajectories: Trajectory[] = [];
  const arena = new ColumnArena();
  for (let k = 0; k < size; k++) {
    const place = `trajectory ${k}`;
    need(RECORD_PREFIX_BYTES, place);
    const sequence = getU64(view, at, `${place} sequence`);
    if (sequence !== evictedCount + k) {
      throw corrupt(`sequence ${sequence}, expected ${evictedCount + k}`, at, `${place} sequence`);
    }
    const steps = view.getUint32(at + 8, true);
    const observationSize = view.getUint32(at + 12, true);
    if (steps === 0) throw corrupt('a trajectory without steps', at + 8, `${place} length`);
    const ret = view.getFloat64(at + 16, true);
    if (!Number.isFinite(ret)) throw corrupt(`return ${ret} is not finite`, at + 16, `${place} return`);
    const metadataLength = view.getUint32(at + 24, true);
    at += RECORD_PREFIX_BYTES;
    let metadata: JsonValue | undefined;
    if (metadataLength !== NO_METADATA) {
      need(metadataLength, `${place} metadata`);
      metadata = decodeMetadata(bytes.subarray(at, at + metadataLength), at, `${place} metadata`);
      at += metadataLength;
    }
    need(STEP_BYTES * steps + 8 * steps * observationSize, `${place} columns`);

    const floatBytes = 8 * steps * (1 + observationSize);
    const { buffer, offset } = arena.reserve(floatBytes + 8 * steps);
    const logProbs = new Float64Array(buffer, offset, steps);
    const observations =
      observationSize === 0
        ? undefined
        : new Float64Array(buffer, offset + 8 * steps, steps * observationSize);
    const actions = new Int32Array(buffer, offset + floatBytes, steps);
    const versions = new Uint32Array(buffer, offset + floatBytes + 4 * steps, steps);
    for (let i = 0; i < steps; i++, at += 4) {
      const a = view.getInt32(at, true);
      if (a < 0) throw corrupt(`negative action ${a}`, at, `${place} actions[${i}]`);
      actions[i] = a;
    }
    for (let i = 0; i < steps; i++, at += 8) {
      const p = view.getFloat64(at, true);
      if (!(p <= 0) || p === Number.NEGATIVE_INFINITY) {
        throw corrupt(`log-probability ${p} is not finite and <= 0`, at, `${place} logProbs[${i}]`);
      }
      logProbs[i] = p;
    }
    let minVersion = 0xffff_ffff;
    let maxVersion = 0;
    for (let i = 0; i < steps; i++, at += 4) {
      const v = view.getUint32(at, true);
      versions[i] = v;
      if (v < minVersion) minVersion = v;
      if (v > maxVersion) maxVersion = v;
    }
    if (observations !== undefined) {
      for (let i = 0; i < observations.length; i++, at += 8) {
        const x = view.getFloat64(at, true);
        if (!Number.isFinite(x))
          throw corrupt(`observation ${x} is not finite`, at, `${place} observations[${i}]`);
        observations[i] = x;
      }
    }
    arena.commit();
    trajectories.push(
      makeTrajectory(
        sequence,
        actions,
        logProbs,
        versions,
        minVersion,
        maxVersion,
        ret,
        observations,
        observationSize,
        metadata,
      ),
    );
  }
  if (at !== end) throw corrupt(`${end - at} unread bytes after the last record`, at, 'body end');
  return {
    capacity,
    maxVersionLag: lagFlag === 1 ? lag : undefined,
    pushedCount,
    evictedCount,
    trajectories,
  };
}
