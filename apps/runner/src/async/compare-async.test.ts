import { describe, expect, it } from 'vitest';
import { asyncComparisonResult, asyncVariants, runAsyncComparison } from './compare-async.js';

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
