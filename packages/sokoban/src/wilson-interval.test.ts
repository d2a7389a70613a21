import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { wilsonInterval, Z_95 } from './wilson-interval.js';

describe('wilsonInterval', () => {
  // Newcombe (1998), Statistics in Medicine 17, Table II, method 3 (score interval without continuity
  // correction), printed to four decimals: computed there independently of this code.
  const table: [number, number, string, string][] = [
    [81, 263, '0.2553', '0.3662'],
    [15, 148, '0.0624', '0.1605'],
    [0, 20, '0.0000', '0.1611'],
    [1, 29, '0.0061', '0.1718'],
  ];
  for (const [s, n, lower, upper] of table) {
    it(`gives Newcombe's interval for ${s}/${n}`, () => {
      const interval = wilsonInterval(s, n);
      expect([interval.lower.toFixed(4), interval.upper.toFixed(4)]).toEqual([lower, upper]);
    });
  }

  it('uses Φ⁻¹(0.975) for its default', () => {
    // The nearest double to 1.95996398454005423552…, the 0.975 quantile of the standard normal.
    expect(Z_95).toBe(1.959963984540054);
  });

  test.prop([
    fc
      .integer({ min: 1, max: 100_000 })
      .chain((n) => fc.tuple(fc.integer({ min: 0, max: n }), fc.constant(n))),
  ])('solves its defining equation n (p̂ − p)² = z² p (1 − p) in exact rational arithmetic', ([s, n]) => {
    const { lower, upper, rate } = wilsonInterval(s, n);
    expect(rate).toBe(s / n);
    expect(lower).toBeLessThanOrEqual(rate);
    expect(upper).toBeGreaterThanOrEqual(rate);
    // With p a double m / 2^52 and z² rounded to a rational, the residual of the quadratic is exact in
    // BigInt; each root's residual is compared to the change of the quadratic over one ulp of p.
    const Z2 = 3841458820694124n; // round(Z_95² · 10^15)
    const SCALE = 10n ** 15n;
    const residual = (p: number): bigint => {
      const D = 2n ** 60n;
      const P = BigInt(Math.round(p * 2 ** 60));
      const S = BigInt(s);
      const N = BigInt(n);
      // n (s/n − P/D)² − z² (P/D)(1 − P/D), times n D² SCALE:
      const gap = S * D - N * P;
      return SCALE * gap * gap - Z2 * N * P * (D - P);
    };
    const D2 = 2n ** 120n;
    const tolerance = (BigInt(n) * D2 * SCALE) / 10n ** 9n; // a relative residual of 10⁻⁹
    for (const [p, exact] of [
      [lower, s === 0],
      [upper, s === n],
    ] as const) {
      if (exact) continue;
      const r = residual(p);
      expect(r < 0n ? -r : r).toBeLessThan(tolerance);
    }
    if (s === 0) expect(lower).toBe(0);
    if (s === n) expect(upper).toBe(1);
  });

  it('names the parameter and the value it refuses', () => {
    expect(() => wilsonInterval(1, 0)).toThrow(/trials must be an integer >= 1, got 0/);
    expect(() => wilsonInterval(5, 4)).toThrow(/successes must be an integer in \[0, 4\], got 5/);
    expect(() => wilsonInterval(-1, 4)).toThrow(/successes must be an integer in \[0, 4\], got -1/);
    expect(() => wilsonInterval(Number.NaN, 4)).toThrow(/successes must be an integer in \[0, 4\], got NaN/);
    expect(() => wilsonInterval(1, 4, 0)).toThrow(/z must be a finite number > 0, got 0/);
    expect(() => wilsonInterval(1, 2.5)).toThrow(RangeError);
  });
});
