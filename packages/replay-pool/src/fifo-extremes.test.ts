import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { FifoExtremes } from './fifo-extremes.js';

describe('FifoExtremes', () => {
  test.prop([
    fc.array(fc.tuple(fc.boolean(), fc.oneof(fc.integer({ min: 0, max: 20 }), fc.constant(4_000_000_000))), {
      maxLength: 300,
    }),
  ])('keeps the minimum and maximum of a FIFO window through any adds and removals', (ops) => {
    const window = new FifoExtremes();
    const model: number[] = [];
    for (const [add, v] of ops) {
      if (add || model.length === 0) {
        window.add(v);
        model.push(v);
      } else {
        model.shift();
        window.removeOldest();
      }
      expect(window.min).toBe(model.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...model));
      expect(window.max).toBe(model.length === 0 ? Number.NEGATIVE_INFINITY : Math.max(...model));
    }
  });

  it('holds thousands of increasing values (the deques grow) and empties on clear', () => {
    const window = new FifoExtremes();
    for (let v = 0; v < 5000; v++) window.add(v);
    for (let v = 0; v < 4000; v++) window.removeOldest();
    expect([window.min, window.max]).toEqual([4000, 4999]);
    window.clear();
    expect([window.min, window.max]).toEqual([Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]);
    window.add(3);
    expect([window.min, window.max]).toEqual([3, 3]);
  });
});
