import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { VersionMultiset } from './version-multiset.js';

describe('VersionMultiset', () => {
  test.prop([
    fc.array(fc.tuple(fc.boolean(), fc.oneof(fc.integer({ min: 0, max: 20 }), fc.constant(4_000_000_000))), {
      maxLength: 200,
    }),
  ])('keeps the minimum and maximum of what it holds through any adds and removes', (ops) => {
    const set = new VersionMultiset();
    const model: number[] = [];
    for (const [add, v] of ops) {
      if (add || model.length === 0) {
        set.add(v);
        model.push(v);
      } else {
        const held = model[v % model.length]!;
        model.splice(model.indexOf(held), 1);
        set.remove(held);
      }
      expect(set.min).toBe(model.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...model));
      expect(set.max).toBe(model.length === 0 ? Number.NEGATIVE_INFINITY : Math.max(...model));
    }
  });

  it('empties on clear', () => {
    const set = new VersionMultiset();
    set.add(3);
    set.clear();
    expect([set.min, set.max]).toEqual([Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]);
  });
});
