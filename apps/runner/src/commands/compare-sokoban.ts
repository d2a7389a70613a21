import {
  type BandPoint,
  formatInterval,
  lastAtOrBefore,
  learningCurveChart,
  type MeanInterval,
  markdownTable,
  meanInterval,
  renderSvg,
} from '@ftw/report';
import type { Progress } from '../cli/progress.js';
import type { CompareScenario } from '../config/compare-scenarios.js';
import type { TrainConfig } from '../config/train-config.js';
import { type RunResult, textThenPath } from '../run/write-run.js';
import { SOKOBAN_SCENARIO } from '../sokoban/sokoban-scenario.js';
import { describeEnvironment, describeMethod } from '../train/describe-config.js';
import type { SeedResult } from '../train/train-seed.js';
import { runCompare, type ScenarioOutcome } from './run-compare.js';

/** Points of the learning curves on the common step grid. */
const GRID_POINTS = 40;

/** One method's figures over seeds. */
export interface SokobanMethodSummary {
  readonly label: string;
  readonly description: string;
  /** Greedy success on the training levels at the end. */
  readonly trainSuccess: MeanInterval;
  /** Greedy success on the held-out levels at the end. */
  readonly heldOutSuccess: MeanInterval;
  /** Mean return per training episode (the share of episodes that solved their level). */
  readonly meanReward: MeanInterval;
  /** Environment steps taken (the budget, overshot by at most one iteration). */
  readonly environmentSteps: MeanInterval;
  /** Episodes collected. */
  readonly episodes: MeanInterval;
  /** Bytes of the policy. */
  readonly policyBytes: number;
}

/**
 * A seed's score at every point of a step grid: the value after the last iteration that ended at or
 * before it (0 before the first), so seeds whose iterations end at different step counts share one x axis.
 *
 * @param result - one seed's run
 * @param grid - step counts, ascending
 * @param pick - the figure
 * @returns one value per grid point
 */
export function onStepGrid(
  result: SeedResult,
  grid: readonly number[],
  pick: (m: SeedResult['metrics'][number]) => number,
): number[] {
  const at = lastAtOrBefore(
    result.metrics.map((m) => m.samples),
    grid,
  );
  return grid.map((_, t) => (at[t]! < 0 ? 0 : pick(result.metrics[at[t]!]!)));
}

/**
 * The x grid of the Sokoban learning curves: {@link GRID_POINTS} step counts evenly spaced up to the
 * budget, rounded, the last one the budget itself.
 *
 * @param budget - environment steps per method and seed
 * @returns round(i · budget / GRID_POINTS) for i = 1 … GRID_POINTS
 * @example
 * ```ts
 * stepGrid(8000).slice(0, 3); // [200, 400, 600]
 * ```
 */
export function stepGrid(budget: number): number[] {
  return Array.from({ length: GRID_POINTS }, (_, i) => Math.round(((i + 1) * budget) / GRID_POINTS));
}

/**
 * Each method's learning curve on a common step grid: at every grid point, mean ± 95% Student-t interval
 * (`meanInterval`) over seeds of each seed's value there ({@link onStepGrid}).
 *
 * @param outcome - the scenario's outcome
 * @param grid - step counts, ascending
 * @param pick - the figure
 * @returns one point per method and grid point, methods in order
 * @example
 * ```ts
 * stepGridCurves(outcome, stepGrid(8000), (m) => m.optimalProbability)[0];
 * // { series: 'ftw-k1', samples: 200, mean: 0, lower: 0, upper: 0 }
 * ```
 */
export function stepGridCurves(
  outcome: ScenarioOutcome,
  grid: readonly number[],
  pick: (m: SeedResult['metrics'][number]) => number,
): BandPoint[] {
  return outcome.methods.flatMap((m) => {
    const values = m.results.map((r) => onStepGrid(r, grid, pick));
    return grid.map((samples, t) => {
      const interval = meanInterval(values.map((v) => v[t]!));
      return {
        series: m.label,
        samples,
        mean: interval.mean,
        lower: interval.mean - interval.halfWidth,
        upper: interval.mean + interval.halfWidth,
      };
    });
  });
}

/** {@link describeMethod} with the step budget instead of the (unreached) iteration count. */
function describeBudgetedMethod(config: TrainConfig): string {
  // The tie rule is already in describeMethod's text; the scenario's levels never set lengthTiebreak
  // (its "ties by length" variant uses --tie-rule shortest), so there is no length penalty to name here.
  return describeMethod(config).replace(
    /, \d+ iterations × (\d+) rollouts?$/,
    (_, rollouts: string) => `, ${rollouts} episodes per iteration up to ${config.maxSamples ?? '?'} steps`,
  );
}

/**
 * Summarises one scenario outcome of the Sokoban comparison.
 *
 * @param outcome - the outcome of `runCompare`
 * @returns per-method figures, mean ± 95% CI over seeds
 */
export function summarizeSokoban(outcome: ScenarioOutcome): SokobanMethodSummary[] {
  return outcome.methods.map((m) => {
    const last = m.results.map((r) => r.metrics.at(-1)!);
    return {
      label: m.label,
      description: describeBudgetedMethod(m.config),
      trainSuccess: meanInterval(last.map((x) => x.optimalProbability)),
      heldOutSuccess: meanInterval(last.map((x) => x.evaluation?.['heldOutSuccess'] ?? 0)),
      meanReward: meanInterval(m.results.map((r) => r.meanReward)),
      environmentSteps: meanInterval(m.results.map((r) => r.environmentSteps)),
      episodes: meanInterval(m.results.map((r) => r.episodes)),
      policyBytes: m.results[0]!.policyBytes,
    };
  });
}

/**
 * `ftw compare --scenario sokoban`: runs the Sokoban scenario on every seed and writes the table (greedy
 * success on training and held-out levels, mean ± 95% CI), learning curves on a common step grid, and the
 * per-iteration metrics.
 *
 * @param seeds - seeds (the same for every method)
 * @param progress - progress reporter
 * @param jobs - seeds trained at once (`--jobs`)
 * @param scenario - the scenario (tests pass a smaller budget)
 * @returns the run's artifacts and text
 */
export async function compareSokoban(
  seeds: readonly number[],
  progress?: Progress,
  jobs = 1,
  scenario: CompareScenario = SOKOBAN_SCENARIO,
): Promise<RunResult> {
  const [outcome] = await runCompare({ seeds, scenarios: [scenario] }, progress, jobs);
  const summaries = summarizeSokoban(outcome!);
  const budget = scenario.base.maxSamples ?? 0;
  const grid = stepGrid(budget);
  const curves = (pick: (m: SeedResult['metrics'][number]) => number): BandPoint[] =>
    stepGridCurves(outcome!, grid, pick);
  const subtitle = [
    describeEnvironment(scenario.base.environment),
    `${budget} environment steps per method and seed, ${seeds.length} seeds`,
  ];
  const files: Record<string, string> = {
    'curves-sokoban-train.svg': await renderSvg(
      learningCurveChart(
        curves((m) => m.optimalProbability),
        {
          title: 'Greedy success on training levels (mean, 95% CI)',
          subtitle,
          yTitle: 'levels solved',
          unitInterval: true,
        },
      ),
    ),
    'curves-sokoban-held-out.svg': await renderSvg(
      learningCurveChart(
        curves((m) => m.evaluation?.['heldOutSuccess'] ?? 0),
        {
          title: 'Greedy success on held-out levels (mean, 95% CI)',
          subtitle,
          yTitle: 'levels solved',
          unitInterval: true,
        },
      ),
    ),
  };
  const table = markdownTable(
    ['method', 'training success', 'held-out success', 'mean return', 'env steps', 'episodes'],
    summaries.map((s) => [
      s.label,
      formatInterval(s.trainSuccess, 3),
      formatInterval(s.heldOutSuccess, 3),
      formatInterval(s.meanReward, 3),
      s.environmentSteps.mean.toFixed(0),
      s.episodes.mean.toFixed(0),
    ]),
    ['l', 'r', 'r', 'r', 'r', 'r'],
  );
  const { network } = scenario.base;
  const policy =
    network === undefined
      ? 'linear softmax policy over egocentric features'
      : `${scenario.base.policy} network on @ftw/tfjs (hidden ${network.hidden.join(', ')}${network.filters.length > 0 ? `; filters ${network.filters.join(', ')}` : ''}), ${network.envs} environments in lockstep`;
  const intro = [
    scenario.description,
    `Every method: ${policy}, Adam lr ${scenario.base.lr}, ${scenario.base.rollouts} episodes per iteration, stopped at ${budget} environment steps; ${seeds.length} seeds; success of the greedy policy (one episode per level), mean ± 95% CI over seeds.`,
  ];
  const title = `ftw compare --scenario ${scenario.name}`;
  const report = [
    `# ${title}`,
    '',
    ...intro,
    '',
    table,
    '',
    ...summaries.map((s) => `- ${s.label}: ${s.description}`),
    '',
    '![training levels](curves-sokoban-train.svg)',
    '',
    '![held-out levels](curves-sokoban-held-out.svg)',
    '',
  ].join('\n');
  return {
    artifacts: {
      config: {
        scenario: scenario.name,
        seeds,
        methods: outcome!.methods.map((m) => ({ label: m.label, config: m.config })),
      },
      metrics: outcome!.methods.flatMap((m) =>
        m.results.flatMap((r) => r.metrics.map((x) => ({ scenario: scenario.name, method: m.label, ...x }))),
      ),
      summary: { command: 'compare', scenario: scenario.name, seeds, methods: summaries },
      report,
      files,
    },
    text: textThenPath([title, ...intro.map((l) => `  ${l}`), '', table.trimEnd(), '']),
  };
}
