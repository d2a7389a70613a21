import { describe, expect, it } from 'vitest';
import {
  SOKOBAN_GOAL_6X6_SCENARIO,
  SOKOBAN_GOAL_8X8_SCENARIO,
  SOKOBAN_NEURAL_SCENARIO,
  SOKOBAN_SCENARIO,
  SOKOBAN_SCENARIOS,
} from '../sokoban/sokoban-scenario.js';
import { SMALL_LEVELS } from '../sokoban/testing/small-levels.js';
import { summarizeSeeds } from '../train/summarize-seeds.js';
import type { IterationMetrics, SeedResult } from '../train/train-seed.js';
import {
  compareSokoban,
  type SokobanMethodSummary,
  stepGrid,
  stepGridCurves,
  summarizeSokoban,
} from './compare-sokoban.js';
import type { MethodOutcome, ScenarioOutcome } from './run-compare.js';

/** t_{0.975, 2} in closed form, (2p − 1)·√(2 / (4p(1 − p))). */
const T2 = 0.95 * Math.sqrt(2 / (4 * 0.975 * 0.025));

/** A metrics row: steps so far, training success, held-out success (the rest is filler). */
const row = (samples: number, train: number, heldOut: number): IterationMetrics => ({
  seed: 0,
  iteration: 1,
  samples,
  reward: 0,
  optimalProbability: train,
  evaluation: { heldOutSuccess: heldOut },
  regret: null,
  klMean: 0,
  klMax: 0,
  tvMax: 0,
  updated: true,
  eliteMean: null,
  eliteSpread: null,
  selected: null,
  poolStaleness: null,
  selectionStaleness: null,
});

function seed(
  id: number,
  metrics: IterationMetrics[],
  meanReward: number,
  episodes: number,
  policyBytes: number,
): SeedResult {
  const last = metrics.at(-1)!;
  return {
    seed: id,
    metrics,
    finalOptimalProbability: last.optimalProbability,
    meanReward,
    cumulativeRegret: null,
    samplesTo90: null,
    environmentSteps: last.samples,
    episodes,
    updates: 3,
    policyBytes,
    policy: null,
    finalPolicy: { seed: id, kind: 'linear', numActions: 4, parameters: [] },
  };
}

// Three seeds whose first and last rows differ in every figure.
const results = [
  seed(0, [row(100, 0.1, 0), row(210, 0.3, 0.1)], 0.2, 20, 512),
  seed(1, [row(100, 0.2, 0.1), row(205, 0.5, 0.3)], 0.3, 22, 640),
  seed(2, [row(110, 0, 0), row(220, 0.7, 0.2)], 0.4, 27, 768),
];
const method: MethodOutcome = {
  label: 'ftw-k1',
  config: { ...SOKOBAN_SCENARIO.base, seeds: [0, 1, 2] },
  results,
  summary: summarizeSeeds(results),
};
const outcome: ScenarioOutcome = { scenario: SOKOBAN_SCENARIO, methods: [method] };

function close(actual: number, expected: number): void {
  expect(Math.abs(actual - expected), `${actual} against ${expected}`).toBeLessThanOrEqual(1e-12);
}

describe('summarizeSokoban', () => {
  it('gives the final training and held-out success, mean return, steps and episodes, mean ± 95% CI', () => {
    const [s] = summarizeSokoban(outcome);
    expect(s!.label).toBe('ftw-k1');
    // Last rows: training 0.3, 0.5, 0.7 (s = 0.2); held-out 0.1, 0.3, 0.2 (s = 0.1); returns 0.2, 0.3, 0.4.
    close(s!.trainSuccess.mean, 0.5);
    close(s!.trainSuccess.halfWidth, (T2 * 0.2) / Math.sqrt(3));
    close(s!.heldOutSuccess.mean, 0.2);
    close(s!.heldOutSuccess.halfWidth, (T2 * 0.1) / Math.sqrt(3));
    close(s!.meanReward.mean, 0.3);
    close(s!.environmentSteps.mean, 635 / 3);
    close(s!.episodes.mean, 23);
    expect(s!.policyBytes).toBe(512);
    expect(s!.description).toContain('up to 8000 steps');
  });
});

describe('stepGrid', () => {
  it('spaces 40 points evenly up to the budget, ending on it', () => {
    const grid = stepGrid(8000);
    expect(grid).toHaveLength(40);
    expect(grid.slice(0, 3)).toEqual([200, 400, 600]);
    expect(grid.at(-1)).toBe(8000);
    expect(stepGrid(30).slice(0, 4)).toEqual([1, 2, 2, 3]); // 0.75, 1.5, 2.25, 3 rounded
  });
});

describe('stepGridCurves', () => {
  it("averages the seeds' last values at or before each grid point (0 before the first), with the 95% interval", () => {
    // Per seed at 50, 100, 205, 215, 300: (0, 0.1, 0.1, 0.3, 0.3), (0, 0.2, 0.5, 0.5, 0.5), (0, 0, 0, 0, 0.7).
    const points = stepGridCurves(outcome, [50, 100, 205, 215, 300], (m) => m.optimalProbability);
    expect(points.map((p) => [p.series, p.samples])).toEqual(
      [50, 100, 205, 215, 300].map((x) => ['ftw-k1', x]),
    );
    const means = [0, 0.1, 0.2, 0.8 / 3, 0.5];
    // Sample standard deviations (n − 1 = 2 in the denominator), from the values above.
    const sds = [
      0,
      0.1,
      Math.sqrt(0.07),
      Math.sqrt(((0.3 - 0.8 / 3) ** 2 + (0.5 - 0.8 / 3) ** 2 + (0.8 / 3) ** 2) / 2),
      0.2,
    ];
    for (const [t, p] of points.entries()) {
      close(p.mean, means[t]!);
      close(p.upper - p.mean, (T2 * sds[t]!) / Math.sqrt(3));
      close(p.mean - p.lower, (T2 * sds[t]!) / Math.sqrt(3));
    }
    const heldOut = stepGridCurves(outcome, [300], (m) => m.evaluation?.['heldOutSuccess'] ?? 0);
    close(heldOut[0]!.mean, 0.2);
  });
});

describe('compareSokoban', () => {
  it('prints each method’s figures in their own columns, as summary.json has them', async () => {
    const scenario = {
      ...SOKOBAN_SCENARIO,
      base: { ...SOKOBAN_SCENARIO.base, environment: { ...SMALL_LEVELS, heldOut: 6 }, maxSamples: 400 },
      methods: SOKOBAN_SCENARIO.methods.filter((m) => m.label === 'ftw-k1' || m.label === 'ppo'),
    };
    const { artifacts } = await compareSokoban([0, 1, 2], undefined, 1, scenario);
    const methods = (artifacts.summary as { methods: SokobanMethodSummary[] }).methods;
    const lines = artifacts.report.split('\n').filter((line) => /^\| (ftw-k1|ppo) /.test(line));
    expect(lines).toHaveLength(2);
    for (const [i, line] of lines.entries()) {
      const m = methods[i]!;
      const cells = line
        .slice(1, -1)
        .split('|')
        .map((c) => c.trim());
      const interval = (x: { mean: number; halfWidth: number }) =>
        `${x.mean.toFixed(3)} ± ${x.halfWidth.toFixed(3)}`;
      expect(cells).toEqual([
        m.label,
        interval(m.trainSuccess),
        interval(m.heldOutSuccess),
        interval(m.meanReward),
        m.environmentSteps.mean.toFixed(0),
        m.episodes.mean.toFixed(0),
      ]);
    }
    // The columns differ, so a swap would show.
    const figures = methods.flatMap((m) => [m.trainSuccess.mean, m.heldOutSuccess.mean, m.meanReward.mean]);
    expect(new Set(figures).size).toBeGreaterThan(3);
  });

  it('runs the neural scenario with its network on every method, and names it in the report', async () => {
    const scenario = {
      ...SOKOBAN_NEURAL_SCENARIO,
      base: {
        ...SOKOBAN_NEURAL_SCENARIO.base,
        environment: { ...SMALL_LEVELS, heldOut: 6 },
        network: { hidden: [8], filters: [], envs: 2 },
        maxSamples: 400,
      },
      methods: SOKOBAN_NEURAL_SCENARIO.methods.filter((m) => m.label === 'ftw-k3' || m.label === 'grpo'),
    };
    const { artifacts, text } = await compareSokoban([0, 1], undefined, 1, scenario);
    expect(artifacts.report).toMatch(/^# ftw compare --scenario sokoban-neural\n/);
    expect(artifacts.report).toContain(
      'Every method: mlp network on @ftw/tfjs (hidden 8), 2 environments in lockstep, Adam lr 0.001, 8 episodes per iteration, stopped at 400 environment steps',
    );
    expect((text as (path: string) => string)('x')).toMatch(/^ftw compare --scenario sokoban-neural\n/);
    const summary = artifacts.summary as { scenario: string; methods: SokobanMethodSummary[] };
    expect(summary.scenario).toBe('sokoban-neural');
    // The network's weights, not a linear policy's 4 × 84: (84·8 + 8) + (8·4 + 4) float64 numbers at least.
    for (const m of summary.methods) expect(m.policyBytes).toBeGreaterThanOrEqual(716 * 8);
    const tagged = artifacts.metrics as { scenario: string; method: string }[];
    expect(new Set(tagged.map((m) => `${m.scenario} ${m.method}`))).toEqual(
      new Set(['sokoban-neural ftw-k3', 'sokoban-neural grpo']),
    );
  });

  it("sets the goal scenarios at issue 40's scale: 10^4 training levels, 500 held out, 2·10^6 steps, FTW and PPO", () => {
    for (const [scenario, size, boxes] of [
      [SOKOBAN_GOAL_6X6_SCENARIO, 6, 1],
      [SOKOBAN_GOAL_8X8_SCENARIO, 8, 2],
    ] as const) {
      const { environment, maxSamples, policy, network } = scenario.base;
      expect(environment).toMatchObject({
        kind: 'sokoban',
        size,
        boxes,
        levelSet: 'split',
        levels: 10_000,
        heldOut: 500,
      });
      expect(maxSamples).toBe(2_000_000);
      // The same network as the neural comparison, for every method.
      expect({ policy, network }).toEqual({ policy: 'mlp', network: SOKOBAN_NEURAL_SCENARIO.base.network });
      expect(scenario.methods.map((m) => m.label)).toEqual(['ftw-k1', 'ftw-k3-threshold', 'ppo']);
    }
    expect(SOKOBAN_SCENARIOS.map((s) => s.name)).toEqual([
      'sokoban',
      'sokoban-neural',
      'sokoban-goal-6x6',
      'sokoban-goal-8x8',
    ]);
  });
});
