import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { expectStored, trajectoryInput } from '../test/arbitraries.js';
import { crc32 } from './crc32.js';
import { decodeTrajectory } from './decode-trajectory.js';
import { encodeTrajectory, TRAJECTORY_FORMAT_VERSION } from './encode-trajectory.js';
import { PoolError } from './pool-error.js';
import { ReplayPool } from './replay-pool.js';
import type { TrajectoryInput } from './trajectory-input.js';

/** The expected bytes of one trajectory, written field by field from the format's description. */
function referenceBytes(
  actions: number[],
  logProbs: number[],
  versions: number[],
  ret: number,
  observations: number[],
  metadata: string | undefined,
): Uint8Array {
  const steps = actions.length;
  const meta = metadata === undefined ? [] : [...Buffer.from(metadata, 'utf8')];
  const body: number[] = [];
  const push = (write: (v: DataView) => void, size: number) => {
    const b = new Uint8Array(size);
    write(new DataView(b.buffer));
    body.push(...b);
  };
  push((v) => v.setUint32(0, steps, true), 4);
  push((v) => v.setUint32(0, observations.length / steps, true), 4);
  push((v) => v.setFloat64(0, ret, true), 8);
  push((v) => v.setUint32(0, metadata === undefined ? 0xffffffff : meta.length, true), 4);
  body.push(...meta);
  for (const p of logProbs) push((v) => v.setFloat64(0, p, true), 8);
  for (const x of observations) push((v) => v.setFloat64(0, x, true), 8);
  for (const a of actions) push((v) => v.setInt32(0, a, true), 4);
  for (const x of versions) push((v) => v.setUint32(0, x, true), 4);
  const out = new Uint8Array(16 + body.length);
  out.set([0x89, 0x46, 0x54, 0x52], 0);
  const view = new DataView(out.buffer);
  view.setUint32(4, 1, true);
  view.setUint32(8, body.length, true);
  out.set(body, 16);
  view.setUint32(12, crc32(out, 16, out.length), true);
  return out;
}

/** Re-seals `bytes` after an edit of the body, so that only field verification can catch it. */
function reseal(bytes: Uint8Array): Uint8Array {
  new DataView(bytes.buffer, bytes.byteOffset).setUint32(12, crc32(bytes, 16, bytes.length), true);
  return bytes;
}

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof PoolError) return error.code;
    throw error;
  }
  return 'none';
}

describe('encodeTrajectory', () => {
  it('writes the documented layout byte for byte', () => {
    const bytes = encodeTrajectory({
      actions: [2, 0],
      logProbs: [-0.1, -0],
      versions: [4, 5],
      return: -0,
      observations: [1.5, -2, 3, 4],
      metadata: { task: 'maze' },
    });
    expect(bytes).toEqual(referenceBytes([2, 0], [-0.1, -0], [4, 5], -0, [1.5, -2, 3, 4], '{"task":"maze"}'));
    const plain = encodeTrajectory({ actions: [7], logProbs: [-1], versions: 9, return: 3 });
    expect(plain).toEqual(referenceBytes([7], [-1], [9], 3, [], undefined));
    expect(plain.length).toBe(16 + 20 + 16);
    expect(TRAJECTORY_FORMAT_VERSION).toBe(1);
  });

  test.prop([trajectoryInput({ maxSteps: 8, maxVersion: 0xffff_ffff })])(
    'round-trips every valid trajectory bit for bit (a pool given the decoded copy stores the same)',
    (input) => {
      const decoded = decodeTrajectory(encodeTrajectory(input));
      const pool = new ReplayPool({ capacity: 1 });
      pool.push(decoded);
      expectStored(pool.at(0), input, 0);
      if (decoded.metadata !== undefined) expect(Object.isFrozen(decoded.metadata)).toBe(true);
      expect(encodeTrajectory(decoded)).toEqual(encodeTrajectory(input));
    },
  );

  it('refuses what the pool refuses, with the same message', () => {
    const bad = [
      { actions: [], logProbs: [], versions: 0, return: 0 },
      { actions: [1], logProbs: [0.5], versions: 0, return: 0 },
      { actions: [-1], logProbs: [-1], versions: 0, return: 0 },
      { actions: [1], logProbs: [-1], versions: [1, 2], return: 0 },
      { actions: [1], logProbs: [-1], versions: 0, return: Number.NaN },
      { actions: [1], logProbs: [-1], versions: 0, return: 0, observations: [Number.POSITIVE_INFINITY] },
      { actions: [1], logProbs: [-1], versions: 0, return: 0, metadata: { f: () => 1 } },
      null,
    ];
    for (const value of bad) {
      const input = value as unknown as TrajectoryInput;
      let expected: Error | undefined;
      try {
        new ReplayPool({ capacity: 1 }).push(input);
      } catch (error) {
        expected = error as Error;
      }
      expect(expected).toBeInstanceOf(Error);
      expect(() => encodeTrajectory(input)).toThrow(expected!.message);
      expect(() => encodeTrajectory(input)).toThrow(expected!.constructor as ErrorConstructor);
    }
  });
});

describe('decodeTrajectory', () => {
  const sample = () =>
    encodeTrajectory({
      actions: [3, 1, 4],
      logProbs: [-0.5, -1, -2],
      versions: [6, 6, 7],
      return: 2.5,
      observations: [1, 2, 3],
      metadata: { worker: 3 },
    });

  it('names the failure: magic, version, truncation, trailing bytes', () => {
    const bytes = sample();
    expect(codeOf(() => decodeTrajectory(new Uint8Array(0)))).toBe('SNAPSHOT_TRUNCATED');
    expect(codeOf(() => decodeTrajectory(Uint8Array.from([1, 2, 3, 4, 5])))).toBe('SNAPSHOT_MAGIC');
    const other = bytes.slice();
    other[4] = 2;
    expect(() => decodeTrajectory(other)).toThrow(/trajectory format version 2 is not supported/);
    expect(codeOf(() => decodeTrajectory(other))).toBe('SNAPSHOT_VERSION');
    for (let length = 0; length < bytes.length; length++) {
      expect(codeOf(() => decodeTrajectory(bytes.subarray(0, length)))).toBe('SNAPSHOT_TRUNCATED');
    }
    const longer = new Uint8Array(bytes.length + 1);
    longer.set(bytes);
    expect(codeOf(() => decodeTrajectory(longer))).toBe('SNAPSHOT_CORRUPT');
    expect(() => decodeTrajectory([1, 2] as unknown as Uint8Array)).toThrow(TypeError);
  });

  test.prop([fc.nat(), fc.integer({ min: 0, max: 7 })])('detects every single-bit flip', (at, bit) => {
    const bytes = sample();
    bytes[at % bytes.length]! ^= 1 << bit;
    expect(() => decodeTrajectory(bytes)).toThrow(PoolError);
  });

  it('verifies each field even when the checksum matches', () => {
    const cases: [string, (v: DataView, b: Uint8Array) => void, RegExp][] = [
      ['zero steps', (v) => v.setUint32(16, 0, true), /without steps/],
      ['return', (v) => v.setFloat64(24, Number.NaN, true), /return NaN/],
      ['metadata length', (v) => v.setUint32(32, 1000, true), /metadata runs past/],
      ['metadata text', (_, b) => void (b[36] = 0x20), /metadata is not valid JSON/],
      ['log-probability', (v) => v.setFloat64(48, 0.25, true), /trajectory logProbs\[0\]/],
      ['observation', (v) => v.setFloat64(72 + 8, Number.POSITIVE_INFINITY, true), /observations\[1\]/],
      ['action', (v) => v.setInt32(96, -3, true), /trajectory actions\[0\]/],
      ['observation size', (v) => v.setUint32(20, 2, true), /the columns need/],
    ];
    for (const [, edit, message] of cases) {
      const bytes = sample();
      edit(new DataView(bytes.buffer), bytes);
      reseal(bytes);
      expect(() => decodeTrajectory(bytes)).toThrow(message);
      expect(codeOf(() => decodeTrajectory(bytes))).toBe('SNAPSHOT_CORRUPT');
    }
  });

  it('reads a record at an offset inside a larger buffer', () => {
    const bytes = sample();
    const big = new Uint8Array(bytes.length + 5);
    big.set(bytes, 3);
    expect(decodeTrajectory(big.subarray(3, 3 + bytes.length)).actions).toEqual(Int32Array.from([3, 1, 4]));
  });
});
