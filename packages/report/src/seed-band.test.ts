import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { meanInterval } from './mean-interval.js';
import { seedBand } from './seed-band.js';

describe('seedBand', () => {
  it('gives mean ± t(0.975, n − 1) s / √n at each point', () => {
    // n = 3: t = 4.302652729749464 (tables), s = 1 at the first point, 0 at the second.
    const band = seedBand([
      [1, 0.5],
      [2, 0.5],
      [3, 0.5],
    ]);
    expect(band.mean[0]).toBe(2);
    expect(band.upper[0]! - 2).toBeCloseTo(4.302652729749464 / Math.sqrt(3), 9);
    expect(band.lower[0]! - 2).toBeCloseTo(-4.302652729749464 / Math.sqrt(3), 9);
    expect([band.lower[1], band.mean[1], band.upper[1]]).toEqual([0.5, 0.5, 0.5]);
  });

  it('has no width with one seed, and NaN where a seed has no value', () => {
    expect(Array.from(seedBand([[3, 4]]).upper)).toEqual([3, 4]);
    const band = seedBand([
      [1, Number.NaN],
      [2, 3],
    ]);
    expect(Number.isNaN(band.mean[1]!)).toBe(true);
    expect(band.mean[0]).toBe(1.5);
  });

  it('rejects no curves and curves of different lengths', () => {
    expect(() => seedBand([])).toThrow(/curves must not be empty/);
    expect(() => seedBand([[1, 2], [1]])).toThrow(/curves\[1\] must have 2 points, got 1/);
  });

  test.prop([
    fc.integer({ min: 1, max: 12 }),
    fc.integer({ min: 1, max: 6 }),
    fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  ])('equals meanInterval point by point, bit for bit', (seeds, points, salt) => {
    const curves = Array.from({ length: seeds }, (_, s) =>
      Array.from({ length: points }, (_, i) => Math.sin(salt + 7 * s + 13 * i) * (1 + i)),
    );
    const band = seedBand(curves);
    for (let i = 0; i < points; i++) {
      const interval = meanInterval(curves.map((c) => c[i]!));
      expect(band.mean[i]).toBe(interval.mean);
      expect(band.lower[i]).toBe(interval.mean - interval.halfWidth);
      expect(band.upper[i]).toBe(interval.mean + interval.halfWidth);
    }
  });
});
