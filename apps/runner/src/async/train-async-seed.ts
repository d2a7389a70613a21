import { SokobanEpisodeEnv, SokobanObservations } from '@ftw/sokoban/trainer';
import type { Episode, Optimizer, Policy } from '@ftw/trainer';
import {
  BaselineUpdater,
  createOptimizer,
  eliteSelector,
  FtwUpdater,
  movedBy,
  type SelectionWeights,
  SimulatedActors,
  type Updater,
  type UpdateStats,
  versionSpread,
  weightedSelector,
} from '@ftw/trainer';
import type { TrainConfig } from '../config/train-config.js';
import { seededStreams } from '../random/seeded-streams.js';
import { createEnvironment } from '../train/create-environment.js';
import { createPolicy } from '../train/create-policy.js';
import type { EpisodeEnv } from '../train/episode-env.js';
import { type SavedPolicy, savedPolicy } from '../train/saved-policy.js';
import { type AsyncOptions, baselineWeighting } from './async-options.js';
import { RepeatedEpisodeEnv } from './repeated-episode-env.js';

/** One line of an asynchronous run's metrics: the state after one learner iteration. */
export interface AsyncIterationMetrics {
  readonly seed: number;
  readonly iteration: number;
  /**
   * Environment steps so far, all actors together (over Redis: the steps of the episodes the learner has
   * read, not those still in flight or in the pool unread).
   */
  readonly samples: number;
  /** Mean return of the episodes completed in this iteration. */
  readonly reward: number;
  /** The environment's headline score after the update. */
  readonly optimalProbability: number;
  /** Cumulative expected regret of the acting policies (null without one). */
  readonly regret: number | null;
  readonly updated: boolean;
  /** The learner's policy version after this iteration. */
  readonly version: number;
  /** Mean over this iteration's episodes of max_t v_t − min_t v_t (versions spanned inside a trajectory). */
  readonly versionSpread: number;
  /** Share of this iteration's episodes whose steps come from more than one version. */
  readonly multiVersionShare: number;
  /** Mean age in versions of the trajectories in the pool (FTW); null otherwise. */
  readonly poolStaleness: number | null;
  /**
   * Mean age of the selected trajectories, repeats included (FTW: by the selection's counts m, also with
   * `--is truncate:c`, see `SelectionWeights.selectionStaleness`); null otherwise.
   */
  readonly selectionStaleness: number | null;
  /** Count-weighted mean log w(τ) of the selected elites against the current policy; null without selection. */
  readonly logWeightMean: number | null;
  readonly logWeightMin: number | null;
  readonly logWeightMax: number | null;
  /** Effective sample size of the selection as a share of the selection count; null without selection. */
  readonly essShare: number | null;
}

/** The learner of an asynchronous run: FTW with importance diagnostics, or a baseline. */
export interface AsyncLearner {
  readonly updater: Updater;
  /** The FTW selection's importance weights after each update; null for a baseline. */
  readonly weights: (() => SelectionWeights | null) | null;
}

/**
 * The updater of an asynchronous run (the same for the simulated actors and the Redis ones): FTW whose
 * selection reports importance diagnostics, or a baseline weighted as `options.is` says.
 *
 * @param config - the resolved configuration
 * @param options - the asynchronous options (importance weighting)
 * @param policy - the learner's policy
 * @param optimizer - its optimiser
 * @param selection - the selection random stream
 * @returns the updater and, for FTW, the last selection's weights
 */
export function asyncLearner(
  config: TrainConfig,
  options: AsyncOptions,
  policy: Policy,
  optimizer: Optimizer,
  selection: () => number,
): AsyncLearner {
  if (config.method !== 'ftw') {
    return {
      updater: new BaselineUpdater(
        { ...config, method: config.method },
        policy,
        optimizer,
        baselineWeighting(options.is),
      ),
      weights: null,
    };
  }
  const weighted = weightedSelector(eliteSelector(config, selection), policy, options.is);
  return { updater: new FtwUpdater(config, policy, optimizer, weighted.select), weights: weighted.last };
}

/**
 * One metrics row of an asynchronous iteration, from what the loop counted and the update's outcome.
 *
 * @param row - the iteration's counts, its episodes (for the version spread), the update's statistics
 *   (null when none was made) and the learner (for the selection's importance weights)
 * @returns the row
 */
export function asyncIterationMetrics(row: {
  readonly seed: number;
  readonly iteration: number;
  readonly samples: number;
  readonly episodes: readonly Episode[];
  readonly returnSum: number;
  readonly optimalProbability: number;
  readonly regret: number | null;
  readonly version: number;
  readonly stats: UpdateStats | null;
  readonly learner: AsyncLearner;
}): AsyncIterationMetrics {
  const { episodes, stats } = row;
  const { spread, multiVersion } = versionSpread(episodes);
  const selection = stats === null ? null : (row.learner.weights?.() ?? null);
  return {
    seed: row.seed,
    iteration: row.iteration,
    samples: row.samples,
    reward: row.returnSum / episodes.length,
    optimalProbability: row.optimalProbability,
    regret: row.regret,
    updated: stats !== null,
    version: row.version,
    versionSpread: spread / episodes.length,
    multiVersionShare: multiVersion / episodes.length,
    poolStaleness: stats?.poolStaleness ?? null,
    // FTW's selection by its counts m: the updater's own figure weighs by the counts it is handed,
    // m·min(w, c) with --is truncate:c.
    selectionStaleness: selection?.selectionStaleness ?? stats?.selectionStaleness ?? null,
    logWeightMean: selection?.logWeightMean ?? null,
    logWeightMin: selection?.logWeightMin ?? null,
    logWeightMax: selection?.logWeightMax ?? null,
    essShare: selection?.essShare ?? null,
  };
}

/** The outcome of one seed of asynchronous training. */
export interface AsyncSeedResult {
  readonly seed: number;
  readonly metrics: readonly AsyncIterationMetrics[];
  readonly finalOptimalProbability: number;
  readonly environmentSteps: number;
  readonly updates: number;
  /** The final policy's parameters, as `policies.ndjson` records them. */
  readonly finalPolicy: SavedPolicy;
}

/** Seed of actor a's environment: actor 0 has the run's own, so one actor reproduces `ftw train`. */
export const actorEnvironmentSeed = (seed: number, actor: number): number => seed + actor * 1_000_003;

/**
 * Builds the environment of an asynchronous run: the configured environment, a bandit repeated `horizon`
 * times per episode when `horizon > 1`. Sokoban environments take their observation ids from
 * `observations` when given, so that the actors of one run share one numbering.
 *
 * @param config - the configuration
 * @param options - the asynchronous options (horizon)
 * @param seed - the environment's seed
 * @param observations - with `--env sokoban`, the id registry shared by the run's actors (omitted: the
 *   environment's own)
 * @returns the environment
 */
export function asyncEnvironment(
  config: TrainConfig,
  options: AsyncOptions,
  seed: number,
  observations?: SokobanObservations,
): EpisodeEnv {
  const inner =
    config.environment.kind === 'sokoban'
      ? new SokobanEpisodeEnv(config.environment, seed, observations)
      : createEnvironment(config.environment, seed);
  return options.horizon === 1 ? inner : new RepeatedEpisodeEnv(inner, options.horizon);
}

/**
 * Deterministic simulation of asynchronous training, without Redis (`@ftw/trainer`'s `SimulatedActors`
 * with the runner's environments and streams): `actors` actors take one step each in turn; an iteration ends as soon as `rollouts` episodes have completed, and the learner then updates on
 * them. The other actors' episodes carry on into the next iteration. Actors see the learner's version
 * `lag` updates late: an actor uses version max(0, v − lag), where v is the learner's current version,
 * loaded at the start of each episode (`hotLoad: 'episode'`) or before every step (`'step'`: then an
 * episode that spans an update has steps of several versions, recorded per step). Each step records its
 * behaviour log-probability under the version that took it.
 *
 * Randomness: one uniform per step from the seed's policy stream, actors in turn; actor a's environment
 * has seed `seed + a·1000003`; selection from the selection stream. With `--env sokoban` the actors'
 * environments share one {@link SokobanObservations} registry created for the seed, so ids are numbered
 * in the order the actors (stepping in turn) first meet positions, and the learner's policy reads the
 * same features for an id whichever actor produced it. Same seed, same run, bit for bit;
 * with one actor, lag 0 and horizon 1 it is exactly `ftw train`'s loop (a test checks it).
 *
 * @param config - the resolved configuration
 * @param options - actors, lag, hot-loading, importance weighting, horizon
 * @param seed - the seed
 * @param onIteration - progress callback
 * @returns metrics per iteration and final figures
 */
export function trainAsyncSeed(
  config: TrainConfig,
  options: AsyncOptions,
  seed: number,
  onIteration?: () => void,
): AsyncSeedResult {
  const streams = seededStreams(seed);
  // Sokoban: one id registry for all actors of this seed, so every actor's ids mean the same positions.
  const observations = config.environment.kind === 'sokoban' ? new SokobanObservations() : undefined;
  const envs = Array.from({ length: options.actors }, (_, a) =>
    asyncEnvironment(config, options, actorEnvironmentSeed(streams.environment, a), observations),
  );
  const env = envs[0]!;
  const policy = createPolicy(config, env);
  const optimizer = createOptimizer(config.optimizer, config.lr);
  const learner = asyncLearner(config, options, policy, optimizer, streams.selection);
  const updater = learner.updater;
  const actors = new SimulatedActors(envs, policy, options);

  const metrics: AsyncIterationMetrics[] = [];
  let version = 0;
  let samples = 0;
  let regret: number | null = env.stepRegret === undefined ? null : 0;
  let score = env.evaluate(policy).score;
  for (let iteration = 1; iteration <= config.iterations; iteration++) {
    const batch = actors.collect(config.rollouts, version, streams.policy);
    samples += batch.steps;
    if (regret !== null) regret += batch.regret!;
    const stats = updater.update(batch.episodes, version);
    if (stats !== null) actors.updated(++version, stats.moved);
    // The rows the update moved (none without an update), so that the environment may keep the rest.
    score = env.evaluate(policy, movedBy(stats)).score;
    metrics.push(
      asyncIterationMetrics({
        seed,
        iteration,
        samples,
        episodes: batch.episodes,
        returnSum: batch.returnSum,
        optimalProbability: score,
        regret,
        version,
        stats,
        learner,
      }),
    );
    onIteration?.();
    if (config.maxSamples !== undefined && samples >= config.maxSamples) break;
  }
  return {
    seed,
    metrics,
    finalOptimalProbability: score,
    environmentSteps: samples,
    updates: version,
    finalPolicy: savedPolicy(seed, policy, env),
  };
}
