import { describe, expect, it } from 'vitest';
import { lehmer } from '../test/corridor.js';
import { applyThetaDelta, decodeTheta, encodeTheta, encodeThetaDelta, thetaLoader } from './theta-codec.js';

describe('encodeTheta / decodeTheta', () => {
  it('round-trips θ bit for bit, −0 and extremes included', () => {
    const theta = Float64Array.of(0, -0, 1e-310, -1.5, Number.MAX_VALUE, Math.PI);
    const back = decodeTheta(encodeTheta(theta));
    expect([...back].map((x) => Object.is(x, -0))).toEqual([...theta].map((x) => Object.is(x, -0)));
    expect(back).toEqual(theta);
  });

  it('refuses bytes that are not whole f64 values', () => {
    expect(() => decodeTheta(new Uint8Array(12))).toThrow('a published θ has a multiple of 8 bytes, got 12');
  });
});

describe('encodeThetaDelta / applyThetaDelta', () => {
  it('takes θ of one version to the next, for random changes and growth (200 seeded cases)', () => {
    const random = lehmer(11);
    for (let c = 0; c < 200; c++) {
      const before = Float64Array.from({ length: 1 + Math.floor(random() * 20) }, () => random() - 0.5);
      const after = new Float64Array(before.length + Math.floor(random() * 3));
      after.set(before);
      for (let k = Math.floor(random() * 4); k > 0; k--)
        after[Math.floor(random() * after.length)] = random();
      const delta = encodeThetaDelta(before, after);
      let changed = 0;
      for (let i = 0; i < after.length; i++)
        if (!Object.is(i < before.length ? before[i] : 0, after[i])) changed++;
      expect(delta.length).toBe(8 + 12 * changed);
      expect(applyThetaDelta(Float64Array.from(before), delta)).toEqual(after);
    }
  });

  it('changes θ in place when its length stays, and returns a grown copy otherwise', () => {
    const theta = Float64Array.of(1, 2);
    expect(applyThetaDelta(theta, encodeThetaDelta(theta, Float64Array.of(1, 3)))).toBe(theta);
    expect(theta).toEqual(Float64Array.of(1, 3));
    const grown = applyThetaDelta(theta, encodeThetaDelta(theta, Float64Array.of(1, 3, 0, 4)));
    expect(grown).toEqual(Float64Array.of(1, 3, 0, 4));
    expect(theta).toEqual(Float64Array.of(1, 3));
  });

  it('refuses a shrinking θ, a truncated delta or an index outside θ, changing nothing', () => {
    expect(() => encodeThetaDelta(new Float64Array(3), new Float64Array(2))).toThrow(
      'theta must not shrink: 3 parameters before, got 2',
    );
    const delta = encodeThetaDelta(new Float64Array(2), Float64Array.of(0, 5));
    expect(() => applyThetaDelta(new Float64Array(2), delta.subarray(0, 15))).toThrow(
      'a θ delta of 1 entries has 20 bytes, got 15',
    );
    expect(() => applyThetaDelta(new Float64Array(3), delta)).toThrow(
      'a θ delta has 2 parameters, fewer than the 3 held',
    );
    const bad = Uint8Array.from(delta);
    new DataView(bad.buffer).setUint32(8, 2, true);
    const theta = Float64Array.of(7, 7);
    expect(() => applyThetaDelta(theta, bad)).toThrow('a θ delta writes index 2, outside its 2 parameters');
    expect(theta).toEqual(Float64Array.of(7, 7));
  });

  it('is what thetaLoader reads', () => {
    const zero = new Float64Array(3);
    const theta = thetaLoader.snapshot(encodeTheta(zero), 0);
    expect(thetaLoader.delta(theta, encodeThetaDelta(zero, Float64Array.of(0, 0, 1)), 1)).toEqual(
      Float64Array.of(0, 0, 1),
    );
  });
});
