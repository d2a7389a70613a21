import { fc, test } from '@fast-check/vitest';
import { ReplayPool } from '@ftw/replay-pool';
import { expectedCounts } from '@ftw/selection';
import { describe, expect } from 'vitest';
import { ExpectedSelection } from './expected-selection.js';
import { orderByLength, orderTies } from './tie-order.js';

const pushArb = fc.record({
  ret: fc.oneof(fc.integer({ min: -3, max: 3 }), fc.double({ min: -3, max: 3, noNaN: true })),
  behind: fc.nat({ max: 3 }),
  advance: fc.nat({ max: 2 }),
  length: fc.integer({ min: 1, max: 3 }),
});

describe('ExpectedSelection', () => {
  test.prop(
    [
      fc.oneof(fc.integer({ min: 3, max: 16 }), fc.integer({ min: 40, max: 80 })),
      fc.option(fc.nat({ max: 3 }), { nil: undefined }),
      fc.constantFrom('random', 'newest', 'oldest', 'shortest', 'longest'),
      fc.option(fc.integer({ min: -1, max: 1 }), { nil: null }),
      // Mostly a few pushes per update; sometimes a burst (a first fill, a large batch) that re-sorts.
      fc.array(
        fc.oneof(
          { weight: 9, arbitrary: fc.array(pushArb, { minLength: 1, maxLength: 4 }) },
          { weight: 1, arbitrary: fc.array(pushArb, { minLength: 40, maxLength: 60 }) },
        ),
        { minLength: 1, maxLength: 30 },
      ),
    ],
    { numRuns: 200 },
  )(
    "gives @ftw/selection's expectedCounts over the selectable returns after any pushes and evictions",
    (capacity, lag, tieRule, threshold, iterations) => {
      const C = Math.min(3, capacity);
      const options = { batches: 4, batchSize: C, keep: 2, threshold, tieRule } as const;
      const pool = new ReplayPool({ capacity, maxVersionLag: lag });
      const expected = new ExpectedSelection(options, capacity);
      let version = 3;
      for (const pushes of iterations) {
        for (const p of pushes)
          pool.push({
            actions: new Array(p.length).fill(0),
            logProbs: new Array(p.length).fill(-1),
            versions: version - p.behind,
            return: p.ret,
          });
        version += pushes[0]!.advance;
        const { returns, positions } = pool.selectable(version);
        const got = expected.select(pool, version);
        if (returns.length < C) {
          expect(got).toBeNull();
          continue;
        }
        const lengths = Array.from(positions, (position) => pool.columnsAt(position).length);
        const ordered =
          tieRule === 'random'
            ? { values: returns, threshold: threshold ?? undefined }
            : tieRule === 'shortest' || tieRule === 'longest'
              ? orderByLength(returns, lengths, tieRule, threshold)
              : orderTies(returns, tieRule, threshold);
        const reference = expectedCounts(ordered.values, {
          batches: 4,
          batchSize: C,
          keep: 2,
          ...(ordered.threshold === undefined ? {} : { threshold: ordered.threshold }),
        });
        const byPosition = new Map<number, number>();
        for (let i = 0; i < got!.size; i++) byPosition.set(got!.positions[i]!, got!.counts[i]!);
        positions.forEach((position, i) => {
          const want = reference[i]!;
          const have = byPosition.get(position) ?? 0;
          expect(Math.abs(have - want), `position ${position}`).toBeLessThanOrEqual(
            1e-12 * Math.max(1, want),
          );
        });
        expect(byPosition.size).toBe(reference.filter((c) => c > 0).length);
      }
    },
  );
});
