import { type BandPoint, meanInterval } from '@ftw/report';
import { describe, expect, it } from 'vitest';
import { tableCells } from '../../test/table-cells.js';
import { REPRODUCE_CONFIG } from '../config/reproduce-config.js';
import { SOKOBAN_LEVELS } from '../sokoban/sokoban-scenario.js';
import { summarizeSeeds } from '../train/summarize-seeds.js';
import { type SeedResult, trainSeed } from '../train/train-seed.js';
import { seedTable, type TrainingOutcome, trainingCurves } from './training-run.js';

type Row = SeedResult['metrics'][number];

/**
 * The definition: at each iteration where every seed's value is finite, meanInterval over the seeds
 * (short runs, so every point is kept).
 */
function expected(
  results: readonly SeedResult[],
  pick: (m: Row) => number | null,
  series: string,
): BandPoint[] {
  const points: BandPoint[] = [];
  const iterations = results[0]!.metrics.length;
  for (let t = 0; t < iterations; t++) {
    const values = results.map((r) => pick(r.metrics[t]!));
    if (!values.every((v) => v !== null && Number.isFinite(v))) continue;
    const { mean, halfWidth } = meanInterval(values as number[]);
    points.push({
      series,
      samples: results[0]!.metrics[t]!.samples,
      mean,
      lower: mean - halfWidth,
      upper: mean + halfWidth,
    });
  }
  return points;
}

function outcome(seeds: readonly number[], threshold: number | null = null): TrainingOutcome {
  const config = { ...REPRODUCE_CONFIG, iterations: 60, seeds, threshold };
  const results = seeds.map((seed) => trainSeed(config, seed));
  return { config, results, summary: summarizeSeeds(results), trainingMs: 0 };
}

describe('trainingCurves', () => {
  const run = outcome([0, 1, 2]);
  const curves = trainingCurves(run);

  it('draws the mean rollout reward and the mean elite return over seeds, with their 95% intervals', () => {
    expect(curves.returns).toEqual([
      ...expected(run.results, (m) => m.reward, 'rollout reward'),
      ...expected(run.results, (m) => m.eliteMean, 'elite mean return'),
    ]);
    // Elites exist only once the pool has warmed up: the elite curve starts later than the rewards.
    const elite = curves.returns.filter((p) => p.series === 'elite mean return');
    expect(elite.length).toBeGreaterThan(0);
    expect(elite.length).toBeLessThan(60);
  });

  it('draws each seed and the mean of the optimal-action probability', () => {
    const seeds = run.results.flatMap((r) =>
      r.metrics.map((m) => ({
        series: `seed ${r.seed}`,
        samples: m.samples,
        mean: m.optimalProbability,
        lower: m.optimalProbability,
        upper: m.optimalProbability,
      })),
    );
    expect(curves.probability).toEqual([
      ...seeds,
      ...expected(run.results, (m) => m.optimalProbability, 'mean'),
    ]);
  });

  it('draws the KL of the updates that moved the policy, where every seed moved it', () => {
    const kl = expected(
      run.results,
      (m) => (m.updated && m.klMean > 0 ? m.klMean : null),
      'KL(π_old ‖ π_new)',
    );
    expect(kl.length).toBeGreaterThan(0);
    expect(curves.kl).toEqual(kl);
  });

  it('leaves out the iterations where some seed has no elite (a threshold that none passed)', () => {
    const strict = outcome([0, 1, 2], 1.1);
    const missing = strict.results[0]!.metrics.filter((_, t) =>
      strict.results.some((r) => r.metrics[t]!.eliteMean === null),
    ).length;
    const present = strict.results[0]!.metrics.filter((_, t) =>
      strict.results.some((r) => r.metrics[t]!.eliteMean !== null),
    ).length;
    // Some iterations have elites in some seeds only: the curve must skip them, not average fewer seeds.
    expect(missing + present).toBeGreaterThan(60);
    const elite = trainingCurves(strict).returns.filter((p) => p.series === 'elite mean return');
    expect(elite).toEqual(expected(strict.results, (m) => m.eliteMean, 'elite mean return'));
  });

  it('draws only the mean over more than 10 seeds, and every seed up to 10', () => {
    const many = outcome(Array.from({ length: 11 }, (_, i) => i));
    const series = new Set(trainingCurves(many).probability.map((p) => p.series));
    expect([...series]).toEqual(['mean']);
    const ten = outcome(Array.from({ length: 10 }, (_, i) => i));
    expect(new Set(trainingCurves(ten).probability.map((p) => p.series)).size).toBe(11);
  });

  it('draws the mean KL over observations, not the largest, when there are several', () => {
    // Two tasks: an update moves the two rows by different amounts, so klMean < klMax.
    const config = {
      ...REPRODUCE_CONFIG,
      environment: {
        kind: 'contextual' as const,
        taskMeans: [
          [1, 0.3],
          [0.2, 0.9],
        ],
        sd: 0.2,
      },
      iterations: 40,
      seeds: [0, 1],
    };
    const results = config.seeds.map((seed) => trainSeed(config, seed));
    const run = { config, results, summary: summarizeSeeds(results), trainingMs: 0 };
    expect(results[0]!.metrics.some((m) => m.klMean > 0 && m.klMean < m.klMax)).toBe(true);
    const kl = expected(results, (m) => (m.updated && m.klMean > 0 ? m.klMean : null), 'KL(π_old ‖ π_new)');
    expect(kl.length).toBeGreaterThan(0);
    expect(trainingCurves(run).kl).toEqual(kl);
  });
});

/** A seed's result with the figures the table reads; no metrics. */
function figures(
  seed: number,
  finalOptimalProbability: number,
  meanReward: number,
  cumulativeRegret: number | null,
  samplesTo90: number | null,
): SeedResult {
  return {
    seed,
    metrics: [],
    finalOptimalProbability,
    meanReward,
    cumulativeRegret,
    samplesTo90,
    environmentSteps: 240,
    episodes: 240,
    updates: 236,
    policyBytes: 16,
    policy: null,
    finalPolicy: { seed, kind: 'tabular', numActions: 2, parameters: [0, 0] },
  };
}

describe('trainingCurves on seeds whose iterations end at different step counts', () => {
  /** A metrics row at `samples` steps (multi-step episodes: each seed has its own step counts). */
  const row = (seed: number, samples: number, p: number, kl: number): Row => ({
    seed,
    iteration: 1,
    samples,
    reward: p,
    optimalProbability: p,
    evaluation: undefined,
    regret: null,
    klMean: kl,
    klMax: kl,
    tvMax: 0,
    updated: true,
    eliteMean: p,
    eliteSpread: 0,
    selected: 4,
    poolStaleness: 0,
    selectionStaleness: 0,
  });

  it('averages the seeds at equal environment steps, each at its last iteration at or before the step', () => {
    const a = figures(0, 0.3, 0.2, null, null);
    const b = figures(1, 0.7, 0.6, null, null);
    const results = [
      { ...a, metrics: [row(0, 10, 0.1, 0.01), row(0, 20, 0.2, 0.02), row(0, 30, 0.3, 0.03)] },
      { ...b, metrics: [row(1, 15, 0.5, 0.05), row(1, 25, 0.6, 0.06), row(1, 35, 0.7, 0.07)] },
    ];
    const curves = trainingCurves({
      config: REPRODUCE_CONFIG,
      results,
      summary: summarizeSeeds(results),
      trainingMs: 0,
    });
    /** The definition: each seed's value at its last row with samples ≤ x (none before its first row). */
    const at = (x: number, pick: (r: Row) => number): number[] =>
      results.map((r) => {
        const done = r.metrics.filter((m) => m.samples <= x);
        return done.length === 0 ? Number.NaN : pick(done.at(-1)!);
      });
    for (const [points, pick] of [
      [curves.probability.filter((p) => p.series === 'mean'), (r: Row) => r.optimalProbability],
      [curves.returns.filter((p) => p.series === 'rollout reward'), (r: Row) => r.reward],
      [curves.kl, (r: Row) => r.klMean],
    ] as const) {
      // Only where every seed has finished an iteration, up to the end of the shortest: steps 15 to 30.
      expect(points[0]!.samples).toBe(15);
      expect(points.at(-1)!.samples).toBe(30);
      for (const point of points) {
        const values = at(point.samples, pick);
        expect(Math.abs(point.mean - (values[0]! + values[1]!) / 2)).toBeLessThanOrEqual(1e-12);
      }
    }
    // At 30 steps seed 0 is at 0.3 and seed 1 at 0.6 (its third iteration ends at 35): mean 0.45.
    expect(curves.probability.filter((p) => p.series === 'mean').at(-1)!.mean).toBeCloseTo(0.45, 12);
    // Each seed's own curve keeps its own steps.
    expect(curves.probability.filter((p) => p.series === 'seed 1').map((p) => p.samples)).toEqual([
      15, 25, 35,
    ]);
  });
});

describe('seedTable', () => {
  it('prints each seed, then mean ± 95% CI of each column, and how many seeds reached 0.9', () => {
    const results = [figures(0, 0.5, 1, 10, 40), figures(1, 0.7, 2, 12, null), figures(2, 0.9, 4, 17, 60)];
    const table = seedTable({
      config: REPRODUCE_CONFIG,
      results,
      summary: summarizeSeeds(results),
      trainingMs: 0,
    });
    // Half-widths t_{0.975,ν} · s/√n with t_{0.975,2} = 4.3027 and t_{0.975,1} = 12.706 (closed forms):
    // 4.3027·0.2/√3 = 0.4968; 4.3027·√(7/3)/√3 = 3.7946; 4.3027·√13/√3 = 8.96; 12.706·√200/√2 = 127.
    expect(tableCells(table)).toEqual([
      ['0', '0.5000', '1.0000', '10.00', '40'],
      ['1', '0.7000', '2.0000', '12.00', '—'],
      ['2', '0.9000', '4.0000', '17.00', '60'],
      ['mean ± 95% CI', '0.7000 ± 0.4968', '2.3333 ± 3.7946', '13.00 ± 8.96', '50 ± 127 (2/3)'],
    ]);
    const none = results.map((r) => ({ ...r, cumulativeRegret: null, samplesTo90: null }));
    const without = seedTable({
      config: REPRODUCE_CONFIG,
      results: none,
      summary: summarizeSeeds(none),
      trainingMs: 0,
    });
    expect(tableCells(without).map((row) => row.slice(3))).toEqual([
      ['—', '—'],
      ['—', '—'],
      ['—', '—'],
      ['—', '— (0/3)'],
    ]);
  });

  it("heads the score column with what the environment's score measures", () => {
    expect(seedTable(outcome([0])).split('\n')[0]).toMatch(
      /^\| seed +\| P\(optimal action\) +\| +mean reward/,
    );
    const config = { ...REPRODUCE_CONFIG, environment: SOKOBAN_LEVELS, iterations: 3, seeds: [0] };
    const results = [trainSeed(config, 0)];
    const sokoban = { config, results, summary: summarizeSeeds(results), trainingMs: 0 };
    expect(seedTable(sokoban).split('\n')[0]).toMatch(
      /^\| seed +\| success on training levels +\| +mean reward/,
    );
  });
});
