import { describe, expect, it } from 'vitest';
import { summarizeSeeds } from './summarize-seeds.js';
import type { SeedResult } from './train-seed.js';

/** t_{0.975, ν} in closed form: ν = 1, tan(π(p − ½)); ν = 2, (2p − 1)·√(2 / (4p(1 − p))). */
const T1 = Math.tan(Math.PI * 0.475);
const T2 = 0.95 * Math.sqrt(2 / (4 * 0.975 * 0.025));

/** A seed's result with the figures the summary reads; the rest is filler. */
function seed(
  id: number,
  figures: Pick<
    SeedResult,
    'finalOptimalProbability' | 'meanReward' | 'cumulativeRegret' | 'samplesTo90' | 'environmentSteps'
  >,
): SeedResult {
  return {
    seed: id,
    metrics: [],
    episodes: figures.environmentSteps,
    updates: 7,
    policyBytes: 16,
    policy: null,
    finalPolicy: { seed: id, kind: 'tabular', numActions: 2, parameters: [0, 0] },
    ...figures,
  };
}

/** |actual − expected| within a relative 1e-12. */
function close(actual: number, expected: number): void {
  expect(Math.abs(actual - expected), `${actual} against ${expected}`).toBeLessThanOrEqual(
    1e-12 * Math.max(1, Math.abs(expected)),
  );
}

const results = [
  seed(4, {
    finalOptimalProbability: 0.5,
    meanReward: 1,
    cumulativeRegret: 10,
    samplesTo90: 40,
    environmentSteps: 100,
  }),
  seed(5, {
    finalOptimalProbability: 0.7,
    meanReward: 2,
    cumulativeRegret: 12,
    samplesTo90: null,
    environmentSteps: 110,
  }),
  seed(6, {
    finalOptimalProbability: 0.9,
    meanReward: 4,
    cumulativeRegret: 17,
    samplesTo90: 60,
    environmentSteps: 126,
  }),
];

describe('summarizeSeeds', () => {
  const summary = summarizeSeeds(results);

  it('gives each figure its mean ± t_{0.975, n−1} · s/√n over the seeds', () => {
    // 0.5, 0.7, 0.9: mean 0.7, s = 0.2.
    expect(summary.finalOptimalProbability.n).toBe(3);
    close(summary.finalOptimalProbability.mean, 0.7);
    close(summary.finalOptimalProbability.sd, 0.2);
    close(summary.finalOptimalProbability.halfWidth, (T2 * 0.2) / Math.sqrt(3));
    // 1, 2, 4: mean 7/3, s² = (16 + 1 + 25)/9 / 2 = 7/3.
    close(summary.meanReward.mean, 7 / 3);
    close(summary.meanReward.halfWidth, (T2 * Math.sqrt(7 / 3)) / Math.sqrt(3));
    // 10, 12, 17: mean 13, s² = (9 + 1 + 16)/2 = 13.
    expect(summary.cumulativeRegret!.n).toBe(3);
    close(summary.cumulativeRegret!.mean, 13);
    close(summary.cumulativeRegret!.halfWidth, (T2 * Math.sqrt(13)) / Math.sqrt(3));
  });

  it('averages samples to 0.9 over the seeds that reached it, and counts them', () => {
    // 40 and 60 (the seed that never reached 0.9 is left out, not counted as 0): mean 50, s = √200.
    expect(summary.reached90).toBe(2);
    expect(summary.samplesTo90!.n).toBe(2);
    close(summary.samplesTo90!.mean, 50);
    close(summary.samplesTo90!.halfWidth, (T1 * Math.sqrt(200)) / Math.sqrt(2));
    const none = summarizeSeeds(results.map((r) => ({ ...r, samplesTo90: null })));
    expect(none.samplesTo90).toBeNull();
    expect(none.reached90).toBe(0);
  });

  it('gives the mean environment steps per seed, and the seeds without their metrics', () => {
    expect(summary.environmentSteps).toBe((100 + 110 + 126) / 3);
    expect(summary.seeds.map((s) => s.seed)).toEqual([4, 5, 6]);
    expect(summary.seeds.every((s) => !('metrics' in s))).toBe(true);
    expect(summary.seeds[1]!.samplesTo90).toBeNull();
  });

  it('has no regret when a seed has none, and a mean alone for one seed', () => {
    const partial = summarizeSeeds([results[0]!, { ...results[1]!, cumulativeRegret: null }]);
    expect(partial.cumulativeRegret).toBeNull();
    const one = summarizeSeeds([results[2]!]);
    expect(one.finalOptimalProbability).toEqual({ n: 1, mean: 0.9, halfWidth: 0, sd: 0 });
    expect(one.environmentSteps).toBe(126);
  });

  it('rejects no results', () => {
    expect(() => summarizeSeeds([])).toThrow(new RangeError('results must not be empty, got []'));
  });
});
