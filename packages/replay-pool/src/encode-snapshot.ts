import { crc32 } from './crc32.js';
import type { PoolState } from './pool-state.js';
import {
  BODY_CRC_OFFSET,
  BODY_LENGTH_OFFSET,
  BODY_PREFIX_BYTES,
  FLAGS_OFFSET,
  HEADER_BYTES,
  HEADER_CRC_OFFSET,
  MAGIC,
  NO_METADATA,
  RECORD_PREFIX_BYTES,
  SNAPSHOT_FORMAT_VERSION,
  STEP_BYTES,
  VERSION_OFFSET,
} from './snapshot-format.js';

const TWO_32 = 2 ** 32;

function setU64(view: DataView, offset: number, value: number): void {
  view.setUint32(offset, value % TWO_32, true);
  view.setUint32(offset + 4, Math.floor(value / TWO_32), true);
}

/**
 * Writes a pool state as snapshot bytes (format in `snapshot-format.ts` and the README). Floats are
 * copied as raw IEEE-754 bits, so `-0` and every last digit survive. Internal.
 *
 * @param state - a valid pool state
 * @returns the whole snapshot, header included
 */
export function encodeSnapshot(state: PoolState): Uint8Array {
  const encoder = new TextEncoder();
  const metadataBytes: (Uint8Array | undefined)[] = [];
  let bodyLength = BODY_PREFIX_BYTES;
  for (const t of state.trajectories) {
    const bytes = t.metadata === undefined ? undefined : encoder.encode(JSON.stringify(t.metadata));
    metadataBytes.push(bytes);
    bodyLength +=
      RECORD_PREFIX_BYTES + (bytes?.length ?? 0) + STEP_BYTES * t.length + 8 * t.length * t.observationSize;
  }

  const out = new Uint8Array(HEADER_BYTES + bodyLength);
  const view = new DataView(out.buffer);
  let at = HEADER_BYTES;
  view.setUint32(at, state.capacity, true);
  view.setUint32(at + 4, state.maxVersionLag === undefined ? 0 : 1, true);
  view.setUint32(at + 8, state.maxVersionLag ?? 0, true);
  view.setUint32(at + 12, state.trajectories.length, true);
  setU64(view, at + 16, state.pushedCount);
  setU64(view, at + 24, state.evictedCount);
  at += BODY_PREFIX_BYTES;

  state.trajectories.forEach((t, k) => {
    const steps = t.length;
    setU64(view, at, t.sequence);
    view.setUint32(at + 8, steps, true);
    view.setUint32(at + 12, t.observationSize, true);
    view.setFloat64(at + 16, t.return, true);
    const metadata = metadataBytes[k];
    view.setUint32(at + 24, metadata === undefined ? NO_METADATA : metadata.length, true);
    at += RECORD_PREFIX_BYTES;
    if (metadata !== undefined) {
      out.set(metadata, at);
      at += metadata.length;
    }
    const { actions, logProbs, versions, observations } = t;
    for (let i = 0; i < steps; i++, at += 4) view.setInt32(at, actions[i]!, true);
    for (let i = 0; i < steps; i++, at += 8) view.setFloat64(at, logProbs[i]!, true);
    for (let i = 0; i < steps; i++, at += 4) view.setUint32(at, versions[i]!, true);
    if (observations !== undefined) {
      for (let i = 0; i < observations.length; i++, at += 8) view.setFloat64(at, observations[i]!, true);
    }
  });

  out.set(MAGIC, 0);
  view.setUint32(VERSION_OFFSET, SNAPSHOT_FORMAT_VERSION, true);
  view.setUint32(FLAGS_OFFSET, 0, true);
  setU64(view, BODY_LENGTH_OFFSET, bodyLength);
  view.setUint32(BODY_CRC_OFFSET, crc32(out, HEADER_BYTES, out.length), true);
  view.setUint32(HEADER_CRC_OFFSET, crc32(out, 0, HEADER_CRC_OFFSET), true);
  return out;
}
