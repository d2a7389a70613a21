import type { PolicyLoader } from '@ftw/redis-pool';

/** Bytes before a delta's entries: u32 P (θ's length), u32 R (entries). */
const DELTA_HEADER = 8;

/**
 * θ as published whole: its `P` values as little-endian f64, `8 P` bytes.
 *
 * @param theta - the parameters
 * @returns a new byte array
 * @example
 * ```ts
 * encodeTheta(Float64Array.of(1, -1)).length; // 16
 * ```
 */
export function encodeTheta(theta: Float64Array): Uint8Array {
  const bytes = new Uint8Array(8 * theta.length);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < theta.length; i++) view.setFloat64(8 * i, theta[i]!, true);
  return bytes;
}

/**
 * Decodes {@link encodeTheta}'s bytes.
 *
 * @param bytes - `8 P` bytes
 * @returns θ, a new array
 * @throws RangeError when the length is not a multiple of 8
 * @example
 * ```ts
 * decodeTheta(encodeTheta(Float64Array.of(1, -1))); // Float64Array [1, -1]
 * ```
 */
export function decodeTheta(bytes: Uint8Array): Float64Array {
  if (bytes.length % 8 !== 0) {
    throw new RangeError(`a published θ has a multiple of 8 bytes, got ${bytes.length}`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const theta = new Float64Array(bytes.length / 8);
  for (let i = 0; i < theta.length; i++) theta[i] = view.getFloat64(8 * i, true);
  return theta;
}

/**
 * The entries of θ that differ from `previous` (bit for bit, so −0 and NaN payloads count), as a delta:
 * u32 P, u32 R, then R entries of a u32 index and an f64 value, little-endian, `8 + 12 R` bytes. Indices
 * at or beyond `previous.length` are listed when nonzero (θ grew; grown entries start at 0).
 *
 * @param previous - θ of the version published before
 * @param theta - θ now, at least as long
 * @returns the delta
 * @throws RangeError when θ is shorter than `previous`
 * @example
 * ```ts
 * encodeThetaDelta(Float64Array.of(0, 0, 0), Float64Array.of(0, 2, 0)).length; // 20: one entry
 * ```
 */
export function encodeThetaDelta(previous: Float64Array, theta: Float64Array): Uint8Array {
  if (theta.length < previous.length) {
    throw new RangeError(`theta must not shrink: ${previous.length} parameters before, got ${theta.length}`);
  }
  const changed: number[] = [];
  for (let i = 0; i < theta.length; i++) {
    const before = i < previous.length ? previous[i]! : 0;
    if (!Object.is(before, theta[i]!)) changed.push(i);
  }
  const bytes = new Uint8Array(DELTA_HEADER + 12 * changed.length);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, theta.length, true);
  view.setUint32(4, changed.length, true);
  for (let r = 0; r < changed.length; r++) {
    const at = DELTA_HEADER + 12 * r;
    view.setUint32(at, changed[r]!, true);
    view.setFloat64(at + 4, theta[changed[r]!]!, true);
  }
  return bytes;
}

/**
 * Applies an {@link encodeThetaDelta} to θ of the version before it.
 *
 * @param theta - θ of the version the delta follows
 * @param bytes - the delta
 * @returns θ of the delta's version: `theta` itself, changed in place, when its length did not change;
 *   otherwise a new array
 * @throws RangeError when the bytes are not such a delta, would shrink θ, or index outside it; nothing is
 *   changed then
 * @example
 * ```ts
 * applyThetaDelta(Float64Array.of(0, 0, 0), encodeThetaDelta(Float64Array.of(0, 0, 0), Float64Array.of(0, 2, 0))); // [0, 2, 0]
 * ```
 */
export function applyThetaDelta(theta: Float64Array, bytes: Uint8Array): Float64Array {
  if (bytes.length < DELTA_HEADER) {
    throw new RangeError(`a θ delta has at least ${DELTA_HEADER} bytes, got ${bytes.length}`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = view.getUint32(0, true);
  const R = view.getUint32(4, true);
  if (bytes.length !== DELTA_HEADER + 12 * R) {
    throw new RangeError(`a θ delta of ${R} entries has ${DELTA_HEADER + 12 * R} bytes, got ${bytes.length}`);
  }
  if (size < theta.length) {
    throw new RangeError(`a θ delta has ${size} parameters, fewer than the ${theta.length} held`);
  }
  for (let r = 0; r < R; r++) {
    const index = view.getUint32(DELTA_HEADER + 12 * r, true);
    if (index >= size)
      throw new RangeError(`a θ delta writes index ${index}, outside its ${size} parameters`);
  }
  let out = theta;
  if (size !== theta.length) {
    out = new Float64Array(size);
    out.set(theta);
  }
  for (let r = 0; r < R; r++) {
    const at = DELTA_HEADER + 12 * r;
    out[view.getUint32(at, true)] = view.getFloat64(at + 4, true);
  }
  return out;
}

/**
 * The `PolicyFollower` loader of θ published by a {@link PolicyPublisher} with the default
 * {@link thetaCodec}: snapshots through {@link decodeTheta}, deltas through {@link applyThetaDelta}.
 *
 * @example
 * ```ts
 * const follower = new PolicyFollower(pool, 'step', { loader: thetaLoader, notify: true });
 * ```
 */
export const thetaLoader: PolicyLoader<Float64Array> = {
  snapshot: (bytes) => decodeTheta(bytes),
  delta: (theta, bytes) => applyThetaDelta(theta, bytes),
};
