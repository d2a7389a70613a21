import { type MeanInterval, meanInterval } from '@ftw/report';
import type { SeedResult } from './train-seed.js';

/** Seed-level outcomes and their means with 95% confidence intervals. */
export interface SeedsSummary {
  /** Per seed: the final figures (no per-iteration metrics). */
  readonly seeds: readonly Omit<SeedResult, 'metrics'>[];
  /** Final optimal-action probability. */
  readonly finalOptimalProbability: MeanInterval;
  /** Mean reward per sample. */
  readonly meanReward: MeanInterval;
  /** Cumulative expected regret; null when the environment defines no regret. */
  readonly cumulativeRegret: MeanInterval | null;
  /** Samples to reach probability 0.9, over the seeds that reached it (null when none did). */
  readonly samplesTo90: MeanInterval | null;
  /** How many seeds reached 0.9. */
  readonly reached90: number;
  /** Environment steps per seed, the mean over seeds (identical across seeds for one-step episodes). */
  readonly environmentSteps: number;
}

/**
 * Summarises one configuration's seeds: mean ± 95% Student-t interval of each figure.
 *
 * @param results - one result per seed (at least one)
 * @returns the summary
 * @throws RangeError when `results` is empty
 * @example
 * ```ts
 * summarizeSeeds(results).finalOptimalProbability; // { n: 3, mean: 0.968, halfWidth: 0.002, sd: 0.0008 }
 * ```
 */
export function summarizeSeeds(results: readonly SeedResult[]): SeedsSummary {
  if (results.length === 0) throw new RangeError('results must not be empty, got []');
  const reached = results.flatMap((r) => (r.samplesTo90 === null ? [] : [r.samplesTo90]));
  return {
    seeds: results.map(({ metrics: _metrics, ...rest }) => rest),
    finalOptimalProbability: meanInterval(results.map((r) => r.finalOptimalProbability)),
    meanReward: meanInterval(results.map((r) => r.meanReward)),
    cumulativeRegret: results.every((r) => r.cumulativeRegret !== null)
      ? meanInterval(results.map((r) => r.cumulativeRegret!))
      : null,
    samplesTo90: reached.length === 0 ? null : meanInterval(reached),
    reached90: reached.length,
    environmentSteps: results.reduce((sum, r) => sum + r.environmentSteps, 0) / results.length,
  };
}
