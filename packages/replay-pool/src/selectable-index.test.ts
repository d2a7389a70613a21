import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { referenceStaleness } from '../test/arbitraries.js';
import { ReplayPool } from './replay-pool.js';
import type { TrajectoryInput } from './trajectory-input.js';

/** One training step: push trajectories acted on by recent versions, then maybe advance the version. */
const stepArb = fc.record({
  /** Versions behind the current one of each step of the pushed trajectory (an asynchronous actor). */
  behind: fc.array(fc.nat({ max: 4 }), { minLength: 1, maxLength: 3 }),
  ret: fc.integer({ min: -5, max: 5 }),
  advance: fc.nat({ max: 3 }),
});

describe('ReplayPool.selectableIndex', () => {
  test.prop([
    fc.integer({ min: 1, max: 12 }),
    fc.option(fc.nat({ max: 5 }), { nil: undefined }),
    fc.array(stepArb, { maxLength: 80 }),
  ])(
    'holds exactly the trajectories within the lag as the version advances (and staleness matches a recount)',
    (capacity, lag, steps) => {
      const pool = new ReplayPool({ capacity, maxVersionLag: lag });
      const held: TrajectoryInput[] = [];
      let version = 4;
      for (const step of steps) {
        const input: TrajectoryInput = {
          actions: step.behind.map(() => 0),
          logProbs: step.behind.map(() => -1),
          versions: step.behind.map((b) => version - b),
          return: step.ret,
        };
        pool.push(input);
        held.push(input);
        if (held.length > capacity) held.shift();
        version += step.advance;
        const index = pool.selectableIndex(version);
        const expected = held.flatMap((t, p) =>
          lag === undefined || version - Math.min(...(t.versions as number[])) <= lag ? [p] : [],
        );
        const positions = Array.from({ length: index.size }, (_, k) => index.positionAt(k));
        expect([...positions].sort((a, b) => a - b)).toEqual(expected);
        positions.forEach((p, k) => {
          expect(index.returnAt(k)).toBe(held[p]!.return);
        });
        expect(pool.staleness(version)).toEqual({
          currentVersion: version,
          distinct: held.length,
          ...referenceStaleness(held, version),
        });
      }
    },
  );

  it('lets a whole version of trajectories age out at once', () => {
    const pool = new ReplayPool({ capacity: 8, maxVersionLag: 1 });
    for (const v of [0, 0, 0, 1, 1, 2]) pool.push({ actions: [0], logProbs: [-1], versions: v, return: v });
    expect(pool.selectableIndex(2).size).toBe(3);
    expect(pool.selectableIndex(3).size).toBe(1);
    expect(pool.selectableIndex(9).size).toBe(0);
    // Going back in time rebuilds the set.
    expect(pool.selectableIndex(2).size).toBe(3);
  });

  it('refuses a version older than one held, like selectable', () => {
    const pool = new ReplayPool({ capacity: 2 });
    pool.push({ actions: [0], logProbs: [-1], versions: 5, return: 0 });
    expect(() => pool.selectableIndex(4)).toThrow(
      'currentVersion must be >= 5, the newest policy version in the pool, got 4',
    );
    expect(() => pool.selectableIndex(-1)).toThrow(RangeError);
  });
});
