import { describe, expect, it } from 'vitest';
import { expectedColumns, expectStored, readColumns } from '../test/arbitraries.js';
import { MAX_CAPACITY } from './pool-state.js';
import { ReplayPool } from './replay-pool.js';
import { INLINE_BYTES, SLOT_STRIDE } from './slot-blocks.js';
import type { TrajectoryInput } from './trajectory-input.js';

/** A trajectory of `steps` steps with `d` values per observation (none for d = 0), all fields distinct. */
function input(steps: number, d: number, tag: number): TrajectoryInput {
  return {
    actions: Array.from({ length: steps }, (_, t) => tag * 10 + t),
    logProbs: Array.from({ length: steps }, (_, t) => -(tag + t / 8)),
    versions: Array.from({ length: steps }, (_, t) => tag + t),
    return: tag / 4,
    ...(d === 0 ? {} : { observations: Array.from({ length: steps * d }, (_, i) => tag + i / 16) }),
  };
}

describe('small blocks kept in the slot table', () => {
  // Block bytes 8·T·(2 + d): (T, d) = (1, 1) is the largest inline one (24 bytes), (1, 2) and (2, 0) the
  // smallest that go to the arena (32 bytes).
  const shapes: [number, number][] = [
    [1, 0],
    [1, 1],
    [1, 2],
    [2, 0],
    [2, 1],
    [3, 2],
  ];

  it('reads back every shape at the 24-byte boundary, side by side, through columns and records', () => {
    expect(INLINE_BYTES).toBe(24);
    const pool = new ReplayPool({ capacity: shapes.length });
    const inputs = shapes.map(([steps, d], k) => input(steps, d, k + 1));
    for (const t of inputs) pool.push(t);
    inputs.forEach((t, position) => {
      expect(readColumns(pool.columnsAt(position))).toEqual(expectedColumns(t));
      expectStored(pool.at(position), t, position);
    });
  });

  it('copies the words of a small block exactly, also those that read as a NaN double', () => {
    // One step, no observation: log-prob, then action and version side by side; version 0xfff80001 above
    // action 0x7ff80001 is the bit pattern of a NaN, which a copy through doubles may change.
    const pool = new ReplayPool({ capacity: 2 });
    const t = { actions: [0x7ff8_0001], logProbs: [-0.25], versions: [0xfff8_0001], return: 1 };
    pool.push(t);
    pool.push(t);
    for (const position of [0, 1]) {
      expect(readColumns(pool.columnsAt(position))).toEqual(expectedColumns(t));
      expectStored(pool.at(position), t, position);
    }
  });

  it('leaves the oldest trajectory of a full pool untouched when a push is refused half-way', () => {
    // The bad version is found after the actions and log-probabilities were written: to the spare entry,
    // never to the slot of the trajectory the push would evict.
    for (const [steps, d] of shapes) {
      const pool = new ReplayPool({ capacity: 1 });
      const held = input(steps, d, 3);
      pool.push(held);
      const before = pool.toBytes();
      const bad = { ...input(steps, d, 5), versions: Array.from({ length: steps }, () => -1) };
      expect(() => pool.push(bad)).toThrow(RangeError);
      expect(pool.toBytes()).toEqual(before);
      expect(readColumns(pool.columnsAt(0))).toEqual(expectedColumns(held));
    }
  });

  it('keeps the record of an evicted small trajectory intact after its slot is reused', () => {
    const pool = new ReplayPool({ capacity: 2 });
    const first = input(1, 1, 7);
    pool.push(first);
    const record = pool.at(0);
    for (let k = 0; k < 5; k++) pool.push(input(1, 1, 20 + k));
    expectStored(record, first, 0);
  });

  it('keeps the slot table of the largest capacity within what one typed array can view', () => {
    // V8 (Node 20) refuses a typed array of 2^32 bytes or more: the entries of 2^26 slots must stay below.
    expect(4 * SLOT_STRIDE * MAX_CAPACITY).toBeLessThan(2 ** 32);
  });

  it('never keeps a multi-version trajectory inline (its version sum reads the arena)', () => {
    // Two steps without observations take 8 · 2 · 2 = 32 bytes, more than an entry holds.
    expect(INLINE_BYTES).toBeLessThan(32);
    const pool = new ReplayPool({ capacity: 2 });
    pool.push({ actions: [0, 1], logProbs: [-1, -1], versions: [3, 7], return: 0 });
    pool.push({ actions: [0], logProbs: [-1], versions: [9], return: 0 });
    // Step ages at version 10: 7, 3 and 1.
    expect(pool.staleness(10).stepAge.mean).toBe(11 / 3);
    pool.push({ actions: [1], logProbs: [-1], versions: [10], return: 0 });
    expect(pool.staleness(10).stepAge.mean).toBe(0.5);
  });
});
