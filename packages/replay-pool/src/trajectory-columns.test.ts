import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { expectedColumns, readColumns, trajectoryInput } from '../test/arbitraries.js';
import { ReplayPool } from './replay-pool.js';
import type { TrajectoryInput } from './trajectory-input.js';

describe('ReplayPool.columnsAt', () => {
  test.prop([fc.array(trajectoryInput(), { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 12 })])(
    'reads what was pushed at every position, across wrap-around, slabs and a snapshot round trip',
    (inputs, capacity) => {
      const pool = new ReplayPool({ capacity });
      for (const input of inputs) pool.push(input);
      const held = inputs.slice(-capacity);
      for (const p of [pool, ReplayPool.fromBytes(pool.toBytes())]) {
        for (let position = 0; position < p.size; position++) {
          expect(readColumns(p.columnsAt(position))).toEqual(expectedColumns(held[position]!));
        }
      }
    },
  );

  it('reads long trajectories held in blocks of their own and short ones side by side', () => {
    const pool = new ReplayPool({ capacity: 3 });
    const long = 5000;
    const inputs: TrajectoryInput[] = [
      { actions: [1], logProbs: [-0.5], versions: 2, return: 1, observations: [7, 8] },
      {
        actions: Array.from({ length: long }, (_, t) => t % 5),
        logProbs: Array.from({ length: long }, (_, t) => -t / long),
        versions: Array.from({ length: long }, (_, t) => 10 + (t >> 10)),
        return: -3,
        observations: Array.from({ length: long }, (_, t) => t),
      },
      { actions: [0, 3], logProbs: [-1, -2], versions: [4, 6], return: 0.25 },
    ];
    for (const input of inputs) pool.push(input);
    inputs.forEach((input, position) => {
      expect(readColumns(pool.columnsAt(position))).toEqual(expectedColumns(input));
    });
  });

  it('rejects a position that is not a held one, naming it', () => {
    const pool = new ReplayPool({ capacity: 4 });
    pool.push({ actions: [0], logProbs: [-1], versions: 0, return: 1 });
    for (const bad of [1, -1, 0.5, Number.NaN, '0' as unknown as number]) {
      expect(() => pool.columnsAt(bad)).toThrow(RangeError);
    }
    expect(() => pool.columnsAt(1)).toThrow('position must be an integer in [0, 1), got 1');
  });
});
