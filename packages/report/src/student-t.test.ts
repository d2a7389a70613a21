import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { studentTCdf, studentTQuantile } from './student-t.js';

/** Student-t density, for checking the CDF against its definition. */
function density(t: number, df: number): number {
  const logGamma = (x: number): number => {
    // Stirling series with shift: accurate to ~1e-15 for x >= 0.5 after shifting by 10.
    let shift = 0;
    let y = x;
    while (y < 10) {
      shift += Math.log(y);
      y += 1;
    }
    const series = 1 / (12 * y) - 1 / (360 * y ** 3) + 1 / (1260 * y ** 5) - 1 / (1680 * y ** 7);
    return (y - 0.5) * Math.log(y) - y + 0.5 * Math.log(2 * Math.PI) + series - shift;
  };
  const c = Math.exp(logGamma((df + 1) / 2) - logGamma(df / 2)) / Math.sqrt(df * Math.PI);
  return c * (1 + (t * t) / df) ** (-(df + 1) / 2);
}

/** F(t) − F(0) = ∫_0^t density by composite Simpson's rule (error O(h^4), tiny here). */
function integrate(t: number, df: number): number {
  const steps = 20_000;
  const h = t / steps;
  let sum = density(0, df) + density(t, df);
  for (let i = 1; i < steps; i++) sum += (i % 2 === 1 ? 4 : 2) * density(i * h, df);
  return 0.5 + (sum * h) / 3;
}

describe('studentTQuantile', () => {
  it('equals the closed form tan(π(p − ½)) for one degree of freedom (Cauchy)', () => {
    for (const p of [0.6, 0.9, 0.975, 0.995, 0.3, 0.025]) {
      const exact = Math.tan(Math.PI * (p - 0.5));
      expect(Math.abs(studentTQuantile(p, 1) - exact)).toBeLessThanOrEqual(1e-12 * Math.abs(exact));
    }
  });

  test.prop([fc.double({ min: 0.001, max: 0.999, noNaN: true })])(
    'equals the closed form (2p − 1)·√(2 / (4p(1 − p))) for two degrees of freedom',
    (p) => {
      const exact = (2 * p - 1) * Math.sqrt(2 / (4 * p * (1 - p)));
      expect(Math.abs(studentTQuantile(p, 2) - exact)).toBeLessThanOrEqual(
        1e-11 * Math.max(1, Math.abs(exact)),
      );
    },
  );

  test.prop([fc.double({ min: 0.001, max: 0.999, noNaN: true }), fc.integer({ min: 1, max: 200 })])(
    'inverts the CDF',
    (p, df) => {
      // The contract: F is good to 1e-10 absolute for ν ≤ 200, ample for 95% intervals (whose quantiles
      // matter to about 1e-6). The error comes from the CDF's front factor exp(ln Γ((ν+1)/2) − ln Γ(ν/2) −
      // …), whose exponent grows like ν ln ν: measured on a grid of 80,000 (p, ν) it rises from 1.3e-13
      // at ν = 1 to 2.9e-11 at ν = 100–200 (a bound of 1e-13 held only for small ν).
      const tolerance = 1e-10;
      expect(Math.abs(studentTCdf(studentTQuantile(p, df), df) - p)).toBeLessThanOrEqual(tolerance);
    },
  );

  it('is within one ulp of the exact 97.5% quantile for 2 degrees of freedom (three seeds)', () => {
    // 0.95 · √(2 / 0.0975) = 4.30265272974946385232… (`bc -l`); 4.302652729749464 is the nearest double and
    // one ulp there is 2^-50. (@stdlib's t-quantile gives 4.302652729749462, two ulps off.)
    const exact = 4.302652729749464;
    expect(Math.abs(studentTQuantile(0.975, 2) - exact)).toBeLessThanOrEqual(2 ** -50);
  });

  it('gives the familiar 95% two-sided values', () => {
    // Classical table values (Abramowitz & Stegun, Table 26.10), to the printed digits.
    expect(studentTQuantile(0.975, 2).toFixed(3)).toBe('4.303');
    expect(studentTQuantile(0.975, 9).toFixed(3)).toBe('2.262');
    expect(studentTQuantile(0.975, 29).toFixed(3)).toBe('2.045');
    expect(studentTQuantile(0.975, 1e7).toFixed(4)).toBe('1.9600');
  });

  it('is 0 at p = ½ and odd around it', () => {
    expect(studentTQuantile(0.5, 4)).toBe(0);
    expect(studentTQuantile(0.1, 7)).toBe(-studentTQuantile(0.9, 7));
  });

  it('rejects p outside (0, 1) and a bad df, naming them', () => {
    expect(() => studentTQuantile(1, 3)).toThrow(new RangeError('p must be a number in (0, 1), got 1'));
    expect(() => studentTQuantile(Number.NaN, 3)).toThrow(/p must be a number in \(0, 1\), got NaN/);
    expect(() => studentTQuantile(0.9, 0)).toThrow(new RangeError('df must be a finite number > 0, got 0'));
    expect(() => studentTQuantile(0.9, Number.POSITIVE_INFINITY)).toThrow(/df must be/);
  });
});

describe('studentTCdf', () => {
  it('matches the integral of the density', () => {
    for (const df of [3, 5, 9, 30]) {
      for (const t of [0.3, 1, 2.5, 6]) {
        expect(Math.abs(studentTCdf(t, df) - integrate(t, df))).toBeLessThanOrEqual(1e-10);
        expect(Math.abs(studentTCdf(-t, df) - (1 - integrate(t, df)))).toBeLessThanOrEqual(1e-10);
      }
    }
  });
});

describe('studentTCdf on bad input', () => {
  it('rejects a NaN point and degrees of freedom that are not finite and > 0', () => {
    expect(() => studentTCdf(Number.NaN, 3)).toThrow(new RangeError('t must be a number, got NaN'));
    expect(() => studentTCdf(1, 0)).toThrow(new RangeError('df must be a finite number > 0, got 0'));
    expect(() => studentTCdf(1, Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(studentTCdf(Number.NEGATIVE_INFINITY, 3)).toBe(0);
  });
});
