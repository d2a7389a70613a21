import { formatInterval, type MeanInterval, meanInterval } from '@ftw/report';
import { type SuccessInterval, wilsonInterval } from '@ftw/sokoban';
import type { SeedResult } from '../train/train-seed.js';

/** Held-out greedy success at the end of a run on `levels` levels: per seed, and the mean over seeds. */
export interface HeldOutSummary {
  readonly levels: number;
  /** Per seed: levels solved, the rate and its 95% Wilson score interval over the levels. */
  readonly seeds: readonly ({ readonly seed: number } & SuccessInterval)[];
  /** Mean rate over seeds with its 95% Student-t interval (how much training varies). */
  readonly mean: MeanInterval;
}

/**
 * The `heldOut` figures of a `--level-set split` run: each seed's last `heldOutSuccess` (solved / levels,
 * so the count comes back exactly) with its Wilson score interval, and the mean over seeds.
 *
 * @param results - the run's seeds
 * @param levels - held-out levels, at least 1
 * @returns the summary
 * @example
 * ```ts
 * heldOutSummary(outcome.results, 500).seeds[0]; // { seed: 0, successes: 206, trials: 500, rate: 0.412, lower: 0.369…, upper: 0.456… }
 * ```
 */
export function heldOutSummary(results: readonly SeedResult[], levels: number): HeldOutSummary {
  const seeds = results.map((r) => {
    const rate = r.metrics.at(-1)?.evaluation?.['heldOutSuccess'] ?? 0;
    return { seed: r.seed, ...wilsonInterval(Math.round(rate * levels), levels) };
  });
  return { levels, seeds, mean: meanInterval(seeds.map((s) => s.rate)) };
}

/** The lines printed after a run's seed table (see {@link heldOutSummary}). */
export function heldOutLines({ levels, seeds, mean }: HeldOutSummary): string[] {
  const f = (x: number) => x.toFixed(4);
  return [
    `held-out greedy success (${levels} levels never trained on; per seed with its 95% Wilson interval):`,
    ...seeds.map(
      (s) => `  seed ${s.seed}: ${s.successes}/${s.trials} = ${f(s.rate)} [${f(s.lower)}, ${f(s.upper)}]`,
    ),
    `  mean over seeds: ${formatInterval(mean, 4)} (95% CI)`,
  ];
}
