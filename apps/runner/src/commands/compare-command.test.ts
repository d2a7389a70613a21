import { describe, expect, it } from 'vitest';
import { tableCells } from '../../test/table-cells.js';
import { COMPARE_SCENARIOS } from '../config/compare-scenarios.js';
import { REPRODUCE_CONFIG } from '../config/reproduce-config.js';
import { summarizeSeeds } from '../train/summarize-seeds.js';
import type { IterationMetrics, SeedResult } from '../train/train-seed.js';
import { compareCurves, compareFindings, compareTable } from './compare-command.js';
import type { MethodOutcome, ScenarioOutcome } from './run-compare.js';

/** One method over three seeds: final P(optimal), regret, samples to 0.9 and env steps per seed. */
function method(
  label: string,
  epochs: number,
  updates: number,
  probability: readonly number[],
  regret: readonly number[],
  samplesTo90: readonly (number | null)[],
  steps: readonly number[],
): MethodOutcome {
  const results: SeedResult[] = probability.map((p, seed) => ({
    seed,
    metrics: [],
    finalOptimalProbability: p,
    meanReward: [0.5, 0.55, 0.6][seed]!,
    cumulativeRegret: regret[seed]!,
    samplesTo90: samplesTo90[seed]!,
    environmentSteps: steps[seed]!,
    episodes: steps[seed]!,
    updates,
    policyBytes: 16,
    policy: null,
    finalPolicy: { seed, kind: 'tabular', numActions: 2, parameters: [0, 0] },
  }));
  return { label, config: { ...REPRODUCE_CONFIG, epochs }, results, summary: summarizeSeeds(results) };
}

/** t_{0.975, 2} in closed form, (2p − 1)·√(2 / (4p(1 − p))). */
const T2 = 0.95 * Math.sqrt(2 / (4 * 0.975 * 0.025));

describe('compareTable and compareFindings', () => {
  // Three seeds: half-width t_{0.975,2} · s/√3 with t_{0.975,2} = 4.3027 (closed form): s = 0.02 gives
  // 0.0497, s = 0.05 gives 0.1242, s = 1 gives 2.484, s = 2 gives 4.968, s = 10 gives 24.84; two seeds
  // reaching 0.9 (100, 120): t_{0.975,1} · √200/√2 = 127.06.
  const reinforce = method(
    'reinforce',
    1,
    120,
    [0.6, 0.62, 0.64],
    [20, 22, 24],
    [null, null, null],
    [480, 480, 480],
  );
  const ppo = method('ppo', 4, 120, [0.72, 0.74, 0.76], [25, 26, 27], [50, 60, 70], [480, 481, 483]);
  const ftw = method('ftw', 1, 119, [0.8, 0.82, 0.84], [30, 31, 32], [100, null, 120], [480, 480, 480]);
  const outcome: ScenarioOutcome = { scenario: COMPARE_SCENARIOS[0]!, methods: [reinforce, ppo, ftw] };

  it('prints mean ± 95% CI per method, samples to 0.9 over the seeds that reached it, env and gradient steps', () => {
    expect(tableCells(compareTable(outcome))).toEqual([
      ['reinforce', '0.620 ± 0.050', '0.550 ± 0.124', '22.0 ± 5.0', '— (0/3)', '480', '120'],
      // Mean env steps 481.33; gradient steps = updates × epochs.
      ['ppo', '0.740 ± 0.050', '0.550 ± 0.124', '26.0 ± 2.5', '60 ± 25 (3/3)', '481', '480'],
      ['ftw', '0.820 ± 0.050', '0.550 ± 0.124', '31.0 ± 2.5', '110 ± 127 (2/3)', '480', '119'],
    ]);
  });

  it('names the best method, the methods whose interval reaches into its interval, and the lowest regret', () => {
    // ftw's interval is [0.7703, 0.8697]; ppo's upper end 0.7897 reaches into it, reinforce's 0.6697 does
    // not (nor does ppo's mean 0.74).
    expect(compareFindings(outcome)).toBe(
      'Highest final optimal-action probability: **ftw** (0.820 ± 0.050). Its 95% interval overlaps those of ppo, ' +
        'so those differences are not resolved by these seeds. Lowest cumulative regret: **reinforce** (22.0 ± 5.0).',
    );
    expect(compareFindings({ ...outcome, methods: [reinforce, ftw] })).toBe(
      'Highest final optimal-action probability: **ftw** (0.820 ± 0.050). Its 95% interval overlaps no other method’s. ' +
        'Lowest cumulative regret: **reinforce** (22.0 ± 5.0).',
    );
  });
});

describe('compareCurves', () => {
  /** A method whose seed s has P(optimal) and regret given by functions of (s, t) over `length` iterations. */
  function curves(label: string, length: number, regret: boolean): MethodOutcome {
    const results: SeedResult[] = [0, 1, 2].map((seed) => {
      const metrics = Array.from(
        { length },
        (_, t) =>
          ({
            samples: 4 * (t + 1),
            optimalProbability: 0.5 + 0.01 * t + 0.1 * seed,
            regret: regret ? t * (seed + 1) : null,
          }) as unknown as IterationMetrics,
      );
      return {
        ...method(label, 1, 1, [0.5, 0.5, 0.5], [1, 1, 1], [null, null, null], [4, 4, 4]).results[seed]!,
        metrics,
        cumulativeRegret: regret ? metrics.at(-1)!.regret : null,
      };
    });
    return { label, config: REPRODUCE_CONFIG, results, summary: summarizeSeeds(results) };
  }

  it('averages each method over seeds: P(optimal) and cumulative regret with their 95% intervals', () => {
    const outcome: ScenarioOutcome = {
      scenario: COMPARE_SCENARIOS[0]!,
      methods: [curves('a', 5, true), curves('b', 5, true)],
    };
    const { probability, regret } = compareCurves(outcome);
    expect(probability.map((p) => [p.series, p.samples])).toEqual(
      ['a', 'b'].flatMap((label) => [4, 8, 12, 16, 20].map((x) => [label, x])),
    );
    for (const [i, p] of probability.entries()) {
      // Seeds 0.5 + 0.01t + 0.1s: mean 0.6 + 0.01t, s = 0.1.
      const t = i % 5;
      expect(Math.abs(p.mean - (0.6 + 0.01 * t))).toBeLessThan(1e-12);
      expect(Math.abs(p.upper - p.mean - (T2 * 0.1) / Math.sqrt(3))).toBeLessThan(1e-12);
    }
    for (const [i, p] of regret!.entries()) {
      // Seeds t, 2t, 3t: mean 2t, s = t.
      const t = i % 5;
      expect(Math.abs(p.mean - 2 * t)).toBeLessThan(1e-12);
      expect(Math.abs(p.mean - p.lower - (T2 * t) / Math.sqrt(3))).toBeLessThan(1e-12);
    }
  });

  it('thins long runs to about 150 points, keeping the last, and has no regret chart when a method has none', () => {
    const outcome: ScenarioOutcome = {
      scenario: COMPARE_SCENARIOS[0]!,
      methods: [curves('a', 451, true), curves('b', 451, false)],
    };
    const { probability, regret } = compareCurves(outcome);
    // Every 3rd iteration of 451 (floor(451/150) = 3): t = 0, 3, …, 450.
    expect(probability.filter((p) => p.series === 'a').map((p) => p.samples)).toEqual(
      Array.from({ length: 151 }, (_, k) => 4 * (3 * k + 1)),
    );
    expect(regret).toBeNull();
  });
});
