import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { expectStored, referenceStaleness, trajectoryInput } from '../test/arbitraries.js';
import { PoolError } from './pool-error.js';
import { ReplayPool } from './replay-pool.js';
import type { TrajectoryInput } from './trajectory-input.js';

const step = (ret: number, versions: TrajectoryInput['versions'] = 0, steps = 1): TrajectoryInput => ({
  actions: Array.from({ length: steps }, (_, i) => i),
  logProbs: Array.from({ length: steps }, () => -0.5),
  versions,
  return: ret,
});

/** Everything observable about a pool, to show that a refused call changed nothing. */
function observe(pool: ReplayPool) {
  return {
    size: pool.size,
    capacity: pool.capacity,
    maxVersionLag: pool.maxVersionLag,
    pushed: pool.pushedCount,
    evicted: pool.evictedCount,
    returns: Array.from(pool.returns()),
    trajectories: [...pool],
    bytes: pool.toBytes(),
  };
}

describe('ReplayPool', () => {
  it('starts empty with the given capacity and lag bound', () => {
    const pool = new ReplayPool({ capacity: 3, maxVersionLag: 2 });
    expect([pool.size, pool.capacity, pool.maxVersionLag, pool.pushedCount, pool.evictedCount]).toEqual([
      0, 3, 2, 0, 0,
    ]);
    expect(new ReplayPool({ capacity: 1 }).maxVersionLag).toBeUndefined();
  });

  it('keeps the last capacity trajectories in push order and counts evictions', () => {
    const pool = new ReplayPool({ capacity: 3 });
    for (let k = 0; k < 7; k++) expect(pool.push(step(10 + k))).toBe(k);
    expect([pool.size, pool.pushedCount, pool.evictedCount]).toEqual([3, 7, 4]);
    expect([...pool].map((t) => t.sequence)).toEqual([4, 5, 6]);
    expect(Array.from(pool.returns())).toEqual([14, 15, 16]);
    expect(Array.from(pool.returnsView())).toEqual([14, 15, 16]);
    expect(pool.at(0).return).toBe(14);
    expect(pool.at(2).return).toBe(16);
    expect([pool.positionOf(3), pool.positionOf(4), pool.positionOf(6), pool.positionOf(7)]).toEqual([
      -1, 0, 2, -1,
    ]);
  });

  test.prop([fc.integer({ min: 1, max: 9 }), fc.array(trajectoryInput(), { maxLength: 25 })])(
    'stores every trajectory bit for bit and maps sequence ids to positions',
    (capacity, inputs) => {
      const pool = new ReplayPool({ capacity });
      for (const input of inputs) pool.push(input);
      const held = inputs.slice(-capacity);
      const first = inputs.length - held.length;
      expect(pool.size).toBe(held.length);
      held.forEach((input, position) => {
        expectStored(pool.at(position), input, first + position);
        expect(pool.positionOf(first + position)).toBe(position);
      });
      expect(pool.returns()).toEqual(Float64Array.from(held, (t) => t.return));
    },
  );

  it('copies its input, so later changes to the caller arrays do not reach the pool', () => {
    const input = {
      actions: [1, 2],
      logProbs: [-1, -2],
      versions: [3, 4],
      return: 1,
      metadata: { tag: ['a'] },
    };
    const pool = new ReplayPool({ capacity: 2 });
    pool.push(input);
    input.actions[0] = 9;
    input.logProbs[0] = -9;
    input.versions[0] = 9;
    input.metadata.tag[0] = 'b';
    const t = pool.at(0);
    expect([t.actions[0], t.logProbs[0], t.versions[0], t.metadata]).toEqual([1, -1, 3, { tag: ['a'] }]);
    expect(Object.isFrozen(t)).toBe(true);
    expect(Object.isFrozen(t.metadata)).toBe(true);
  });

  it('returns() is a fresh copy, returnsView() a view that a later push overwrites', () => {
    const pool = new ReplayPool({ capacity: 2 });
    pool.push(step(1));
    pool.push(step(2));
    const copy = pool.returns();
    const view = pool.returnsView();
    copy[0] = 99;
    expect(Array.from(pool.returns())).toEqual([1, 2]);
    pool.push(step(3));
    expect(Array.from(copy)).toEqual([99, 2]);
    // The view still covers the old range of the mirrored array: slot 0 now holds the newest return.
    expect(Array.from(view)).toEqual([3, 2]);
    expect(Array.from(pool.returnsView())).toEqual([2, 3]);
  });

  it('fails an iteration that outlives a push', () => {
    const pool = new ReplayPool({ capacity: 3 });
    pool.push(step(1));
    pool.push(step(2));
    const iterator = pool[Symbol.iterator]();
    expect(iterator.next().value?.return).toBe(1);
    pool.push(step(3));
    expect(() => iterator.next()).toThrow(expect.objectContaining({ code: 'POOL_MODIFIED' }));
  });

  it('selectable() keeps trajectories whose oldest step is within maxVersionLag', () => {
    const pool = new ReplayPool({ capacity: 4, maxVersionLag: 2 });
    pool.push(step(1, [3, 6], 2)); // oldest step 3: age 4 at version 7
    pool.push(step(2, 5)); // age 2
    pool.push(step(3, 4)); // age 3
    pool.push(step(4, [6, 7], 2)); // age 1
    const { returns, positions } = pool.selectable(7);
    expect(Array.from(returns)).toEqual([2, 4]);
    expect(Array.from(positions)).toEqual([1, 3]);
    expect(Array.from(positions, (p) => pool.at(p).return)).toEqual(Array.from(returns));
    expect(Array.from(new ReplayPool({ capacity: 2 }).selectable(0).positions)).toEqual([]);
  });

  it('selectable() without a bound offers every trajectory', () => {
    const pool = new ReplayPool({ capacity: 3 });
    for (const v of [0, 5, 1, 2]) pool.push(step(v, v));
    const { returns, positions } = pool.selectable(100);
    expect(Array.from(returns)).toEqual([5, 1, 2]);
    expect(Array.from(positions)).toEqual([0, 1, 2]);
  });

  it('staleness() matches the definitions on a worked example', () => {
    const pool = new ReplayPool({ capacity: 4 });
    pool.push(step(0, [3, 4], 2));
    pool.push(step(0, 5));
    expect(pool.staleness(6)).toEqual({
      currentVersion: 6,
      trajectories: 2,
      distinct: 2,
      steps: 3,
      trajectoryAge: { min: 1, mean: 2, max: 3 },
      stepAge: { min: 1, mean: 2, max: 3 },
      multiVersionShare: 0.5,
    });
  });

  test.prop([
    fc.array(trajectoryInput(), { minLength: 1, maxLength: 12 }),
    fc.array(fc.nat(), { minLength: 1, maxLength: 20 }),
    fc.nat({ max: 5 }),
  ])('staleness() and selectionStaleness() agree with a step-by-step reference', (inputs, picks, ahead) => {
    const pool = new ReplayPool({ capacity: 16 });
    for (const input of inputs) pool.push(input);
    const newest = Math.max(...[...pool].map((t) => t.maxVersion));
    const current = newest + ahead;
    expect(pool.staleness(current)).toEqual({
      currentVersion: current,
      distinct: inputs.length,
      ...referenceStaleness(inputs, current),
    });
    // Refilling an earlier result (of another pool, at another version) gives the same numbers.
    const other = new ReplayPool({ capacity: 2 });
    other.push(step(0, [1, 7], 2));
    const out = other.staleness(9);
    expect(pool.staleness(current, out)).toBe(out);
    expect(out).toEqual(pool.staleness(current));
    const positions = picks.map((p) => p % inputs.length);
    expect(pool.selectionStaleness(positions, current)).toEqual({
      currentVersion: current,
      distinct: new Set(positions).size,
      ...referenceStaleness(
        positions.map((p) => inputs[p]!),
        current,
      ),
    });
  });
});

describe('ReplayPool bad input', () => {
  it('rejects an out for staleness() that is not a Staleness, leaving it unchanged', () => {
    const pool = new ReplayPool({ capacity: 2 });
    pool.push(step(0, 3));
    const partial = { trajectoryAge: { min: 0, mean: 0, max: 0 } };
    for (const out of [null, 5, {}, partial]) {
      expect(() => pool.staleness(4, out as never)).toThrow(
        /out must be a Staleness an earlier call returned \(with trajectoryAge and stepAge objects\)/,
      );
    }
    expect(partial).toEqual({ trajectoryAge: { min: 0, mean: 0, max: 0 } });
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '4', 2 ** 26 + 1])(
    'refuses capacity %s',
    (capacity) => {
      expect(() => new ReplayPool({ capacity: capacity as number })).toThrow(
        new RangeError(
          `capacity must be an integer in [1, 67108864], got ${typeof capacity === 'string' ? '"4"' : capacity}`,
        ),
      );
    },
  );

  it('refuses a missing options object and a bad maxVersionLag', () => {
    expect(() => new ReplayPool(undefined as never)).toThrow(TypeError);
    expect(() => new ReplayPool({ capacity: 2, maxVersionLag: -1 })).toThrow(
      'maxVersionLag must be an integer in [0, 4294967295], got -1',
    );
    expect(() => new ReplayPool({ capacity: 2, maxVersionLag: 0.5 })).toThrow(RangeError);
  });

  const good: TrajectoryInput = {
    actions: [0, 1, 2],
    logProbs: [-1, -2, -0],
    versions: [1, 1, 2],
    return: 3,
  };
  const cases: [string, Record<string, unknown>, ErrorConstructor, string][] = [
    [
      'a non-finite return',
      { return: Number.NaN },
      RangeError,
      'trajectory.return must be a finite number, got NaN',
    ],
    ['an infinite return', { return: Number.POSITIVE_INFINITY }, RangeError, 'got Infinity'],
    [
      'a missing return',
      { return: undefined },
      RangeError,
      'trajectory.return must be a finite number, got undefined',
    ],
    [
      'logProbs shorter than actions',
      { logProbs: [-1, -2] },
      RangeError,
      'trajectory.logProbs must have one entry per step (3, the length of actions), got length 2',
    ],
    [
      'versions longer than actions',
      { versions: [1, 1, 1, 1] },
      RangeError,
      'trajectory.versions must have one entry per step',
    ],
    [
      'observations not a multiple of the steps',
      { observations: [1, 2, 3, 4] },
      RangeError,
      'positive multiple of 3), got length 4',
    ],
    [
      'a negative version',
      { versions: [1, -1, 2] },
      RangeError,
      'trajectory.versions[1] must be an integer in [0, 4294967295], got -1',
    ],
    [
      'a non-integer version',
      { versions: [1, 1.5, 2] },
      RangeError,
      'trajectory.versions[1] must be an integer in [0, 4294967295], got 1.5',
    ],
    [
      'a negative single version',
      { versions: -3 },
      RangeError,
      'trajectory.versions must be an integer in [0, 4294967295] or one per step, got -3',
    ],
    ['a non-integer single version', { versions: 2.5 }, RangeError, 'got 2.5'],
    ['a version above 2^32 - 1', { versions: 2 ** 32 }, RangeError, 'got 4294967296'],
    [
      'a log-probability above 0',
      { logProbs: [-1, 0.25, -1] },
      RangeError,
      'trajectory.logProbs[1] must be a finite log-probability <= 0, got 0.25',
    ],
    [
      'a NaN log-probability',
      { logProbs: [-1, -1, Number.NaN] },
      RangeError,
      'trajectory.logProbs[2] must be a finite log-probability <= 0, got NaN',
    ],
    [
      'a -Infinity log-probability',
      { logProbs: [Number.NEGATIVE_INFINITY, -1, -1] },
      RangeError,
      'got -Infinity',
    ],
    [
      'a string log-probability',
      { logProbs: ['-1', -1, -1] },
      RangeError,
      'trajectory.logProbs[0] must be a finite log-probability <= 0, got "-1"',
    ],
    [
      'a negative action',
      { actions: [0, -1, 2] },
      RangeError,
      'trajectory.actions[1] must be an integer in [0, 2147483647], got -1',
    ],
    ['a fractional action', { actions: [0, 1, 0.5] }, RangeError, 'got 0.5'],
    ['an action above 2^31 - 1', { actions: [2 ** 31, 1, 1] }, RangeError, 'got 2147483648'],
    [
      'no steps',
      { actions: [], logProbs: [], versions: [] },
      RangeError,
      'trajectory.actions must hold at least one step, got length 0',
    ],
    [
      'actions that are not an array',
      { actions: 'abc' },
      TypeError,
      'trajectory.actions must be an array or typed array of numbers, got "abc"',
    ],
    [
      'logProbs that are not an array',
      { logProbs: null },
      TypeError,
      'trajectory.logProbs must be an array or typed array of numbers, got null',
    ],
    [
      'versions that are not an array',
      { versions: { length: -1 } },
      TypeError,
      'trajectory.versions must be an array',
    ],
    [
      'an infinite observation',
      { observations: [0, 1, Number.POSITIVE_INFINITY] },
      RangeError,
      'trajectory.observations[2] must be a finite number, got Infinity',
    ],
    [
      'metadata that is not JSON',
      { metadata: { when: new Date(0) } },
      TypeError,
      'trajectory.metadata.when must be a plain object to be JSON, got a Date',
    ],
  ];

  it.each(cases)(
    'refuses %s with a clear error and leaves the pool unchanged',
    (_, change, Type, message) => {
      const pool = new ReplayPool({ capacity: 2 });
      pool.push(good);
      pool.push({ ...good, return: -0 });
      pool.push({ ...good, return: 5 });
      const before = observe(pool);
      const bad = { ...good, ...change } as TrajectoryInput;
      expect(() => pool.push(bad)).toThrow(Type);
      expect(() => pool.push(bad)).toThrow(message);
      expect(observe(pool)).toEqual(before);
    },
  );

  it('refuses a trajectory that is not an object', () => {
    const pool = new ReplayPool({ capacity: 2 });
    expect(() => pool.push(null as never)).toThrow(new TypeError('trajectory must be an object, got null'));
    expect(pool.pushedCount).toBe(0);
  });

  it('refuses a position outside the pool', () => {
    const pool = new ReplayPool({ capacity: 2 });
    pool.push(good);
    for (const position of [-1, 1, 0.5, Number.NaN]) {
      expect(() => pool.at(position)).toThrow(RangeError);
    }
    expect(() => pool.at(1)).toThrow('position must be an integer in [0, 1), got 1');
  });

  it('refuses a current version older than the newest held, or not an integer', () => {
    const pool = new ReplayPool({ capacity: 3 });
    pool.push(good);
    const before = observe(pool);
    const message = 'currentVersion must be >= 2, the newest policy version';
    expect(() => pool.selectable(1)).toThrow(message);
    expect(() => pool.staleness(1)).toThrow(message);
    expect(() => pool.selectionStaleness([0], 1)).toThrow(message);
    for (const v of [-1, 1.5, Number.NaN, 2 ** 32]) {
      expect(() => pool.staleness(v)).toThrow('currentVersion must be an integer in [0, 4294967295]');
      expect(() => pool.selectable(v)).toThrow(RangeError);
      expect(() => pool.selectionStaleness([0], v)).toThrow(RangeError);
    }
    expect(observe(pool)).toEqual(before);
  });

  it('reports EMPTY_POOL for the staleness of an empty pool', () => {
    const pool = new ReplayPool({ capacity: 3 });
    for (const call of [() => pool.staleness(0), () => pool.selectionStaleness([0], 0)]) {
      expect(call).toThrow(PoolError);
      expect(call).toThrow(expect.objectContaining({ code: 'EMPTY_POOL', offset: undefined }));
    }
  });

  it('refuses selections that are empty, not arrays, or point outside the pool', () => {
    const pool = new ReplayPool({ capacity: 3 });
    pool.push(good);
    pool.push(good);
    expect(() => pool.selectionStaleness([], 2)).toThrow(
      new RangeError('positions must hold at least one position, got an empty array'),
    );
    expect(() => pool.selectionStaleness(3 as never, 2)).toThrow(TypeError);
    expect(() => pool.selectionStaleness([0, 2], 2)).toThrow(
      'positions[1] must be an integer in [0, 2), got 2',
    );
    expect(() => pool.selectionStaleness([0, -1], 2)).toThrow(RangeError);
    expect(() => pool.selectionStaleness([0.5], 2)).toThrow(RangeError);
  });
});
