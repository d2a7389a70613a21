import { describe, expect, it } from 'vitest';
import { REPRODUCE_CONFIG } from '../config/reproduce-config.js';
import { SOKOBAN_LEVELS } from '../sokoban/sokoban-scenario.js';
import type { BandPoint } from '../stats/curve-band.js';
import { meanInterval } from '../stats/mean-interval.js';
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

  it('draws only the mean over more than 10 seeds', () => {
    const many = outcome(Array.from({ length: 11 }, (_, i) => i));
    const series = new Set(trainingCurves(many).probability.map((p) => p.series));
    expect([...series]).toEqual(['mean']);
  });
});

describe('seedTable', () => {
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
