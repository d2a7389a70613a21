import { describe, expect, it } from 'vitest';
import {
  ASYNC_SCENARIO_BASE,
  asyncComparisonResult,
  asyncVariants,
  runAsyncComparison,
} from './compare-async.js';

describe('ftw compare --scenario async', () => {
  it('runs 9 variants at the same environment-step budget and reports an unreachable Redis instead of failing', async () => {
    const comparison = await runAsyncComparison([0, 1], 'redis://127.0.0.1:1');
    expect(comparison.variants.map((v) => v.variant.label)).toEqual(
      asyncVariants([0, 1]).map((v) => v.label),
    );
    expect(comparison.variants).toHaveLength(9);
    // Completed episodes use iterations × rollouts × 4 steps; the 4 actors' unfinished episodes add
    // fewer than 4 × 4, the same in every variant (episodes have a fixed length).
    const budget = ASYNC_SCENARIO_BASE.iterations * ASYNC_SCENARIO_BASE.rollouts * 4;
    const steps = comparison.variants[0]!.outcome.results[0]!.environmentSteps;
    expect(steps).toBeGreaterThanOrEqual(budget);
    expect(steps).toBeLessThan(budget + 16);
    for (const { outcome, summary } of comparison.variants) {
      for (const r of outcome.results) expect(r.environmentSteps).toBe(steps);
      expect(summary.finalOptimalProbability.n).toBe(2);
    }
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
    const result = asyncComparisonResult(comparison);
    expect(result.artifacts.report).toContain('| lag 16, is truncate:1');
    expect(result.text('runs/x')).toContain('real actors over Redis');
  });
});
