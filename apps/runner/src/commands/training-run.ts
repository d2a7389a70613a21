import {
  type BandPoint,
  commonStepGrid,
  curveBand,
  formatInterval,
  lastAtOrBefore,
  learningCurveChart,
  markdownTable,
  renderSvg,
  sameSteps,
} from '@ftw/report';
import type { Progress } from '../cli/progress.js';
import type { TrainConfig } from '../config/train-config.js';
import { ndjson } from '../run/ndjson.js';
import type { RunArtifacts } from '../run/write-run.js';
import { describeEnvironment, describeMethod, scoreName } from '../train/describe-config.js';
import { type SeedsSummary, summarizeSeeds } from '../train/summarize-seeds.js';
import type { SeedResult } from '../train/train-seed.js';
import { trainSeeds } from './train-seeds.js';

/** Runs with more seeds than this draw the mean curve and its band only, not one curve per seed. */
const MAX_SEED_CURVES = 10;

/** The outcome of every seed of one configuration. */
export interface TrainingOutcome {
  readonly config: TrainConfig;
  readonly results: readonly SeedResult[];
  readonly summary: SeedsSummary;
  /** Milliseconds spent in the seeds' training (trainSeed), for `timing.json`. */
  readonly trainingMs: number;
}

/**
 * Trains every seed of a configuration (see {@link trainSeeds}): in order on this thread, yielding to the
 * event loop every 20 ms of training so that an interrupt (Ctrl-C) is handled promptly and the unfinished
 * run is removed; or `jobs` at a time on worker threads, with the same results bit for bit.
 *
 * @param config - the resolved configuration
 * @param progress - advanced by one per iteration
 * @param jobs - seeds trained at once (`--jobs`), 1 by default
 * @returns per-seed results and their summary
 * @example
 * ```ts
 * (await runTraining(REPRODUCE_CONFIG)).summary.finalOptimalProbability.mean; // 0.9684…
 * ```
 */
export async function runTraining(
  config: TrainConfig,
  progress?: Progress,
  jobs = 1,
): Promise<TrainingOutcome> {
  const { results, trainingMs } = await trainSeeds(
    config.seeds.map((seed, i) => ({
      config,
      seed,
      detail: `seed ${seed} (${i + 1}/${config.seeds.length})`,
    })),
    jobs,
    progress,
  );
  return { config, results, summary: summarizeSeeds(results), trainingMs };
}

/**
 * The seed table printed on stdout and in `report.md`.
 *
 * @param outcome - the trained seeds
 * @returns a Markdown table: one row per seed, then mean ± 95% CI
 * @example
 * ```ts
 * seedTable(await runTraining(REPRODUCE_CONFIG));
 * // | seed | P(optimal action) | mean reward | cumulative regret | samples to 0.9 |
 * // | 0    |            0.9689 |      0.9271 |             17.72 |             71 | …
 * ```
 */
export function seedTable(outcome: TrainingOutcome): string {
  const rows = outcome.summary.seeds.map((s) => [
    String(s.seed),
    s.finalOptimalProbability.toFixed(4),
    s.meanReward.toFixed(4),
    s.cumulativeRegret === null ? '—' : s.cumulativeRegret.toFixed(2),
    s.samplesTo90 === null ? '—' : String(s.samplesTo90),
  ]);
  const s = outcome.summary;
  rows.push([
    'mean ± 95% CI',
    formatInterval(s.finalOptimalProbability, 4),
    formatInterval(s.meanReward, 4),
    s.cumulativeRegret === null ? '—' : formatInterval(s.cumulativeRegret, 2),
    `${s.samplesTo90 === null ? '—' : formatInterval(s.samplesTo90, 0)} (${s.reached90}/${s.seeds.length})`,
  ]);
  return markdownTable(
    [
      'seed',
      scoreName(outcome.config.environment).label,
      'mean reward',
      'cumulative regret',
      'samples to 0.9',
    ],
    rows,
    ['l', 'r', 'r', 'r', 'r'],
  );
}

/** One metric of every seed as columns (one Float64Array per seed; NaN where absent or null), with the x grid. */
interface SeedColumns {
  readonly samples: readonly number[];
  readonly columns: readonly Float64Array[];
}

/**
 * The x grid of the mean curves: the seeds' own step counts when every seed has the same ones (one-step
 * episodes); otherwise (multi-step episodes, such as Sokoban's) the common grid of `ftw view`
 * ({@link commonStepGrid}), where every seed has a value.
 */
function meanGrid(grids: readonly (readonly number[])[]): { samples: readonly number[]; shared: boolean } {
  return sameSteps(grids)
    ? { samples: grids[0]!, shared: true }
    : { samples: commonStepGrid(grids), shared: false };
}

/**
 * The charts' metrics of every seed, read in one pass over the rows (seed by seed, in the order they were
 * made): optimal-action probability, rollout reward, elite mean return and the KL of updates that moved
 * the policy. Each seed's value at a step of the grid ({@link meanGrid}) is that of its last iteration
 * ended at or before the step, so seeds are averaged at equal sampling budgets, not at equal iterations.
 */
function chartColumns(
  outcome: TrainingOutcome,
): Record<'probability' | 'reward' | 'elite' | 'kl', SeedColumns> {
  const { samples, shared } = meanGrid(outcome.results.map((r) => r.metrics.map((m) => m.samples)));
  const make = () => outcome.results.map(() => new Float64Array(samples.length).fill(Number.NaN));
  const probability = make();
  const reward = make();
  const elite = make();
  const kl = make();
  outcome.results.forEach(({ metrics }, s) => {
    const at = shared
      ? null
      : lastAtOrBefore(
          metrics.map((m) => m.samples),
          samples,
        );
    for (let t = 0; t < samples.length; t++) {
      const i = at === null ? t : at[t]!;
      if (i < 0) continue;
      const m = metrics[i]!;
      probability[s]![t] = m.optimalProbability;
      reward[s]![t] = m.reward;
      elite[s]![t] = m.eliteMean ?? Number.NaN;
      kl[s]![t] = m.updated && m.klMean > 0 ? m.klMean : Number.NaN;
    }
  });
  return {
    probability: { samples, columns: probability },
    reward: { samples, columns: reward },
    elite: { samples, columns: elite },
    kl: { samples, columns: kl },
  };
}

/** Mean ± 95% CI over seeds at every iteration where each seed has a finite value. */
function curves({ samples, columns }: SeedColumns, series: string): BandPoint[] {
  const keep: number[] = [];
  for (let t = 0; t < samples.length; t++) {
    if (columns.every((column) => Number.isFinite(column[t]!))) keep.push(t);
  }
  if (keep.length === 0) return [];
  const values = columns.map((column) => keep.map((t) => column[t]!));
  return curveBand(
    series,
    keep.map((t) => samples[t]!),
    values,
    Math.max(1, Math.floor(keep.length / 200)),
  );
}

/** The curves of a training run's three charts (see {@link trainingCurves}). */
export interface TrainingCurves {
  /** Each seed's optimal-action probability (10 seeds or fewer), then the mean over seeds. */
  readonly probability: readonly BandPoint[];
  /** Mean rollout reward and mean elite return over seeds. */
  readonly returns: readonly BandPoint[];
  /** Mean KL between successive policies, over the iterations where every seed's update moved it. */
  readonly kl: readonly BandPoint[];
}

/**
 * The curves the report's charts draw: at each iteration where every seed has a finite value, the mean
 * over seeds with its 95% Student-t interval (`meanInterval`'s), thinned to about 200 points. Seeds whose
 * iterations end at different step counts (multi-step episodes) are averaged on a common grid of steps,
 * each at its last iteration at or before the step; each seed's own curve keeps its own steps.
 *
 * @param outcome - the trained seeds
 * @returns the three charts' curves
 * @example
 * ```ts
 * trainingCurves(await runTraining(REPRODUCE_CONFIG)).returns[0]; // { series: 'rollout reward', samples: 1, mean: …, … }
 * ```
 */
export function trainingCurves(outcome: TrainingOutcome): TrainingCurves {
  const metrics = chartColumns(outcome);
  const probability: BandPoint[] = [
    // One curve per seed when they are few enough to tell apart; beyond that the mean and its 95% band
    // say more, and a hundred legend entries and lines would cost the renderer more than the training.
    ...(outcome.results.length > MAX_SEED_CURVES
      ? []
      : outcome.results.flatMap((r) =>
          curveBand(
            `seed ${r.seed}`,
            r.metrics.map((m) => m.samples),
            [r.metrics.map((m) => m.optimalProbability)],
            Math.max(1, Math.floor(r.metrics.length / 400)),
          ),
        )),
    ...curves(metrics.probability, 'mean'),
  ];
  return {
    probability,
    returns: [...curves(metrics.reward, 'rollout reward'), ...curves(metrics.elite, 'elite mean return')],
    kl: curves(metrics.kl, 'KL(π_old ‖ π_new)'),
  };
}

/**
 * The charts of a training run's report: optimal-action probability per seed and mean, elite and rollout
 * returns, KL between successive policies.
 */
async function trainingCharts(outcome: TrainingOutcome): Promise<Record<string, string>> {
  const { config } = outcome;
  const { probability, returns, kl } = trainingCurves(outcome);
  const subtitle = [describeEnvironment(config.environment), describeMethod(config)];
  const score = scoreName(config.environment);
  const files: Record<string, string> = {
    'optimal-probability.svg': await renderSvg(
      learningCurveChart(probability, {
        title: score.title,
        subtitle,
        yTitle: score.label,
        unitInterval: true,
        legend: 'curve',
      }),
    ),
  };
  files['returns.svg'] = await renderSvg(
    learningCurveChart(returns, {
      title: 'Returns of the rollouts and of the selected elites (mean over seeds, 95% CI)',
      subtitle,
      yTitle: 'return',
      legend: 'series',
    }),
  );
  files['policy-shift.svg'] = await renderSvg(
    learningCurveChart(kl, {
      title: 'KL divergence between successive policies (mean over seeds)',
      subtitle,
      yTitle: 'KL per update (log scale)',
      legend: 'series',
      band: false,
      logScale: true,
    }),
  );
  return files;
}

/**
 * Builds the files of a training run: `summary.json`, per-iteration metrics, the report and its charts
 * (optimal-action probability per seed and mean; elite and rollout returns; KL between successive policies).
 *
 * @param command - `train` or `reproduce` (titles)
 * @param outcome - the trained seeds
 * @param summary - the JSON summary to write (the command may add fields)
 * @param intro - Markdown paragraphs placed under the title
 * @returns the run's artifacts
 * @example
 * ```ts
 * run.finish(await trainingArtifacts('train', outcome, { command: 'train', ...outcome.summary }, 'A run.'));
 * ```
 */
export async function trainingArtifacts(
  command: string,
  outcome: TrainingOutcome,
  summary: unknown,
  intro: string,
): Promise<RunArtifacts> {
  const { config } = outcome;
  const report = [
    `# ftw ${command}`,
    '',
    intro,
    '',
    `- Environment: ${describeEnvironment(config.environment)}`,
    `- Method: ${describeMethod(config)}`,
    `- Seeds: ${config.seeds.join(', ')}`,
    '',
    seedTable(outcome),
    '![optimal-action probability](optimal-probability.svg)',
    '',
    '![returns](returns.svg)',
    '',
    '![policy shift](policy-shift.svg)',
    '',
    "Per-iteration values are in `metrics.ndjson`; each seed's final policy in `policies.ndjson`; the resolved",
    'configuration, package versions and git commit in `config.json`.',
    '',
  ].join('\n');
  return {
    config: { ...config },
    metrics: outcome.results.flatMap((r) => r.metrics),
    summary,
    report,
    files: {
      ...(await trainingCharts(outcome)),
      'policies.ndjson': ndjson(outcome.results.map((r) => r.finalPolicy)),
    },
    trainingMs: outcome.trainingMs,
  };
}
