import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { logGamma } from './log-gamma.js';

describe('logGamma', () => {
  it('equals ln (n − 1)! at the integers', () => {
    let factorial = 1n;
    for (let n = 1; n <= 60; n++) {
      if (n > 1) factorial *= BigInt(n - 1);
      const exact = Math.log(Number(factorial));
      expect(Math.abs(logGamma(n) - exact), `n = ${n}`).toBeLessThanOrEqual(2e-14 * Math.max(1, exact));
    }
  });

  it('gives the known values at ½, ⅓ and ¼ (the last two through the reflection formula)', () => {
    // Γ(½) = √π; Γ(⅓) = 2.678938534707747633…, Γ(¼) = 3.625609908221908311… (Abramowitz and Stegun 6.1.8, Table 6.1).
    expect(Math.abs(logGamma(0.5) - Math.log(Math.sqrt(Math.PI)))).toBeLessThanOrEqual(1e-14);
    expect(Math.abs(logGamma(1 / 3) - Math.log(2.6789385347077475))).toBeLessThanOrEqual(1e-14);
    expect(Math.abs(logGamma(0.25) - Math.log(3.625609908221908))).toBeLessThanOrEqual(1e-14);
  });

  test.prop([fc.double({ min: 0.01, max: 100, noNaN: true })])('satisfies Γ(x + 1) = x Γ(x)', (x) => {
    const scale = Math.max(1, Math.abs(logGamma(x + 1)));
    expect(Math.abs(logGamma(x + 1) - logGamma(x) - Math.log(x))).toBeLessThanOrEqual(1e-13 * scale);
  });
});

describe('logGamma on bad input', () => {
  it('rejects x ≤ 0, NaN and Infinity, naming x and the value', () => {
    expect(() => logGamma(0)).toThrow(new RangeError('x must be a finite number > 0, got 0'));
    expect(() => logGamma(-1.5)).toThrow(new RangeError('x must be a finite number > 0, got -1.5'));
    expect(() => logGamma(Number.NaN)).toThrow(new RangeError('x must be a finite number > 0, got NaN'));
    expect(() => logGamma(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});
