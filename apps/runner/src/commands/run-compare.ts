import type { Progress } from '../cli/progress.js';
import type { CompareScenario } from '../config/compare-scenarios.js';
import type { TrainConfig } from '../config/train-config.js';
import { type SeedsSummary, summarizeSeeds } from '../train/summarize-seeds.js';
import type { SeedResult } from '../train/train-seed.js';
import { trainSeeds } from './train-seeds.js';

/** Options of {@link runCompare}. */
export interface CompareOptions {
  /** Seeds, the same for every method. */
  readonly seeds: readonly number[];
  /** Scenarios to run (default: all). */
  readonly scenarios: readonly CompareScenario[];
  /** Overrides of every method's optimiser and learning rate (robustness checks). */
  readonly optimizer?: TrainConfig['optimizer'];
  readonly lr?: number;
}

/** One method's outcome in one scenario. */
export interface MethodOutcome {
  readonly label: string;
  readonly config: TrainConfig;
  readonly results: readonly SeedResult[];
  readonly summary: SeedsSummary;
}

/** One scenario's outcome. */
export interface ScenarioOutcome {
  readonly scenario: CompareScenario;
  readonly methods: readonly MethodOutcome[];
}

/**
 * Runs every method of every scenario on the same seeds and the same budget (iterations × rollouts),
 * yielding to the event loop between seeds so that an interrupt is handled promptly.
 *
 * @param options - seeds, scenarios and optional optimiser overrides
 * @param progress - advanced by one per iteration
 * @returns per-scenario, per-method results
 * @example
 * ```ts
 * (await runCompare({ seeds: [0, 1], scenarios: COMPARE_SCENARIOS }))[0].methods.map((m) => m.label);
 * // ['ftw-sampled', 'ftw-expected', 'reinforce', 'grpo', 'ppo']
 * ```
 */
export async function runCompare(
  options: CompareOptions,
  progress?: Progress,
  jobs = 1,
): Promise<ScenarioOutcome[]> {
  const configs = options.scenarios.map((scenario) =>
    scenario.methods.map(
      ({ overrides }): TrainConfig => ({
        ...scenario.base,
        ...overrides,
        ...(options.optimizer === undefined ? {} : { optimizer: options.optimizer }),
        ...(options.lr === undefined ? {} : { lr: options.lr }),
        seeds: options.seeds,
      }),
    ),
  );
  // Every seed of every method of every scenario, trained in that order (or `jobs` at a time).
  const { results } = await trainSeeds(
    options.scenarios.flatMap((scenario, s) =>
      scenario.methods.flatMap(({ label }, m) =>
        options.seeds.map((seed) => ({
          config: configs[s]![m]!,
          seed,
          detail: `${scenario.name} ${label} seed ${seed}`,
        })),
      ),
    ),
    jobs,
    progress,
  );
  let next = 0;
  return options.scenarios.map((scenario, s) => ({
    scenario,
    methods: scenario.methods.map(({ label }, m): MethodOutcome => {
      const seeds = results.slice(next, (next += options.seeds.length));
      return { label, config: configs[s]![m]!, results: seeds, summary: summarizeSeeds(seeds) };
    }),
  }));
}
