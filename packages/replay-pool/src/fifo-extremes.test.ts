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

  test.prop([fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 100, maxLength: 400 })])(
    'keeps them for a rising series whose deques grow while their ring has wrapped',
    (ops) => {
      // Mostly rising values (each op: 0 removes the oldest, 1 or 2 adds the next value, 2 a smaller one),
      // so the minimum's deque keeps nearly every item and grows past 16 after removals moved its head.
      const window = new FifoExtremes();
      const model: number[] = [];
      let next = 0;
      for (const op of ops) {
        if (op === 0 && model.length > 0) {
          model.shift();
          window.removeOldest();
        } else {
          next += 1;
          const v = op === 2 ? next - 3 : next;
          window.add(v);
          model.push(v);
        }
        expect(window.min).toBe(model.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...model));
        expect(window.max).toBe(model.length === 0 ? Number.NEGATIVE_INFINITY : Math.max(...model));
      }
    },
  );

  it('grows a deque whose ring has wrapped without losing its order', () => {
    const window = new FifoExtremes();
    const model: number[] = [];
    let next = 0;
    const add = () => {
      window.add(++next);
      model.push(next);
    };
    const remove = () => {
      window.removeOldest();
      model.shift();
    };
    for (let k = 0; k < 10; k++) add();
    for (let k = 0; k < 8; k++) remove(); // the deques' fronts are now at ring index 8
    for (let k = 0; k < 30; k++) {
      add(); // the minimum's deque, holding every item, grows at 16 with its ring wrapped
      expect([window.min, window.max]).toEqual([Math.min(...model), Math.max(...model)]);
    }
    for (let k = 0; k < 32; k++) {
      remove();
      expect([window.min, window.max]).toEqual([Math.min(...model), Math.max(...model)]);
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
