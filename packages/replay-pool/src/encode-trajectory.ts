import { ColumnArena } from './column-arena.js';
import { crc32 } from './crc32.js';
import { createTrajectory } from './create-trajectory.js';
import type { TrajectoryInput } from './trajectory-input.js';

/**
 * Version of the one-trajectory byte format that {@link encodeTrajectory} writes and
 * `decodeTrajectory` reads. A reader refuses any other version rather than guess.
 *
 * @example
 * ```ts
 * console.log(TRAJECTORY_FORMAT_VERSION); // 1
 * ```
 */
export const TRAJECTORY_FORMAT_VERSION = 1;

/** The 4 magic bytes `\x89FTR` (FTW trajectory record); the high first byte catches 7-bit transfers. */
export const TRAJECTORY_MAGIC: readonly number[] = [0x89, 0x46, 0x54, 0x52];
/** Header: magic (4), format version u32 at 4, body length u32 at 8, body CRC-32 at 12. */
export const TRAJECTORY_HEADER_BYTES = 16;
/** Body prefix: steps u32, observation size u32, return f64, metadata length u32 (0xFFFFFFFF: none). */
export const TRAJECTORY_PREFIX_BYTES = 20;
/** Metadata length that marks absent metadata. */
export const TRAJECTORY_NO_METADATA = 0xffff_ffff;

// Validation goes through the pool's own createTrajectory, so a trajectory encodes if and only if the
// pool would accept it. Its columns land in this scratch arena and are dropped after the copy.
const scratch = new ColumnArena();
const encoder = new TextEncoder();

/**
 * Encodes one trajectory as self-contained bytes, for a message queue or a Redis stream entry: a
 * 16-byte header (magic, format version, body length, CRC-32 of the body), then steps, observation
 * size, return, metadata as JSON text, and the columns log-probabilities f64[T], observations f64[T·d],
 * actions i32[T], versions u32[T], all little-endian. Floats are copied as raw IEEE-754 bits, so `-0`
 * and every digit survive; metadata goes through JSON as in {@link ReplayPool.push}.
 *
 * The input is validated exactly as {@link ReplayPool.push} validates it.
 *
 * @param trajectory - a trajectory (see {@link TrajectoryInput}; a stored `Trajectory` also works)
 * @returns a new `Uint8Array` of 16 + 20 + metadata + 16·T + 8·T·d bytes
 * @throws TypeError or RangeError naming the offending field, as {@link ReplayPool.push}; RangeError
 *   when the encoding would exceed 2^32 − 1 bytes
 * @example
 * ```ts
 * const bytes = encodeTrajectory({ actions: [2, 0], logProbs: [-0.1, -1.6], versions: [4, 5], return: 1 });
 * console.log(bytes.length); // 68
 * console.log(decodeTrajectory(bytes).versions); // Uint32Array(2) [ 4, 5 ]
 * ```
 */
export function encodeTrajectory(trajectory: TrajectoryInput): Uint8Array {
  const t = createTrajectory(trajectory, 0, scratch);
  const steps = t.length;
  const observationSize = t.observationSize;
  const metadata = t.metadata === undefined ? undefined : encoder.encode(JSON.stringify(t.metadata));
  const metadataLength = metadata?.length ?? 0;
  const bodyLength = TRAJECTORY_PREFIX_BYTES + metadataLength + 16 * steps + 8 * steps * observationSize;
  if (bodyLength > 0xffff_ffff) {
    throw new RangeError(`trajectory must encode to at most 2^32 - 1 bytes, got ${bodyLength}`);
  }
  const out = new Uint8Array(TRAJECTORY_HEADER_BYTES + bodyLength);
  const view = new DataView(out.buffer);

  let at = TRAJECTORY_HEADER_BYTES;
  view.setUint32(at, steps, true);
  view.setUint32(at + 4, observationSize, true);
  view.setFloat64(at + 8, t.return, true);
  view.setUint32(at + 16, metadata === undefined ? TRAJECTORY_NO_METADATA : metadataLength, true);
  at += TRAJECTORY_PREFIX_BYTES;
  if (metadata !== undefined) {
    out.set(metadata, at);
    at += metadataLength;
  }
  const { logProbs, observations, actions, versions } = t;
  for (let i = 0; i < steps; i++, at += 8) view.setFloat64(at, logProbs[i]!, true);
  if (observations !== undefined) {
    for (let i = 0; i < observations.length; i++, at += 8) view.setFloat64(at, observations[i]!, true);
  }
  for (let i = 0; i < steps; i++, at += 4) view.setInt32(at, actions[i]!, true);
  for (let i = 0; i < steps; i++, at += 4) view.setUint32(at, versions[i]!, true);

  out.set(TRAJECTORY_MAGIC, 0);
  view.setUint32(4, TRAJECTORY_FORMAT_VERSION, true);
  view.setUint32(8, bodyLength, true);
  view.setUint32(12, crc32(out, TRAJECTORY_HEADER_BYTES, out.length), true);
  return out;
}
