import { describe, expect, it } from 'vitest';
import { type SummaryMember, summaryTables } from './summary-tables.js';

const NaN_ = Number.NaN;

/** A group with the given summary.json and, per seed, each metric's values by iteration. */
function member(label: string, summary: unknown, seeds: Record<string, number[]>[]): SummaryMember {
  return {
    label,
    run: { name: label, config: { command: 'train' }, metrics: [], summary },
    strings: {},
    seeds: seeds.map((values, seed) => ({ seed, values: new Map(Object.entries(values)) })),
  };
}

const a = member(
  'a',
  {
    finalOptimalProbability: { n: 3, mean: 0.968444, halfWidth: 0.00183, sd: 0.001 },
    samplesTo90: null,
    meanReward: { n: 3, mean: 1234.5678, halfWidth: 12.3456, sd: 1 },
    environmentSteps: 300,
    reached90: 2,
  },
  [
    { optimalProbability: [0.1, 0.5, 0.9], reward: [1, 2, 4], regret: [3, 2, 1], isWeightEss: [NaN_] },
    // Seed 1's last iteration has no P(optimal): its last recorded one is 0.6; it never recorded a reward.
    { optimalProbability: [0.2, 0.6, NaN_], reward: [NaN_, NaN_, NaN_], regret: [5, 5, 5] },
    { optimalProbability: [0.3, 0.7, 0.8], reward: [2, 3, 5], regret: [1, 1, 1] },
  ],
);
const b = member(
  'b',
  {
    finalOptimalProbability: { n: 2, mean: 0.00012346, halfWidth: 0.0000456, sd: 0.00001 },
    samplesTo90: { n: 2, mean: 150, halfWidth: 20, sd: 1 },
    environmentSteps: 200,
  },
  [{ optimalProbability: [0.5, 0.25] }, { optimalProbability: [0.5, 0.75] }],
);
const c = member('c', {}, [{ optimalProbability: [0.3, 0.4] }]);

describe('summaryTables', () => {
  const [summary, finals] = summaryTables(
    [a, b, c],
    ['optimalProbability', 'reward', 'regret', 'isWeightEss'],
  );

  it("shows summary.json's intervals to four significant digits, then its counts, a dash where a group has none", () => {
    expect(summary!.columns).toEqual([
      'run',
      'final P(optimal)',
      'samples to 0.9',
      'mean reward',
      'env steps per seed',
      'seeds reaching 0.9',
    ]);
    expect(summary!.rows).toEqual([
      ['a', '0.9684 ± 0.0018', '—', '1235 ± 12', '300', '2'],
      ['b', '1.235e-4 ± 4.6e-5', '150.0 ± 20.0', '—', '200', '—'],
      ['c', '—', '—', '—', '—', '—'],
    ]);
  });

  it("gives each metric's final value as the mean ± 95% Student-t CI of each seed's last recorded value", () => {
    // Written from the definition: x̄ ± t_{0.975, n−1} · s / √n, s with n − 1, t from tables:
    // t_{0.975, 2} = 4.302652729749464, t_{0.975, 1} = 12.706204736174707.
    const interval = (values: number[], t: number, digits: number): string => {
      const n = values.length;
      const mean = values.reduce((s, v) => s + v, 0) / n;
      const s = Math.sqrt(values.reduce((q, v) => q + (v - mean) ** 2, 0) / (n - 1));
      return `${mean.toFixed(digits)} ± ${((t * s) / Math.sqrt(n)).toFixed(digits)}`;
    };
    const t2 = 4.302652729749464;
    const t1 = 12.706204736174707;
    // Metrics that no group recorded (isWeightEss is null throughout) get no column.
    expect(finals!.columns).toEqual(['run', 'P(optimal action)', 'mean return', 'Σ E[μ* − μ_a]']);
    expect(finals!.rows).toEqual([
      [
        'a',
        interval([0.9, 0.6, 0.8], t2, 4),
        `${interval([4, 5], t1, 3)} (2 seeds)`,
        interval([1, 5, 1], t2, 3),
      ],
      ['b', interval([0.25, 0.75], t1, 4), '—', '—'],
      // One seed: its value, no interval.
      ['c', '0.4000', '—', '—'],
    ]);
    // The same figures as printed, for a reader of this test: 0.7667 ± 0.3795, 4.500 ± 6.353, 2.333 ± 5.737.
    expect(finals!.rows[0]).toEqual(['a', '0.7667 ± 0.3795', '4.500 ± 6.353 (2 seeds)', '2.333 ± 5.737']);
    expect(finals!.rows[1]![1]).toBe('0.5000 ± 3.1766');
  });
});
