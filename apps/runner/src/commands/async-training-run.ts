import { ActorCrew, DEFAULT_ACTOR_RESTARTS, describeFault, type PublishedBytes } from '@ftw/actors';
import { redactUrl } from '@ftw/redis-pool';
import { formatInterval, type MeanInterval, markdownTable, meanInterval } from '@ftw/report';
import type { ActorLauncher, ActorTask } from '../async/actor-protocol.js';
import type { AsyncOptions } from '../async/async-options.js';
import {
  CHECKPOINT_FORMAT,
  type LearnerCheckpoint,
  type SeedCheckpoint,
  writeCheckpoint,
} from '../async/learner-checkpoint.js';
import {
  cliLauncher,
  type RedisIterationMetrics,
  type RedisSeedResult,
  redisForRun,
  trainRedisSeed,
} from '../async/redis-training.js';
import { type AsyncSeedResult, trainAsyncSeed } from '../async/train-async-seed.js';
import type { Progress } from '../cli/progress.js';
import type { TrainConfig } from '../config/train-config.js';
import { ndjson } from '../run/ndjson.js';
import { type RunResult, textThenPath } from '../run/write-run.js';
import { yieldToEventLoop } from '../run/yield-to-event-loop.js';
import { describeEnvironment, describeMethod, scoreName } from '../train/describe-config.js';

/** A checkpoint of a run over Redis: its seeds' results and metric rows as the learners wrote them. */
export type RedisCheckpoint = LearnerCheckpoint<RedisSeedResult, RedisIterationMetrics>;

/** Every seed of one asynchronous configuration. */
export interface AsyncOutcome {
  readonly config: TrainConfig;
  readonly options: AsyncOptions;
  /** `simulation` (deterministic, no Redis) or `redis` (actor processes). */
  readonly mode: 'simulation' | 'redis';
  readonly results: readonly (AsyncSeedResult | RedisSeedResult)[];
}

/**
 * Per-run summary figures: means over seeds of per-seed means over iterations (every iteration for the
 * version spread and the multi-version share; the iterations with an update for the update figures).
 */
export interface AsyncSummary {
  readonly mode: 'simulation' | 'redis';
  readonly finalOptimalProbability: MeanInterval;
  readonly environmentSteps: MeanInterval;
  readonly versionSpread: MeanInterval;
  readonly multiVersionShare: MeanInterval;
  readonly poolStaleness: MeanInterval | null;
  readonly selectionStaleness: MeanInterval | null;
  readonly logWeightMean: MeanInterval | null;
  readonly essShare: MeanInterval | null;
  readonly stepsPerSecond: MeanInterval | null;
  /** With actor processes: the share of the learner's time spent waiting for episodes (absent in the simulation). */
  readonly learnerWaitShare?: MeanInterval;
  /**
   * With actor processes: the steps the learner scored again over all seeds, and the largest gap between
   * the log-probabilities (see `RedisSeedResult.behaviourCheck`); null in the simulation.
   */
  readonly behaviourCheck: { readonly steps: number; readonly maxLogProbGap: number } | null;
  /**
   * With actor processes: the policy versions the learners published over all seeds, as snapshots and as
   * deltas, and their bytes (see `RedisSeedResult.published`); null in the simulation.
   */
  readonly published: PublishedBytes | null;
  /**
   * With actor processes: the stream entries the learners skipped over all seeds, malformed or (Sokoban)
   * without one valid position name per step (see `RedisSeedResult.malformed`); null in the simulation.
   */
  readonly skipped: number | null;
}

const meanOf = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / values.length;

function perSeed(
  outcome: AsyncOutcome,
  pick: (m: AsyncSeedResult['metrics'][number]) => number | null,
): MeanInterval | null {
  const means: number[] = [];
  for (const r of outcome.results) {
    const values = r.metrics.map(pick).filter((v): v is number => v !== null);
    if (values.length > 0) means.push(meanOf(values));
  }
  return means.length === 0 ? null : meanInterval(means);
}

/**
 * Summarises an asynchronous run: final score, steps, and the means of the staleness and importance
 * diagnostics, each with its 95% confidence interval over seeds.
 *
 * @param outcome - the trained seeds
 * @returns the summary
 */
export function summarizeAsync(outcome: AsyncOutcome): AsyncSummary {
  const rates = outcome.results.flatMap((r) => ('stepsPerSecond' in r ? [r.stepsPerSecond] : []));
  const waits = outcome.results.flatMap((r) => ('learnerWaitShare' in r ? [r.learnerWaitShare] : []));
  const checks = outcome.results.flatMap((r) => ('behaviourCheck' in r ? [r.behaviourCheck] : []));
  const published = outcome.results.flatMap((r) => ('published' in r ? [r.published] : []));
  const skipped = outcome.results.flatMap((r) => ('malformed' in r ? [r.malformed] : []));
  return {
    mode: outcome.mode,
    finalOptimalProbability: meanInterval(outcome.results.map((r) => r.finalOptimalProbability)),
    environmentSteps: meanInterval(outcome.results.map((r) => r.environmentSteps)),
    versionSpread: perSeed(outcome, (m) => m.versionSpread)!,
    multiVersionShare: perSeed(outcome, (m) => m.multiVersionShare)!,
    poolStaleness: perSeed(outcome, (m) => m.poolStaleness),
    selectionStaleness: perSeed(outcome, (m) => m.selectionStaleness),
    logWeightMean: perSeed(outcome, (m) => m.logWeightMean),
    essShare: perSeed(outcome, (m) => m.essShare),
    stepsPerSecond: rates.length === 0 ? null : meanInterval(rates),
    ...(waits.length === 0 ? {} : { learnerWaitShare: meanInterval(waits) }),
    behaviourCheck:
      checks.length === 0
        ? null
        : {
            steps: checks.reduce((n, c) => n + c.steps, 0),
            maxLogProbGap: checks.reduce((m, c) => Math.max(m, c.maxLogProbGap), 0),
          },
    published:
      published.length === 0
        ? null
        : {
            snapshots: published.reduce((n, p) => n + p.snapshots, 0),
            deltas: published.reduce((n, p) => n + p.deltas, 0),
            bytes: published.reduce((n, p) => n + p.bytes, 0),
          },
    skipped: skipped.length === 0 ? null : skipped.reduce((n, k) => n + k, 0),
  };
}

/**
 * Trains every seed asynchronously: in the deterministic simulation when `options.redis` is null, else
 * with actor processes on the given Redis (or a private `redis-server` for `private`).
 *
 * @param config - the configuration
 * @param options - the asynchronous options
 * @param progress - advanced by one per iteration
 * @param launch - how actor processes start (the CLI itself by default)
 * @param onJoin - with Redis, given once before training the command with which actor processes on other
 *   machines join the run (`ftw actor --redis <url, password masked> --pool <the first seed's pool>`)
 * @param run - with `options.checkpoint`: the run's folder and name (kept in the checkpoint), and the
 *   checkpoint to go on from (`ftw train --resume`): its seeds done are kept, its current seed resumes
 *   (`trainRedisSeed`), and the new actors get ids and random streams of their own
 * @returns the outcome
 * @throws RedisPoolError `SERVER_NOT_FOUND` (saying what to install) when a private server is needed
 */
export async function runAsyncTraining(
  config: TrainConfig,
  options: AsyncOptions,
  progress?: Progress,
  launch: ActorLauncher = cliLauncher,
  onJoin?: (command: string) => void,
  run?: { readonly out: string; readonly name: string; readonly from?: RedisCheckpoint },
): Promise<AsyncOutcome> {
  const results: (AsyncSeedResult | RedisSeedResult)[] = [];
  const tick = (i: number, seed: number) => () =>
    progress?.tick(1, `seed ${seed} (${i + 1}/${config.seeds.length})`);
  if (options.redis === null) {
    for (const [i, seed] of config.seeds.entries()) {
      results.push(trainAsyncSeed(config, options, seed, tick(i, seed)));
      await yieldToEventLoop();
    }
    return { config, options, mode: 'simulation', results };
  }
  const { url, server } = await redisForRun(options.redis);
  const from = run?.from;
  // One pool per seed, named so that actors from elsewhere follow the learner from one to the next.
  const prefix = from?.prefix ?? `ftw-${process.pid}-${Date.now().toString(36)}`;
  const poolOf = (i: number): string => (i < config.seeds.length ? `${prefix}-seed${config.seeds[i]}` : '');
  results.push(...(from?.done ?? []));
  onJoin?.(`ftw actor --redis ${redactUrl(url)} --pool ${poolOf(results.length)}`);
  const restarts = from === undefined ? 0 : from.restarts + 1;
  const saving = options.checkpoint;
  const save = (current: SeedCheckpoint<RedisIterationMetrics> | null): void => {
    if (saving === undefined || run === undefined) return;
    const checkpoint: RedisCheckpoint = {
      format: CHECKPOINT_FORMAT,
      config,
      options: { ...options, redis: redactUrl(url) },
      out: run.out,
      name: run.name,
      prefix,
      restarts,
      done: results as RedisSeedResult[],
      current,
    };
    writeCheckpoint(saving.dir, checkpoint);
  };
  // The actor processes start once and follow the learner from seed to seed. After a learner restart,
  // its actors are numbered as replacements past every one the learners before could start, so that their
  // episode ids and random streams are new (`ActorTask.restart`).
  const offset = restarts * ((options.restarts ?? DEFAULT_ACTOR_RESTARTS) + 1);
  const crew = new ActorCrew(
    offset === 0 ? launch : (task: ActorTask, k: number) => launch(task, k + offset),
    { restarts: options.restarts },
  );
  try {
    for (const [i, seed] of config.seeds.entries()) {
      if (i < results.length) continue;
      const pools = { name: poolOf(i), next: poolOf(i + 1) };
      const current = from?.current?.index === i ? from.current : undefined;
      const checkpointing =
        saving === undefined && current === undefined
          ? undefined
          : { index: i, every: saving?.every ?? Number.POSITIVE_INFINITY, save, from: current };
      results.push(
        await trainRedisSeed(config, options, seed, url, crew, tick(i, seed), pools, checkpointing),
      );
      save(null);
    }
  } finally {
    crew.stop();
    await server?.stop();
  }
  return { config, options, mode: 'redis', results };
}

function describeAsync(
  options: AsyncOptions,
  mode: 'simulation' | 'redis',
  method: TrainConfig['method'],
): string {
  const where = mode === 'simulation' ? `simulated, lag ${options.lag}` : `processes over Redis`;
  // FTW weighs its elite counts; the baselines weigh each episode's terms.
  const weighted = method === 'ftw' ? 'counts' : 'episode terms';
  const is = options.is.kind === 'none' ? 'no importance weights' : `${weighted} × min(w, ${options.is.cap})`;
  const actors = options.actors === 0 ? 'actors that joined with ftw actor' : `${options.actors} actor(s)`;
  return `${actors} (${where}), hot-load per ${options.hotLoad}, horizon ${options.horizon}, ${is}`;
}

/**
 * The files and terminal text of an asynchronous `ftw train` run.
 *
 * @param outcome - the trained seeds
 * @returns what `executeRun` writes and prints
 */
export function asyncRunResult(outcome: AsyncOutcome): RunResult {
  const summary = summarizeAsync(outcome);
  // What the run's files and --json record: the Redis URL without its password.
  const { redis } = outcome.options;
  const recorded = { ...outcome.options, redis: redis === null ? null : redactUrl(redis) };
  const f = (x: MeanInterval | null, digits: number) => (x === null ? '—' : formatInterval(x, digits));
  const table = markdownTable(
    ['figure', 'mean ± 95% CI over seeds'],
    [
      [`final ${scoreName(outcome.config.environment).label}`, f(summary.finalOptimalProbability, 4)],
      ['environment steps', f(summary.environmentSteps, 0)],
      ['version spread inside trajectories', f(summary.versionSpread, 3)],
      ['share of multi-version trajectories', f(summary.multiVersionShare, 3)],
      ['pool staleness (versions)', f(summary.poolStaleness, 2)],
      ['selected staleness (versions)', f(summary.selectionStaleness, 2)],
      ['log w(τ) of selected elites', f(summary.logWeightMean, 3)],
      ['ESS of the selection / selected', f(summary.essShare, 3)],
      ['environment steps per second', f(summary.stepsPerSecond, 0)],
      ...(summary.learnerWaitShare === undefined
        ? []
        : [['share of the learner’s time waiting for episodes', f(summary.learnerWaitShare, 3)]]),
    ],
    ['l', 'r'],
  );
  const check = summary.behaviourCheck;
  const checkLine =
    check === null
      ? []
      : [
          `The learner scored again the ${check.steps} actor steps taken with its current version: largest |log π − log q| = ${check.maxLogProbGap}${check.maxLogProbGap === 0 ? ' (the actors act with the policy the learner published)' : ' (NOT 0: an actor acted with another policy than the learner holds)'}.`,
          '',
        ];
  const published = summary.published;
  const publishedLine =
    published === null
      ? []
      : [
          `The learner published ${published.snapshots + published.deltas} policy versions: ${published.snapshots} whole (snapshots) and ${published.deltas} as the rows their update moved (deltas), ${(published.bytes / 1e6).toFixed(3)} MB in all.`,
          '',
        ];
  const skippedLine =
    summary.skipped === null || summary.skipped === 0
      ? []
      : [
          `The learner skipped ${summary.skipped} stream entries: malformed, or without one valid position name per step.`,
          '',
        ];
  // What a run over Redis survived (or died of), per seed; summary.json lists them all.
  const faults = outcome.results.flatMap((r) =>
    'faults' in r ? r.faults.map((f) => ({ seed: r.seed, ...f })) : [],
  );
  const faultLines =
    faults.length === 0 ? [] : [...faults.map((f) => `Fault, seed ${f.seed}: ${describeFault(f)}.`), ''];
  const heading = [
    `ftw train (asynchronous): ${describeEnvironment(outcome.config.environment)}`,
    `  ${describeMethod(outcome.config)}`,
    `  ${describeAsync(outcome.options, outcome.mode, outcome.config.method)}`,
  ];
  return {
    artifacts: {
      config: { ...outcome.config, asynchronous: recorded },
      metrics: outcome.results.flatMap((r) => r.metrics),
      summary: {
        command: 'train',
        asynchronous: recorded,
        ...summary,
        ...(outcome.mode === 'redis' ? { faults } : {}),
      },
      report: [
        `# ftw train (asynchronous)`,
        '',
        ...heading.slice(1).map((l) => l.trim()),
        '',
        table,
        '',
        ...checkLine,
        ...publishedLine,
        ...skippedLine,
        ...faultLines,
      ].join('\n'),
      files: { 'policies.ndjson': ndjson(outcome.results.map((r) => r.finalPolicy)) },
    },
    text: textThenPath([
      ...heading,
      '',
      table.trimEnd(),
      '',
      ...checkLine,
      ...publishedLine,
      ...skippedLine,
      ...faultLines,
    ]),
  };
}
