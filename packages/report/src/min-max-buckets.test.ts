import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { minMaxBuckets } from './min-max-buckets.js';

/** Written from the definition: bucket b holds indices [floor(b n / B), floor((b + 1) n / B)). */
function reference(values: readonly number[], buckets: number): number[] {
  const n = values.length;
  const finite = values.map((v, i) => [v, i] as const).filter(([v]) => Number.isFinite(v));
  if (n <= 2 * buckets) return finite.map(([, i]) => i);
  if (finite.length === 0) return [];
  const kept = new Set<number>([finite[0]![1], finite[finite.length - 1]![1]]);
  for (let b = 0; b < buckets; b++) {
    const inBucket = finite.filter(
      ([, i]) => i >= Math.floor((b * n) / buckets) && i < Math.floor(((b + 1) * n) / buckets),
    );
    if (inBucket.length === 0) continue;
    const min = Math.min(...inBucket.map(([v]) => v));
    const max = Math.max(...inBucket.map(([v]) => v));
    kept.add(inBucket.find(([v]) => v === min)![1]);
    kept.add(inBucket.find(([v]) => v === max)![1]);
  }
  return [...kept].sort((a, b) => a - b);
}

describe('minMaxBuckets', () => {
  it('keeps the minimum and maximum of each bucket, in order', () => {
    expect(minMaxBuckets([0, 5, 1, 1, 9, 2, 3, 0], 2)).toEqual([0, 1, 4, 7]);
  });

  it('keeps a short curve whole, without its null points', () => {
    expect(minMaxBuckets([1, Number.NaN, 3], 2)).toEqual([0, 2]);
  });

  it('keeps a spike that every-k-th-point thinning would drop', () => {
    const values = Array.from({ length: 10_000 }, (_, i) => (i === 4_321 ? 100 : Math.sin(i / 50)));
    const kept = minMaxBuckets(values, 100);
    expect(kept).toContain(4_321);
    expect(kept.length).toBeLessThanOrEqual(202);
  });

  it('rejects a bucket count that is not a positive integer', () => {
    expect(() => minMaxBuckets([1, 2], 0)).toThrow(/buckets must be an integer >= 1, got 0/);
    expect(() => minMaxBuckets([1, 2], 1.5)).toThrow(RangeError);
  });

  test.prop([
    fc.array(fc.oneof(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.constant(Number.NaN)), {
      maxLength: 300,
    }),
    fc.integer({ min: 1, max: 40 }),
  ])('matches the definition, keeps the global extremes and at most 2 per bucket + 2', (values, buckets) => {
    const kept = minMaxBuckets(values, buckets);
    expect(kept).toEqual(reference(values, buckets));
    expect(kept.length).toBeLessThanOrEqual(Math.max(2 * buckets + 2, 0));
    const finite = values.filter(Number.isFinite);
    if (finite.length > 0) {
      const keptValues = kept.map((i) => values[i]!);
      expect(Math.min(...keptValues)).toBe(Math.min(...finite));
      expect(Math.max(...keptValues)).toBe(Math.max(...finite));
    }
  });
});
