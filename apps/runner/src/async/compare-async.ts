import type { Progress } from '../cli/progress.js';
import { REPRODUCE_CONFIG } from '../config/reproduce-config.js';
import type { TrainConfig } from '../config/train-config.js';
import { formatInterval } from '../report/format-interval.js';
import { markdownTable } from '../report/markdown-table.js';
import type { RunResult } from '../run/write-run.js';
import { yieldToEventLoop } from '../run/yield-to-event-loop.js';
import type { MeanInterval } from '../stats/mean-interval.js';
import { describeEnvironment, describeMethod } from '../train/describe-config.js';
import type { AsyncOptions } from './async-options.js';
import { type AsyncOutcome, type AsyncSummary, summarizeAsync } from './async-training-run.js';
import { type ActorLauncher, cliLauncher, redisForRun, trainRedisSeed } from './redis-training.js';
import { trainAsyncSeed } from './train-async-seed.js';

/**
 * The environment and budget of `ftw compare --scenario async`: the contextual bandit (two tasks, three
 * arms) made multi-step by four decisions per episode, FTW with Adam, 4 simulated actors and 3 episodes
 * per iteration (so one actor's episode is always in flight across an update), hot-loading per step.
 * Every variant spends the same environment steps: iterations × rollouts × horizon in completed episodes
 * plus the steps of the episodes still in flight at the end (fewer than actors × horizon).
 */
export const ASYNC_SCENARIO_BASE: TrainConfig = {
  ...REPRODUCE_CONFIG,
  environment: {
    kind: 'contextual',
    taskMeans: [
      [1, 0.6, 0.2],
      [0.2, 0.6, 1],
    ],
    sd: 0.3,
  },
  optimizer: 'adam',
  lr: 0.05,
  iterations: 150,
  rollouts: 3,
};

const SIMULATED: AsyncOptions = {
  actors: 4,
  redis: null,
  lag: 0,
  hotLoad: 'step',
  is: { kind: 'none' },
  horizon: 4,
};

/** One variant of the comparison. */
export interface AsyncVariant {
  readonly label: string;
  readonly config: TrainConfig;
  readonly options: AsyncOptions;
}

/**
 * The variants: lag 0, 4 and 16, each plain, with `--max-version-lag L + 8` (only the trajectories at
 * most 8 versions older than the freshest the lag allows), and with elite counts weighted by truncated
 * importance weights min(w, 1).
 *
 * @param seeds - the seeds of every variant
 * @returns the variants
 */
export function asyncVariants(seeds: readonly number[]): AsyncVariant[] {
  const variants: AsyncVariant[] = [];
  for (const lag of [0, 4, 16]) {
    const config = { ...ASYNC_SCENARIO_BASE, seeds };
    const options = { ...SIMULATED, lag };
    variants.push({ label: `lag ${lag}`, config, options });
    variants.push({
      label: `lag ${lag}, max-version-lag ${lag + 8}`,
      config: { ...config, maxVersionLag: lag + 8 },
      options,
    });
    variants.push({
      label: `lag ${lag}, is truncate:1`,
      config,
      options: { ...options, is: { kind: 'truncate', cap: 1 } },
    });
  }
  return variants;
}

/** Throughput of real actor processes over Redis, for one actor count. */
export interface ActorThroughput {
  readonly actors: number;
  readonly stepsPerSecond: number;
  readonly finalOptimalProbability: number;
  readonly versionSpread: number;
}

/** The outcome of the asynchronous comparison. */
export interface AsyncComparison {
  readonly variants: readonly {
    readonly variant: AsyncVariant;
    readonly summary: AsyncSummary;
    readonly outcome: AsyncOutcome;
  }[];
  /** Real actors over Redis, or the reason they were not measured. */
  readonly redis: readonly ActorThroughput[] | string;
}

/**
 * Runs the simulated variants on the given seeds, then real actor processes (1, 2 and 4) over a Redis
 * (`redis`, or a private `redis-server`; when none is installed the reason is reported instead).
 *
 * @param seeds - seeds (≥ 10 for the README figures)
 * @param redis - a Redis URL or `private`
 * @param progress - advanced per iteration
 * @param launch - how actor processes start
 * @returns the comparison
 */
export async function runAsyncComparison(
  seeds: readonly number[],
  redis: string,
  progress?: Progress,
  launch: ActorLauncher = cliLauncher,
): Promise<AsyncComparison> {
  const variants: AsyncComparison['variants'][number][] = [];
  for (const variant of asyncVariants(seeds)) {
    const results = [];
    for (const seed of seeds) {
      results.push(
        trainAsyncSeed(variant.config, variant.options, seed, () =>
          progress?.tick(1, `${variant.label} seed ${seed}`),
        ),
      );
      await yieldToEventLoop();
    }
    const outcome: AsyncOutcome = {
      config: variant.config,
      options: variant.options,
      mode: 'simulation',
      results,
    };
    variants.push({ variant, summary: summarizeAsync(outcome), outcome });
  }
  let throughput: ActorThroughput[] | string;
  try {
    const { url, server } = await redisForRun(redis);
    throughput = [];
    try {
      for (const actors of [1, 2, 4]) {
        const config = { ...ASYNC_SCENARIO_BASE, iterations: 200, seeds: [0] };
        const result = await trainRedisSeed(config, { ...SIMULATED, actors, redis }, 0, url, launch);
        throughput.push({
          actors,
          stepsPerSecond: result.stepsPerSecond,
          finalOptimalProbability: result.finalOptimalProbability,
          versionSpread: result.metrics.reduce((s, m) => s + m.versionSpread, 0) / result.metrics.length,
        });
      }
    } finally {
      await server?.stop();
    }
  } catch (error) {
    throughput = `not measured: ${(error as Error).message}`;
  }
  return { variants, redis: throughput };
}

/**
 * The files and text of `ftw compare --scenario async`.
 *
 * @param comparison - the outcome
 * @returns what `executeRun` writes and prints
 */
export function asyncComparisonResult(comparison: AsyncComparison): RunResult {
  const f = (x: MeanInterval | null, digits: number) => (x === null ? '—' : formatInterval(x, digits));
  const table = markdownTable(
    [
      'variant',
      'final P(optimal)',
      'selected staleness',
      'log w(τ) selected',
      'ESS / selected',
      'version spread',
    ],
    comparison.variants.map(({ variant, summary }) => [
      variant.label,
      f(summary.finalOptimalProbability, 3),
      f(summary.selectionStaleness, 1),
      f(summary.logWeightMean, 3),
      f(summary.essShare, 3),
      f(summary.versionSpread, 2),
    ]),
    ['l', 'r', 'r', 'r', 'r', 'r'],
  );
  const redis =
    typeof comparison.redis === 'string'
      ? comparison.redis
      : markdownTable(
          ['actor processes', 'env steps / s', 'final P(optimal)', 'version spread'],
          comparison.redis.map((t) => [
            String(t.actors),
            t.stepsPerSecond.toFixed(0),
            t.finalOptimalProbability.toFixed(3),
            t.versionSpread.toFixed(2),
          ]),
          ['r', 'r', 'r', 'r'],
        );
  const base = ASYNC_SCENARIO_BASE;
  const seeds = comparison.variants[0]?.outcome.results.length ?? 0;
  const intro = [
    `${describeEnvironment(base.environment)}, 4 decisions per episode; ${describeMethod(base)}`,
    `4 simulated actors, hot-load per step; every variant: ${base.iterations} × ${base.rollouts} episodes × 4 steps = ${base.iterations * base.rollouts * 4} environment steps (+ the same few of unfinished episodes); ${seeds} seeds; mean ± 95% CI`,
  ];
  const text = [
    'ftw compare --scenario async',
    ...intro.map((l) => `  ${l}`),
    '',
    table.trimEnd(),
    '',
    'real actors over Redis (1 seed, 200 iterations):',
    redis.trimEnd(),
    '',
  ];
  return {
    artifacts: {
      config: {
        scenario: 'async',
        base,
        variants: comparison.variants.map((v) => ({
          label: v.variant.label,
          config: v.variant.config,
          options: v.variant.options,
        })),
      },
      metrics: comparison.variants.flatMap((v) =>
        v.outcome.results.flatMap((r) => r.metrics.map((m) => ({ variant: v.variant.label, ...m }))),
      ),
      summary: {
        command: 'compare',
        scenario: 'async',
        variants: comparison.variants.map((v) => ({ label: v.variant.label, ...v.summary })),
        redis: comparison.redis,
      },
      report: [
        '# ftw compare --scenario async',
        '',
        ...intro,
        '',
        table,
        '',
        '## Real actors over Redis',
        '',
        redis,
        '',
      ].join('\n'),
      files: {},
    },
    text: (written) => [...text, `run written to ${written}/`, ''].join('\n'),
  };
}
