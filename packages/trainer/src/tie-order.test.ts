import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { orderByLength, orderTies } from './tie-order.js';

const returnsArb = fc
  .array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 40 })
  .map((xs) => Float64Array.from(xs));

describe('orderTies', () => {
  it('prefers the newest among ties, or the oldest', () => {
    expect(Array.from(orderTies(Float64Array.of(1, 0, 1), 'newest', null).values)).toEqual([1, 0, 2]);
    expect(Array.from(orderTies(Float64Array.of(1, 0, 1), 'oldest', null).values)).toEqual([2, 0, 1]);
  });

  test.prop([returnsArb, fc.constantFrom('newest' as const, 'oldest' as const)])(
    'keeps every strict order between returns and makes all values distinct',
    (returns, rule) => {
      const { values } = orderTies(returns, rule, null);
      expect(new Set(values).size).toBe(returns.length);
      for (let i = 0; i < returns.length; i++) {
        for (let j = 0; j < returns.length; j++) {
          if (returns[i]! < returns[j]!) expect(values[i]!).toBeLessThan(values[j]!);
          if (returns[i] === returns[j] && i < j) {
            expect(values[i]! < values[j]!).toBe(rule === 'newest');
          }
        }
      }
    },
  );

  test.prop([
    returnsArb,
    fc.constantFrom('newest' as const, 'oldest' as const),
    fc.double({ min: -1, max: 4, noNaN: true }),
  ])('keeps exactly the items above the threshold eligible', (returns, rule, threshold) => {
    const ordered = orderTies(returns, rule, threshold);
    for (let i = 0; i < returns.length; i++) {
      expect(ordered.values[i]! > ordered.threshold!).toBe(returns[i]! > threshold);
    }
  });
});

describe('orderByLength', () => {
  it('ranks by return, then the shorter (longer) episode first, equal pairs together', () => {
    const returns = Float64Array.of(1, 1, 0, 1);
    const lengths = Float64Array.of(4, 2, 3, 4);
    expect(Array.from(orderByLength(returns, lengths, 'shortest', null).values)).toEqual([1, 2, 0, 1]);
    expect(Array.from(orderByLength(returns, lengths, 'longest', null).values)).toEqual([2, 1, 0, 2]);
  });

  const pairsArb = fc
    .array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 4 })), {
      minLength: 1,
      maxLength: 40,
    })
    .map((pairs) => ({
      returns: Float64Array.from(pairs, ([r]) => r),
      lengths: Float64Array.from(pairs, ([, l]) => l),
    }));

  test.prop([pairsArb, fc.constantFrom('shortest' as const, 'longest' as const)])(
    'orders as (return, then length) says, and ties exactly the equal pairs',
    ({ returns, lengths }, rule) => {
      const { values } = orderByLength(returns, lengths, rule, null);
      const better = (i: number, j: number) =>
        returns[i]! > returns[j]! ||
        (returns[i] === returns[j] &&
          (rule === 'shortest' ? lengths[i]! < lengths[j]! : lengths[i]! > lengths[j]!));
      for (let i = 0; i < returns.length; i++) {
        for (let j = 0; j < returns.length; j++) {
          if (better(i, j)) expect(values[i]!).toBeGreaterThan(values[j]!);
          if (!better(i, j) && !better(j, i)) expect(values[i]).toBe(values[j]);
        }
      }
    },
  );

  test.prop([
    pairsArb,
    fc.constantFrom('shortest' as const, 'longest' as const),
    fc.double({ min: -1, max: 4, noNaN: true }),
  ])('keeps exactly the items above the threshold eligible', ({ returns, lengths }, rule, threshold) => {
    const ordered = orderByLength(returns, lengths, rule, threshold);
    for (let i = 0; i < returns.length; i++) {
      expect(ordered.values[i]! > ordered.threshold!).toBe(returns[i]! > threshold);
    }
  });
});
