import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { laneStreams, seededStreams } from './seeded-streams.js';

const draw = (f: () => number, n: number): number[] => Array.from({ length: n }, f);

describe('seededStreams', () => {
  test.prop([fc.integer({ min: 0, max: 0x7fffffff })])('gives the same numbers for the same seed', (seed) => {
    const a = seededStreams(seed);
    const b = seededStreams(seed);
    expect(draw(a.policy, 5)).toEqual(draw(b.policy, 5));
    expect(draw(a.selection, 5)).toEqual(draw(b.selection, 5));
    expect(a.environment).toBe(seed);
  });

  it('gives separate streams that do not depend on each other', () => {
    const a = seededStreams(3);
    const b = seededStreams(3);
    draw(a.policy, 1000);
    expect(draw(a.selection, 5)).toEqual(draw(b.selection, 5));
    expect(draw(seededStreams(3).policy, 5)).not.toEqual(draw(seededStreams(3).selection, 5));
    expect(draw(seededStreams(3).policy, 5)).not.toEqual(draw(seededStreams(4).policy, 5));
  });

  it('draws uniforms on [0, 1): a chi-square test over 20 cells', () => {
    // 100,000 draws into 20 equal cells; under uniformity X² ~ χ²(19). P(χ²(19) > 75) < 1e-7
    // (Chernoff bound: P(X² > x) ≤ (x/k)^{k/2} e^{(k − x)/2} with k = 19, x = 75 gives 2.6e-8).
    for (const stream of [seededStreams(0).policy, seededStreams(0).selection, seededStreams(1).policy]) {
      const counts = new Array<number>(20).fill(0);
      const n = 100_000;
      let outside = 0;
      for (let i = 0; i < n; i++) {
        const u = stream();
        if (!(u >= 0 && u < 1)) outside++;
        else counts[Math.floor(u * 20)]! += 1;
      }
      expect(outside).toBe(0);
      const expected = n / 20;
      const chi2 = counts.reduce((s, c) => s + (c - expected) ** 2 / expected, 0);
      expect(chi2).toBeLessThan(75);
    }
  });
});

describe('laneStreams', () => {
  it('gives each lane and the network streams of their own, distinct from the policy and selection streams', () => {
    const firsts = [
      draw(seededStreams(5).policy, 4),
      draw(seededStreams(5).selection, 4),
      draw(laneStreams(5).network, 4),
      draw(laneStreams(5).lane(1).policy, 4),
      draw(laneStreams(5).lane(1).environment, 4),
      draw(laneStreams(5).lane(2).policy, 4),
    ];
    expect(new Set(firsts.map((f) => f.join())).size).toBe(firsts.length);
    expect(draw(laneStreams(5).lane(2).policy, 4)).toEqual(firsts[5]);
    // Two jumps ahead of lane 1 is lane 2: the construction the doc states.
    expect(draw(laneStreams(5).lane(1).environment, 4)).not.toEqual(firsts[5]);
    expect(() => laneStreams(5).lane(0)).toThrow('lane must be an integer >= 1, got 0');
  });
});
