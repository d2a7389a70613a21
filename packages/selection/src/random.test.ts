import { fc, test } from '@fast-check/vitest';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { describe, expect, it } from 'vitest';
import { FALSE_ALARM_PER_TEST, worstBandExcess } from '../test/support/stats.js';
import { toIndexSource } from './random.js';

/** A generator that replays fixed 32-bit outputs (signed, as pure-rand returns them). */
const replay = (outputs: number[]) => {
  let i = 0;
  return { next: () => outputs[i++ % outputs.length]! | 0 };
};

describe('toIndexSource', () => {
  // Bounds up to 2^21 take the exact double product, larger ones the split one: both ranges are drawn.
  const bound = fc.oneof(
    fc.integer({ min: 1, max: 2 ** 21 }),
    fc.integer({ min: 2 ** 21 - 2, max: 2 ** 21 + 2 }),
    fc.integer({ min: 1, max: 2 ** 32 - 1 }),
  );
  test.prop([fc.integer({ min: 0, max: 2 ** 32 - 1 }), bound])(
    'maps a 32-bit output x to floor(x · bound / 2^32) when it is outside the rejection zone',
    (x, bound) => {
      const exactHigh = Number((BigInt(x) * BigInt(bound)) >> 32n);
      const low = Number((BigInt(x) * BigInt(bound)) & 0xffffffffn);
      const zone = (2 ** 32 - bound) % bound;
      if (low < zone) return; // rejected: the next output is used instead
      expect(toIndexSource(replay([x])).index(bound)).toBe(exactHigh);
    },
  );

  it('rejects the outputs of the zone, so every value has the same number of preimages', () => {
    // bound = 3: 2^32 mod 3 = 1, so exactly one of the 2^32 outputs (x = 0, with low word 0) is rejected.
    expect(toIndexSource(replay([0, 2 ** 31])).index(3)).toBe(1);
    // bound = 2^31 + 1: the zone holds 2^31 − 1 low words; x = 1 has low word 2^31 + 1, outside it.
    expect(toIndexSource(replay([1])).index(2 ** 31 + 1)).toBe(0);
    expect(toIndexSource(replay([2, 2 ** 32 - 1])).index(2 ** 31 + 1)).toBe(2 ** 31);
  });

  it('draws each value of a bound equally often, including bounds with a large rejection zone', () => {
    // 7 + 2 cells at δ = 1e-7 / 9 each (Bernstein bands on Binomial counts).
    for (const [bound, bucket] of [
      [7, (v: number) => v],
      [2 ** 31 + 1, (v: number) => (v < 2 ** 30 ? 0 : 1)],
    ] as const) {
      const source = toIndexSource(xoroshiro128plus(17));
      const cells = bound === 7 ? 7 : 2;
      const counts = new Float64Array(cells);
      const draws = 100_000;
      for (let i = 0; i < draws; i++) counts[bucket(source.index(bound))]!++;
      const p =
        bound === 7 ? new Float64Array(7).fill(1 / 7) : Float64Array.of(2 ** 30 / bound, 1 - 2 ** 30 / bound);
      expect(worstBandExcess(counts, p, draws, FALSE_ALARM_PER_TEST / 9)).toBeLessThanOrEqual(1);
    }
  });

  it('uses floor(u · bound) for a function source and checks every value', () => {
    expect(toIndexSource(() => 0.5).index(10)).toBe(5);
    expect(toIndexSource(() => 0).index(10)).toBe(0);
    expect(() => toIndexSource(() => 1).index(10)).toThrow(
      new RangeError('random must return numbers in [0, 1), got 1'),
    );
    expect(() => toIndexSource(() => Number.NaN).index(10)).toThrow(/got NaN/);
  });

  it('refuses what is not a random source', () => {
    expect(() => toIndexSource(undefined)).toThrow(TypeError);
    expect(() => toIndexSource({ next: 3 })).toThrow(/random must be a function/);
    expect(() => toIndexSource({ next: () => [0, {}], clone: () => ({ next: () => [0, {}] }) })).toThrow(
      /random\.next\(\) must return a number/,
    );
  });
});
