import type { MeanInterval } from '@ftw/report';
import { describe, expect, it } from 'vitest';
import type { AsyncIterationMetrics, AsyncSeedResult } from '../async/train-async-seed.js';
import type { AsyncOutcome, AsyncSummary } from './async-training-run.js';
import {
  type AsyncComparison,
  actorThroughput,
  asyncComparisonResult,
  asyncVariants,
  onSeeds,
  runAsyncComparison,
} from './compare-async.js';

describe('ftw compare --scenario async', () => {
  it('runs 9 variants on Sokoban at matched environment steps and reports an unreachable Redis instead of failing', async () => {
    const budget = 1000;
    const comparison = await runAsyncComparison([0, 1], 'redis://127.0.0.1:1', undefined, undefined, budget);
    expect(comparison.variants.map((v) => v.variant.label)).toEqual(
      asyncVariants([0, 1]).map((v) => v.label),
    );
    expect(comparison.variants).toHaveLength(9);
    // A run ends at the first iteration that reaches the budget. An iteration ends once 3 episodes have
    // completed; within 4 actors × 30 steps every actor has completed one, so the overshoot is < 120.
    for (const { variant, outcome, summary } of comparison.variants) {
      expect(variant.config.environment.kind).toBe('sokoban');
      for (const r of outcome.results) {
        expect(r.environmentSteps).toBeGreaterThanOrEqual(budget);
        expect(r.environmentSteps).toBeLessThan(budget + 4 * 30);
      }
      expect(summary.finalOptimalProbability.n).toBe(2);
    }
    // Several actors really ran: with hot-loading per step some trajectories span versions.
    expect(comparison.variants[0]!.summary.multiVersionShare.mean).toBeGreaterThan(0);
    // The version bound keeps only trajectories at most L + 8 versions old: selected staleness ≤ L + 8.
    for (const { variant, outcome } of comparison.variants) {
      if (variant.config.maxVersionLag === null) continue;
      for (const r of outcome.results) {
        for (const m of r.metrics)
          if (m.selectionStaleness !== null)
            expect(m.selectionStaleness).toBeLessThanOrEqual(variant.config.maxVersionLag);
      }
    }
    expect(comparison.redis).toMatch(/^not measured: CONNECTION_LOST/);
    expect(comparison.redisSokoban).toBe(comparison.redis);
    const result = asyncComparisonResult(comparison);
    expect(result.artifacts.report).toContain('| lag 16, is truncate:1');
    expect(result.artifacts.report).toContain('final training success');
    expect(result.text('runs/x')).toContain('real actors over Redis');
    expect(result.artifacts.report).toContain(
      '## Real actors on Sokoban\n\nreal actors on Sokoban:\n\nnot measured: CONNECTION_LOST',
    );
    // Measured, the Sokoban table sets the processes beside the simulation, with the learner's check.
    const lag0 = comparison.variants[0]!.summary;
    const measured = asyncComparisonResult({
      ...comparison,
      redisSokoban: {
        seeds: [0, 1],
        simulated: lag0,
        real: { ...lag0, mode: 'redis', behaviourCheck: { steps: 12, maxLogProbGap: 0 } },
      },
    });
    expect(measured.artifacts.report).toContain('on seeds 0–1; mean ± 95% CI:');
    expect(measured.artifacts.report).toMatch(
      /\| simulated \(lag 0\) +\|.*\| +— \|\n\| processes over Redis +\|.*\| +12: 0 \|/,
    );
  });
});

/** A figure over one seed: printed as its mean alone. */
const one = (mean: number): MeanInterval => ({ n: 1, mean, halfWidth: 0, sd: 0 });

/** A summary whose every figure differs from every other, so that a figure in another's column shows. */
const summary = (k: number, redis: boolean): AsyncSummary => ({
  mode: redis ? 'redis' : 'simulation',
  finalOptimalProbability: one(0.1 + k / 1000),
  environmentSteps: one(8000 + k),
  versionSpread: one(0.5 + k / 100),
  multiVersionShare: one(0.6 + k / 100),
  poolStaleness: one(40 + k),
  selectionStaleness: one(7 + k / 10),
  logWeightMean: one(-0.2 - k / 1000),
  essShare: one(0.3 + k / 1000),
  stepsPerSecond: redis ? one(5000 + k) : null,
  behaviourCheck: redis ? { steps: 100 + k, maxLogProbGap: 0 } : null,
  published: redis ? { snapshots: 1, deltas: 0, bytes: 8 } : null,
  skipped: redis ? 0 : null,
});

/** The rows of the Markdown tables of a text, as arrays of trimmed cells, by their first cell. */
function rows(text: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('|')) continue;
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    map.set(cells[0]!, cells.slice(1));
  }
  return map;
}

describe('asyncComparisonResult', () => {
  const seedResult = (seed: number): AsyncSeedResult =>
    ({
      seed,
      metrics: [],
      finalOptimalProbability: 0,
      environmentSteps: 0,
      updates: 0,
    }) as unknown as AsyncSeedResult;
  const variants = asyncVariants([3, 4, 5], 8000).map((variant, k) => ({
    variant,
    summary: summary(k, false),
    outcome: {
      config: variant.config,
      options: variant.options,
      mode: 'simulation',
      results: [3, 4, 5].map(seedResult),
    } as AsyncOutcome,
  }));
  const comparison: AsyncComparison = {
    variants,
    redis: [
      { actors: 1, stepsPerSecond: 1234.4, finalOptimalProbability: 0.9876, versionSpread: 0.125 },
      { actors: 4, stepsPerSecond: 4321.6, finalOptimalProbability: 0.5, versionSpread: 1.5 },
    ],
    redisSokoban: { seeds: [3, 4, 5], simulated: summary(20, false), real: summary(30, true) },
  };

  it('puts each summary figure of each variant in its own column', () => {
    const result = asyncComparisonResult(comparison);
    const table = rows(result.artifacts.report);
    for (const [k, { variant }] of variants.entries()) {
      expect(table.get(variant.label)).toEqual([
        (0.1 + k / 1000).toFixed(3), // final training success
        String(8000 + k), // environment steps
        (7 + k / 10).toFixed(1), // selected staleness
        (-0.2 - k / 1000).toFixed(3), // log w(τ) selected
        (0.3 + k / 1000).toFixed(3), // ESS / selected
        (0.5 + k / 100).toFixed(2), // version spread
      ]);
    }
    expect(rows(result.text('runs/x')).get('lag 4, is truncate:1')).toEqual(
      table.get('lag 4, is truncate:1'),
    );
    expect(result.artifacts.report).toContain('every variant runs to 8000 environment steps');
    expect(result.artifacts.report).toContain('; 3 seeds; mean ± 95% CI');
  });

  it('prints the throughput rows and the Sokoban processes beside their simulation, each figure in its column', () => {
    const table = rows(asyncComparisonResult(comparison).artifacts.report);
    expect(table.get('1')).toEqual(['1234', '0.988', '0.13']);
    expect(table.get('4')).toEqual(['4322', '0.500', '1.50']);
    expect(table.get('simulated (lag 0)')).toEqual(['0.120', '8020', '9.0', '0.70', '—', '—']);
    expect(table.get('processes over Redis')).toEqual(['0.130', '8030', '10.0', '0.80', '5030', '130: 0']);
  });
});

describe('actorThroughput', () => {
  it('averages the per-iteration version spread over the iterations, and copies the rate and the score', () => {
    const metrics = [0, 1, 2, 5].map((versionSpread) => ({ versionSpread }) as AsyncIterationMetrics);
    expect(actorThroughput(2, { stepsPerSecond: 1530.5, finalOptimalProbability: 0.75, metrics })).toEqual({
      actors: 2,
      stepsPerSecond: 1530.5,
      finalOptimalProbability: 0.75,
      versionSpread: 2, // (0 + 1 + 2 + 5) / 4
    });
  });
});

describe('onSeeds', () => {
  it("keeps the results of the given seeds only, so the simulation is summarised over the real actors' seeds", () => {
    const outcome = {
      mode: 'simulation',
      results: [0, 1, 2, 3].map((seed) => ({ seed, finalOptimalProbability: seed / 4 })),
    } as unknown as AsyncOutcome;
    expect(onSeeds(outcome, [0, 1]).results.map((r) => r.seed)).toEqual([0, 1]);
    expect(onSeeds(outcome, [2]).results.map((r) => r.finalOptimalProbability)).toEqual([0.5]);
  });
});
