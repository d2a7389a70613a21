import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { grpoAdvantages } from './grpo-advantages.js';

const reward = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.double({ min: -1e6, max: 1e6, noNaN: true }));
const groupsOf = fc.array(fc.array(reward, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 6 });

/** Mean and variance of `values` with divisor `n` or `n − 1`. */
function moments(values: number[], sample: boolean): [number, number] {
  const n = values.length;
  const mean = values.reduce((s, v) => s + v, 0) / n;
  const ss = values.reduce((s, v) => s + (v - mean) ** 2, 0);
  return [mean, ss / (sample ? n - 1 : n)];
}

describe('grpoAdvantages', () => {
  test.prop([groupsOf, fc.constantFrom('population' as const, 'sample' as const)])(
    'gives each group mean 0 and variance 1, or zeros for a constant group',
    (groups, std) => {
      const rewards = groups.flat();
      const a = grpoAdvantages(
        rewards,
        groups.map((g) => g.length),
        { std },
      );
      let start = 0;
      for (const g of groups) {
        const adv = Array.from(a.subarray(start, start + g.length));
        start += g.length;
        if (g.every((r) => r === g[0])) {
          expect(adv.every((v) => v === 0)).toBe(true);
          continue;
        }
        const [mean, variance] = moments(adv, std === 'sample');
        // Each advantage is (r − μ)/σ with a few roundings: |error| <= 1e-15 · n · max|A| with margin.
        expect(Math.abs(mean)).toBeLessThanOrEqual(1e-13);
        expect(Math.abs(variance - 1)).toBeLessThanOrEqual(1e-12);
      }
    },
  );

  test.prop([
    fc.integer({ min: 1, max: 5 }),
    fc.integer({ min: 1, max: 4 }),
    fc.array(reward, { minLength: 20, maxLength: 20 }),
  ])('accepts a common group size as consecutive groups of that size', (size, count, pool) => {
    const rewards = pool.slice(0, size * count);
    const bySize = grpoAdvantages(rewards, size);
    const bySizes = grpoAdvantages(rewards, new Array<number>(count).fill(size));
    expect(Array.from(bySize)).toEqual(Array.from(bySizes));
  });

  it('follows the definition with epsilon added to the standard deviation', () => {
    // Group [1, 2, 3, 4]: μ = 2.5, population σ = sqrt(1.25), sample σ = sqrt(5/3).
    const pop = grpoAdvantages([1, 2, 3, 4], 4, { epsilon: 0.1 });
    const sam = grpoAdvantages([1, 2, 3, 4], 4, { std: 'sample' });
    [1, 2, 3, 4].forEach((r, k) => {
      expect(pop[k]).toBeCloseTo((r - 2.5) / (Math.sqrt(1.25) + 0.1), 15);
      expect(sam[k]).toBeCloseTo((r - 2.5) / Math.sqrt(5 / 3), 15);
    });
  });

  it('gives zeros to a constant group whose mean does not round back to its value', () => {
    // 0.1 · 3 / 3 is 0.10000000000000002: a naive σ would be ~1e-17 and amplify it into ±1.
    expect(Array.from(grpoAdvantages([0.1, 0.1, 0.1], 3))).toEqual([0, 0, 0]);
    expect(Array.from(grpoAdvantages([7], 1, { std: 'sample' }))).toEqual([0]);
  });

  it('normalises groups that differ only in their last bits or are subnormal', () => {
    const close = grpoAdvantages([999999.9981407902, 999999.9981407886], 2);
    expect(Array.from(close)).toEqual([1, -1]);
    expect(Array.from(grpoAdvantages([0, 5e-324], 2))).toEqual([-1, 1]);
    // An epsilon far above a subnormal spread drives the advantages to 0, not to NaN.
    expect(Array.from(grpoAdvantages([0, 5e-324], 2, { epsilon: 1e-4 }), (v) => v + 0)).toEqual([0, 0]);
  });

  it('keeps a binary group exact and scale-free at large magnitudes', () => {
    expect(Array.from(grpoAdvantages([1, 0, 0, 1], 2))).toEqual([1, -1, -1, 1]);
    const big = grpoAdvantages([1e50, -1e50], 2);
    expect(Array.from(big)).toEqual([1, -1]);
  });

  it('fills and returns out', () => {
    const out = new Float64Array(2);
    expect(grpoAdvantages([3, 5], 2, undefined, out)).toBe(out);
    expect(Array.from(out)).toEqual([-1, 1]);
  });

  describe('rejects bad input', () => {
    it('rejects rewards that are not array-like or not finite', () => {
      expect(() => grpoAdvantages(5 as unknown as number[], 1)).toThrow(
        /^rewards must be an array or typed array of numbers, got 5/,
      );
      expect(() => grpoAdvantages([1, Number.NaN], 2)).toThrow(
        /^rewards\[1\] must be a finite number .* got NaN/,
      );
      expect(() => grpoAdvantages([1, 1e51], 2)).toThrow(/^rewards\[1\] must be .* got 1e\+51/);
    });
    it('rejects a group size that does not divide the rewards', () => {
      expect(() => grpoAdvantages([1, 2, 3], 2)).toThrow(
        /^groups must be a positive integer group size dividing rewards.length = 3, got 2/,
      );
      expect(() => grpoAdvantages([1, 2], 0)).toThrow(
        /^groups must be a positive integer group size .* got 0/,
      );
    });
    it('rejects group sizes that are not positive integers or do not cover the rewards', () => {
      expect(() => grpoAdvantages([1, 2, 3], [2, 0, 1])).toThrow(
        /^groups\[1\] must be a positive integer group size, got 0/,
      );
      expect(() => grpoAdvantages([1, 2, 3], [2, 2])).toThrow(
        /^groups must sum to rewards.length = 3, got 4/,
      );
      expect(() => grpoAdvantages([1, 2], 'two' as unknown as number)).toThrow(
        /^groups must be a group size or an array of group sizes, got "two"/,
      );
    });
    it('rejects an unknown std convention and a bad epsilon', () => {
      expect(() => grpoAdvantages([1, 2], 2, { std: 'robust' as 'sample' })).toThrow(
        /^options.std must be 'population' or 'sample', got "robust"/,
      );
      expect(() => grpoAdvantages([1, 2], 2, { epsilon: -1 })).toThrow(
        /^options.epsilon must be a finite number in \[0, 1e\+50\], got -1/,
      );
    });
    it('rejects an out buffer of the wrong length', () => {
      expect(() => grpoAdvantages([1, 2], 2, {}, new Float64Array(1))).toThrow(
        /^out must be a Float64Array of length 2, got a Float64Array of length 1/,
      );
    });
  });
});
