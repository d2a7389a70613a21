import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { bernsteinRadius } from '../test/stats.js';
import { difficultyFilter } from './difficulty-filter.js';
import { keepProbability } from './keep-probability.js';
import { seededUniform } from './seeded-uniform.js';

describe('difficultyFilter', () => {
  // A suite of T tasks with p spread over [0, 1], probed n = 8 times. The number kept in each of 8 bins of
  // p is a sum of independent Bernoulli(keepProbability(p_i, 8)) indicators: Bernstein with b = 1 and the
  // exact variance Σ q(1 − q) at δ = 1e-9 per bin; plus the total successes, a sum of independent
  // Binomial(8, p_i) (b = 8). 9 checks × 5 runs: false alarm ≤ 4.5e-8.
  const T = 8000;
  const n = 8;
  const suite = Float64Array.from({ length: T }, (_, i) => i / (T - 1));
  test.prop([fc.integer()], { numRuns: 5 })(
    'keeps each task with probability 1 − p^n − (1 − p)^n',
    (seed) => {
      const { kept, successes } = difficultyFilter(suite, n, seededUniform(seed));
      const keptSet = new Set(kept);
      const bins = 8;
      for (let bin = 0; bin < bins; bin++) {
        let count = 0;
        let expected = 0;
        let variance = 0;
        for (let i = (bin * T) / bins; i < ((bin + 1) * T) / bins; i++) {
          const q = keepProbability(suite[i]!, n);
          expected += q;
          variance += q * (1 - q);
          if (keptSet.has(i)) count++;
        }
        expect(Math.abs(count - expected)).toBeLessThanOrEqual(bernsteinRadius(variance, 1, 1e-9));
      }
      let total = 0;
      let mean = 0;
      let variance = 0;
      suite.forEach((p, i) => {
        total += successes[i]!;
        mean += n * p;
        variance += n * p * (1 - p);
      });
      expect(Math.abs(total - mean)).toBeLessThanOrEqual(bernsteinRadius(variance, n, 1e-9));
    },
  );

  test.prop([
    fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 50 }),
    fc.integer({ min: 1, max: 12 }),
    fc.integer(),
  ])(
    'keeps exactly the tasks with 0 < successes < n, probing in order with U < p',
    (probabilities, probes, seed) => {
      const result = difficultyFilter(probabilities, probes, seededUniform(seed));
      const uniform = seededUniform(seed);
      const successes = probabilities.map((p) => {
        let count = 0;
        for (let j = 0; j < probes; j++) if (uniform() < p) count++;
        return count;
      });
      expect(Array.from(result.successes)).toEqual(successes);
      expect(result.kept).toEqual(successes.flatMap((s, i) => (s > 0 && s < probes ? [i] : [])));
      const expectedKept = probabilities.reduce((s, p) => s + keepProbability(p, probes), 0);
      expect(result.expectedKept).toBeCloseTo(expectedKept, 12);
    },
  );

  it('drops always-failed and always-solved tasks, and accepts an empty suite', () => {
    const result = difficultyFilter([0, 1, 0, 1], 8, seededUniform(2));
    expect(result.kept).toEqual([]);
    expect(Array.from(result.successes)).toEqual([0, 8, 0, 8]);
    expect(difficultyFilter([], 8, seededUniform(2))).toEqual({
      kept: [],
      successes: new Int32Array(0),
      expectedKept: 0,
    });
  });

  it('rejects bad arguments before drawing, naming them', () => {
    let draws = 0;
    const random = () => {
      draws++;
      return 0.5;
    };
    expect(() => difficultyFilter([0.5, 1.2], 8, random)).toThrow(
      new RangeError('taskSuite[1] must be a number in [0, 1], got 1.2'),
    );
    expect(() => difficultyFilter('abc' as never, 8, random)).toThrow(
      new TypeError('taskSuite must be an array of success probabilities, got "abc"'),
    );
    expect(() => difficultyFilter([0.5], 0, random)).toThrow(
      new RangeError('n must be an integer >= 1, got 0'),
    );
    expect(() => difficultyFilter([0.5], 8, 7 as never)).toThrow(
      new TypeError('random must be a function, got 7'),
    );
    expect(draws).toBe(0);
    expect(() => difficultyFilter([0.5], 8, () => -0.5)).toThrow(
      new RangeError('random() must return a number in [0, 1), got -0.5'),
    );
  });
});
