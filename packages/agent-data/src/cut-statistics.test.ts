import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { cutTieProbability, shortfallProbability } from './cut-statistics.js';

/** Every C-subset of 0..n−1 (the reference enumerates the minibatches; no formula shared with the code). */
function* subsets(n: number, c: number, start = 0, prefix: number[] = []): Generator<number[]> {
  if (prefix.length === c) {
    yield prefix;
    return;
  }
  for (let i = start; i <= n - (c - prefix.length); i++) yield* subsets(n, c, i + 1, [...prefix, i]);
}

const sizes = fc
  .integer({ min: 2, max: 9 })
  .chain((n) =>
    fc
      .integer({ min: 1, max: n })
      .chain((c) => fc.tuple(fc.constant(n), fc.constant(c), fc.integer({ min: 1, max: c }))),
  );

describe('cutTieProbability', () => {
  test.prop([
    sizes,
    fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 9, maxLength: 9 }),
    fc.option(fc.constantFrom(-1, 0, 0.5, 1, 2, 3), { nil: undefined }),
  ])(
    'equals the share of all C-subsets whose K-th and (K+1)-th largest values are equal (and above the threshold)',
    ([n, c, k], pool, threshold) => {
      const values = pool.slice(0, n);
      let tied = 0;
      let total = 0;
      for (const s of subsets(n, c)) {
        total++;
        const batch = s.map((i) => values[i]!).sort((a, b) => b - a);
        if (k < c && batch[k - 1] === batch[k] && (threshold === undefined || batch[k]! > threshold)) tied++;
      }
      expect(cutTieProbability(values, c, k, threshold)).toBeCloseTo(tied / total, 12);
    },
  );
});

describe('shortfallProbability', () => {
  test.prop([sizes, fc.integer({ min: 0, max: 9 })])(
    'equals the share of C-subsets holding fewer than K of the s successes',
    ([n, c, k], s0) => {
      const s = Math.min(s0, n);
      let short = 0;
      let total = 0;
      for (const subset of subsets(n, c)) {
        total++;
        if (subset.filter((i) => i < s).length < k) short++;
      }
      expect(shortfallProbability(n, s, c, k)).toBeCloseTo(short / total, 12);
    },
  );
});
