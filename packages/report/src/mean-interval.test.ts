import { seededStreams } from '@ftw/internal/seeded-streams';
import { describe, expect, it } from 'vitest';
import { meanInterval } from './mean-interval.js';

describe('meanInterval', () => {
  it('computes mean, sample sd and t · s / √n', () => {
    const r = meanInterval([1, 2, 3]);
    expect(r.n).toBe(3);
    expect(r.mean).toBe(2);
    expect(r.sd).toBe(1);
    // t_{0.975, 2} = 0.95 · √(2 / (4 · 0.975 · 0.025)) in closed form.
    const t = 0.95 * Math.sqrt(2 / (4 * 0.975 * 0.025));
    expect(Math.abs(r.halfWidth - t / Math.sqrt(3))).toBeLessThanOrEqual(1e-12);
  });

  it('gives a zero half-width for one value', () => {
    expect(meanInterval([0.5])).toEqual({ n: 1, mean: 0.5, halfWidth: 0, sd: 0 });
  });

  it('covers the true mean of normal samples 95% of the time', () => {
    // 20,000 intervals from 5 standard normals each (Box–Muller on a seeded stream). The coverage
    // estimate is a mean of 20,000 independent Bernoulli(0.95) indicators when the quantile is right;
    // Hoeffding: P(|ĉ − 0.95| ≥ 0.02) ≤ 2·exp(−2 · 20000 · 0.02²) = 2e^{−16} ≈ 2.3e-7 per run. A normal
    // quantile (1.96 instead of t_{0.975,4} = 2.776) would cover only about 0.88 and fail.
    const random = seededStreams(12345).policy;
    const normal = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    const trials = 20_000;
    let covered = 0;
    for (let i = 0; i < trials; i++) {
      const r = meanInterval([normal(), normal(), normal(), normal(), normal()]);
      if (Math.abs(r.mean) <= r.halfWidth) covered++;
    }
    expect(Math.abs(covered / trials - 0.95)).toBeLessThan(0.02);
  });

  it('rejects empty or non-finite values and a bad level', () => {
    expect(() => meanInterval([])).toThrow(new RangeError('values must not be empty, got []'));
    expect(() => meanInterval([1, Number.NaN])).toThrow(new RangeError('values must be finite, got NaN'));
    expect(() => meanInterval([1, 2], 1)).toThrow(new RangeError('level must be a number in (0, 1), got 1'));
  });
});
