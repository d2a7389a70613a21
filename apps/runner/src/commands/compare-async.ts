import { ActorCrew } from '@ftw/actors';
import { formatInterval, type MeanInterval, markdownTable } from '@ftw/report';
import type { ActorLauncher } from '../async/actor-protocol.js';
import type { AsyncOptions } from '../async/async-options.js';
import { cliLauncher, type RedisSeedResult, redisForRun, trainRedisSeed } from '../async/redis-training.js';
import { trainAsyncSeed } from '../async/train-async-seed.js';
import type { Progress } from '../cli/progress.js';
import { REPRODUCE_CONFIG } from '../config/reproduce-config.js';
import type { TrainConfig } from '../config/train-config.js';
import { type RunResult, textThenPath } from '../run/write-run.js';
import { yieldToEventLoop } from '../run/yield-to-event-loop.js';
import { SOKOBAN_LEVELS } from '../sokoban/sokoban-scenario.js';
import { describeEnvironment, describeMethod } from '../train/describe-config.js';
import { type AsyncOutcome, type AsyncSummary, summarizeAsync } from './async-training-run.js';

/** Environment steps per variant and seed of the asynchronous comparison on Sokoban. */
export const ASYNC_STEPS = 8000;

/**
 * The environment and budget of `ftw compare --scenario async`'s simulated variants: Sokoban (the levels
 * of `ftw compare --scenario sokoban`: 6 × 6, one box, 10 training and 10 held-out levels, episodes of at
 * most 30 steps, binary reward), a linear policy over egocentric features, FTW (K = 1, C = 5, N = 128,
 * J = 4, β = 0.05) with Adam 0.05; 4 simulated actors sharing one observation registry, 3 episodes per
 * iteration (so at least one actor's episode is in flight across every update), hot-loading per step.
 * Every variant stops at the first iteration that reaches {@link ASYNC_STEPS} environment steps (matched
 * steps; the overshoot is below actors × 30 steps).
 */
export const ASYNC_SCENARIO_BASE: TrainConfig = {
  ...REPRODUCE_CONFIG,
  environment: SOKOBAN_LEVELS,
  policy: 'linear',
  optimizer: 'adam',
  lr: 0.05,
  iterations: 1_000_000,
  rollouts: 3,
  maxSamples: ASYNC_STEPS,
};

const SIMULATED: AsyncOptions = {
  actors: 4,
  redis: null,
  lag: 0,
  hotLoad: 'step',
  is: { kind: 'none' },
  horizon: 1,
};

/**
 * The environment of the real actor processes over Redis (throughput): the contextual bandit (two tasks,
 * three arms) made multi-step by four decisions per episode, FTW with Adam, 3 episodes per iteration,
 * 200 iterations.
 */
export const ASYNC_REDIS_BASE: TrainConfig = {
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
  iterations: 200,
  rollouts: 3,
};

/** The Redis runs' options: hot-loading per step, 4 decisions per episode. */
const REDIS_OPTIONS: AsyncOptions = { ...SIMULATED, horizon: 4 };

/** Seeds (the first of the comparison's) on which real actor processes also train the Sokoban setting. */
export const REDIS_SOKOBAN_SEEDS = 10;

/**
 * Progress ticks of the comparison (one per learner iteration, estimated from 15 steps per episode).
 *
 * @param seeds - number of seeds
 * @param steps - environment steps per run
 * @returns the estimated number of iterations over all variants and seeds
 */
export const asyncProgressTotal = (seeds: number, steps = ASYNC_STEPS): number =>
  9 * seeds * Math.ceil(steps / (ASYNC_SCENARIO_BASE.rollouts * 15));

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
 * @param steps - environment steps per run (`maxSamples`)
 * @returns the variants
 */
export function asyncVariants(seeds: readonly number[], steps = ASYNC_STEPS): AsyncVariant[] {
  const variants: AsyncVariant[] = [];
  for (const lag of [0, 4, 16]) {
    const config = { ...ASYNC_SCENARIO_BASE, seeds, maxSamples: steps };
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
  /** The bandit's P(optimal action) at the end of the run. */
  readonly finalOptimalProbability: number;
  readonly versionSpread: number;
}

/**
 * One row of the throughput table: a Redis run's steps per second and final score, and its version spread
 * averaged over the run's iterations (each iteration's figure is already a mean over its episodes).
 *
 * @param actors - the run's actor processes
 * @param result - the run (one seed)
 * @returns the row
 * @example
 * ```ts
 * actorThroughput(2, result); // { actors: 2, stepsPerSecond: 1530.2, finalOptimalProbability: 0.98, versionSpread: 0.41 }
 * ```
 */
export function actorThroughput(
  actors: number,
  result: Pick<RedisSeedResult, 'stepsPerSecond' | 'finalOptimalProbability' | 'metrics'>,
): ActorThroughput {
  return {
    actors,
    stepsPerSecond: result.stepsPerSecond,
    finalOptimalProbability: result.finalOptimalProbability,
    versionSpread: result.metrics.reduce((s, m) => s + m.versionSpread, 0) / result.metrics.length,
  };
}

/**
 * The Sokoban setting of the simulated variants trained by 4 real actor processes over Redis, beside the
 * simulated lag-0 variant (4 simulated actors, the same options) on the same seeds.
 */
export interface RealSokoban {
  readonly seeds: readonly number[];
  readonly simulated: AsyncSummary;
  readonly real: AsyncSummary;
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
  /** Real actors on Sokoban, or the reason they were not measured. */
  readonly redisSokoban: RealSokoban | string;
}

/**
 * Runs the simulated variants on Sokoban on the given seeds, then real actor processes (1, 2 and 4) on
 * the multi-step contextual bandit over a Redis (`redis`, or a private `redis-server`; when none is
 * installed the reason is reported instead), then 4 real actor processes on the simulated variants'
 * Sokoban setting, on the first {@link REDIS_SOKOBAN_SEEDS} seeds.
 *
 * @param seeds - seeds (≥ 10 for the README figures)
 * @param redis - a Redis URL or `private`
 * @param progress - advanced per iteration
 * @param launch - how actor processes start
 * @param steps - environment steps per simulated run (tests use fewer)
 * @returns the comparison
 */
export async function runAsyncComparison(
  seeds: readonly number[],
  redis: string,
  progress?: Progress,
  launch: ActorLauncher = cliLauncher,
  steps = ASYNC_STEPS,
): Promise<AsyncComparison> {
  const variants: AsyncComparison['variants'][number][] = [];
  for (const variant of asyncVariants(seeds, steps)) {
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
  let redisSokoban: RealSokoban | string;
  const failed = (error: unknown) => `not measured: ${(error as Error).message}`;
  const unreachable = (error: unknown) => (error as { code?: unknown }).code === 'CONNECTION_LOST';
  try {
    const { url, server } = await redisForRun(redis);
    try {
      try {
        throughput = [];
        for (const actors of [1, 2, 4]) {
          const config = { ...ASYNC_REDIS_BASE, seeds: [0] };
          const result = await trainRedisSeed(config, { ...REDIS_OPTIONS, actors, redis }, 0, url, launch);
          throughput.push(actorThroughput(actors, result));
        }
      } catch (error) {
        // A server that cannot be reached serves neither measurement: say so once, without waiting again.
        if (unreachable(error)) throw error;
        throughput = failed(error);
      }
      try {
        const first = seeds.slice(0, REDIS_SOKOBAN_SEEDS);
        redisSokoban = await realSokoban(variants[0]!, first, redis, url, launch);
      } catch (error) {
        redisSokoban = failed(error);
      }
    } finally {
      await server?.stop();
    }
  } catch (error) {
    throughput = failed(error);
    redisSokoban = throughput;
  }
  return { variants, redis: throughput, redisSokoban };
}

/**
 * The seeds of an outcome that the real actors also trained, so that the simulation beside them is
 * summarised over the same seeds.
 *
 * @param outcome - the simulated variant, every seed of the comparison
 * @param seeds - the seeds to keep
 * @returns the outcome with the results of those seeds only
 * @example
 * ```ts
 * onSeeds(lag0.outcome, [0, 1, 2]).results.map((r) => r.seed); // [0, 1, 2]
 * ```
 */
export function onSeeds(outcome: AsyncOutcome, seeds: readonly number[]): AsyncOutcome {
  return { ...outcome, results: outcome.results.filter((r) => seeds.includes(r.seed)) };
}

/** The lag-0 variant's setting trained by real actor processes, beside the simulation on the same seeds. */
async function realSokoban(
  lag0: AsyncComparison['variants'][number],
  seeds: readonly number[],
  redis: string,
  url: string,
  launch: ActorLauncher,
): Promise<RealSokoban> {
  const options = { ...lag0.variant.options, redis };
  const results = [];
  // The actor processes start once and follow the learner from seed to seed, as in `ftw train`.
  const crew = new ActorCrew(launch);
  try {
    for (const seed of seeds)
      results.push(await trainRedisSeed(lag0.variant.config, options, seed, url, crew));
  } finally {
    crew.stop();
  }
  return {
    seeds,
    simulated: summarizeAsync(onSeeds(lag0.outcome, seeds)),
    real: summarizeAsync({ config: lag0.variant.config, options, mode: 'redis', results }),
  };
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
      'final training success',
      'environment steps',
      'selected staleness',
      'log w(τ) selected',
      'ESS / selected',
      'version spread',
    ],
    comparison.variants.map(({ variant, summary }) => [
      variant.label,
      f(summary.finalOptimalProbability, 3),
      f(summary.environmentSteps, 0),
      f(summary.selectionStaleness, 1),
      f(summary.logWeightMean, 3),
      f(summary.essShare, 3),
      f(summary.versionSpread, 2),
    ]),
    ['l', 'r', 'r', 'r', 'r', 'r', 'r'],
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
  const sokoban = comparison.redisSokoban;
  const sokobanTable =
    typeof sokoban === 'string'
      ? sokoban
      : markdownTable(
          [
            '4 actors',
            'final training success',
            'environment steps',
            'selected staleness',
            'version spread',
            'env steps / s',
            'steps rescored: largest log-prob gap',
          ],
          (
            [
              ['simulated (lag 0)', sokoban.simulated],
              ['processes over Redis', sokoban.real],
            ] as const
          ).map(([label, s]) => {
            const check = s.behaviourCheck;
            return [
              label,
              f(s.finalOptimalProbability, 3),
              f(s.environmentSteps, 0),
              f(s.selectionStaleness, 1),
              f(s.versionSpread, 2),
              f(s.stepsPerSecond, 0),
              check === null ? '—' : `${check.steps}: ${check.maxLogProbGap}`,
            ];
          }),
          ['l', 'r', 'r', 'r', 'r', 'r', 'r'],
        );
  const sokobanIntro =
    typeof sokoban === 'string'
      ? 'real actors on Sokoban:'
      : `real actors on Sokoban: the lag 0 variant's setting (4 actors, hot-load per step, ${describeMethod(ASYNC_SCENARIO_BASE)}) trained by 4 actor processes over Redis, beside its simulation, on seeds ${sokoban.seeds[0]}–${sokoban.seeds.at(-1)}; mean ± 95% CI:`;
  const base = ASYNC_SCENARIO_BASE;
  const seeds = comparison.variants[0]?.outcome.results.length ?? 0;
  const steps = comparison.variants[0]?.variant.config.maxSamples ?? ASYNC_STEPS;
  const intro = [
    `${describeEnvironment(base.environment)}; linear policy over egocentric features; ${describeMethod(base)}`,
    `4 simulated actors sharing one observation registry, ${base.rollouts} episodes per iteration, hot-load per step; every variant runs to ${steps} environment steps (matched; the first iteration that reaches them ends the run); ${seeds} seeds; mean ± 95% CI`,
  ];
  const redisIntro = `real actors over Redis (${describeEnvironment(ASYNC_REDIS_BASE.environment)}, 4 decisions per episode; 1 seed, ${ASYNC_REDIS_BASE.iterations} iterations):`;
  const text = [
    'ftw compare --scenario async',
    ...intro.map((l) => `  ${l}`),
    '',
    table.trimEnd(),
    '',
    redisIntro,
    redis.trimEnd(),
    '',
    sokobanIntro,
    sokobanTable.trimEnd(),
    '',
  ];
  return {
    artifacts: {
      config: {
        scenario: 'async',
        base,
        redisBase: ASYNC_REDIS_BASE,
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
        redisSokoban: comparison.redisSokoban,
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
        redisIntro,
        '',
        redis,
        '',
        '## Real actors on Sokoban',
        '',
        sokobanIntro,
        '',
        sokobanTable,
        '',
      ].join('\n'),
      files: {},
    },
    text: textThenPath(text),
  };
}
