import type { PolicyShift } from '@ftw/objective';
import type { TrainConfig } from '../config/train-config.js';
import { seededStreams } from '../random/seeded-streams.js';
import { ActionDistribution } from './action-distribution.js';
import { BaselineUpdater } from './baseline-updater.js';
import { createEnvironment } from './create-environment.js';
import { createPolicy } from './create-policy.js';
import { EpisodeCollector } from './episode-collector.js';
import type { EpisodeEnv } from './episode-env.js';
import { configSelector, FtwUpdater } from './ftw-updater.js';
import { createOptimizer } from './optimizer.js';
import { PolicyShiftMeter } from './policy-shift-meter.js';
import { stepsBlocksOnly } from './policy-step.js';
import { type SavedPolicy, savedPolicy } from './saved-policy.js';
import { movedBy, type Updater } from './updater.js';

/** One line of `metrics.ndjson`: the state after one training iteration of one seed. */
export interface IterationMetrics {
  readonly seed: number;
  /** 1-based iteration. */
  readonly iteration: number;
  /** Environment steps so far (the sampling budget spent). */
  readonly samples: number;
  /** Mean return of this iteration's episodes. */
  readonly reward: number;
  /**
   * The environment's headline score after the update (`EpisodeEnv.evaluate`): for bandits the
   * probability of the optimal action (mean over observations).
   */
  readonly optimalProbability: number;
  /** Further evaluation figures of the environment, when it reports some (absent from the JSON otherwise). */
  readonly evaluation: Readonly<Record<string, number>> | undefined;
  /** Cumulative expected regret of the acting policies, Σ over steps of E[μ* − μ_a]; null without one. */
  readonly regret: number | null;
  /** Mean over the known observations of KL(π_before ‖ π_after) for this update (0 when no update). */
  readonly klMean: number;
  /** Max over observations of that KL. */
  readonly klMax: number;
  /** Max over observations of the total-variation distance moved (TRPO's α). */
  readonly tvMax: number;
  /** Whether the policy was updated (false during FTW's warm-up). */
  readonly updated: boolean;
  /** Mean return of the selected elites (FTW), weighted by selection count; null otherwise. */
  readonly eliteMean: number | null;
  /** Spread (standard deviation) of the selected elites' returns; null otherwise. */
  readonly eliteSpread: number | null;
  /** Σ selection counts (J·K without threshold); null otherwise. */
  readonly selected: number | null;
  /** Mean age in versions of the trajectories in the pool; null otherwise. */
  readonly poolStaleness: number | null;
  /** Mean age of the selected trajectories, repeats included; null otherwise. */
  readonly selectionStaleness: number | null;
}

/** The outcome of one seed. */
export interface SeedResult {
  readonly seed: number;
  readonly metrics: readonly IterationMetrics[];
  /** The headline score at the end (bandits: optimal-action probability). */
  readonly finalOptimalProbability: number;
  /** Mean return per episode. */
  readonly meanReward: number;
  /** Cumulative expected regret over every step, or null when the environment defines none. */
  readonly cumulativeRegret: number | null;
  /** Steps after which the score first reached 0.9; null if never. */
  readonly samplesTo90: number | null;
  /** Number of `env.step` calls made. */
  readonly environmentSteps: number;
  /** Number of episodes collected. */
  readonly episodes: number;
  /** Number of updates made. */
  readonly updates: number;
  /** Bytes held by the policy's parameters at the end. */
  readonly policyBytes: number;
  /**
   * Final policy, one row of action probabilities per observation, when the environment has at most
   * {@link MAX_REPORTED_OBSERVATIONS} observations; null otherwise.
   */
  readonly policy: readonly (readonly number[])[] | null;
  /** The final policy's parameters, as `policies.ndjson` records them. */
  readonly finalPolicy: SavedPolicy;
}

/** The final policy is written out in full up to this many observations. */
export const MAX_REPORTED_OBSERVATIONS = 64;

const NO_SHIFT: PolicyShift = { klMean: 0, klMax: 0, tvMean: 0, tvMax: 0 };

/** The score the learning speed is measured at. */
export const TARGET_PROBABILITY = 0.9;

/**
 * Trains a policy on one seed: each iteration collects `rollouts` episodes with the current policy, then
 * lets the method's updater change the policy; after each iteration the environment evaluates it.
 *
 * Randomness: the environment draws from its own seeded generator; the runner draws actions and
 * minibatches from two separate streams of the same seed (`seededStreams`), so the same seed gives the same
 * run bit for bit.
 *
 * @param config - the resolved configuration
 * @param seed - the seed
 * @param onIteration - called after each iteration (progress)
 * @param environment - train on this environment instead of the one `config.environment` names (tests,
 *   and environments built outside the configuration)
 * @returns per-iteration metrics and the final figures
 * @example
 * ```ts
 * trainSeed(REPRODUCE_CONFIG, 0).finalOptimalProbability; // ≈ 0.968
 * ```
 */
export function trainSeed(
  config: TrainConfig,
  seed: number,
  onIteration?: () => void,
  environment?: EpisodeEnv,
): SeedResult {
  const streams = seededStreams(seed);
  const env = environment ?? createEnvironment(config.environment, streams.environment);
  const policy = createPolicy(config, env);
  const optimizer = createOptimizer(config.optimizer, config.lr);
  const updater: Updater =
    config.method === 'ftw'
      ? new FtwUpdater(config, policy, optimizer, configSelector(config, streams.selection))
      : new BaselineUpdater(config, policy, optimizer);
  const collector = new EpisodeCollector(env, policy, config.rollouts);
  const A = env.numActions;
  const distribution = new ActionDistribution(A);
  const meter = new PolicyShiftMeter(policy, stepsBlocksOnly(policy, optimizer));

  const metrics: IterationMetrics[] = [];
  let samples = 0;
  let episodes = 0;
  let regret: number | null = null;
  let returnTotal = 0;
  let version = 0;
  let samplesTo90: number | null = null;
  let score = 0;
  for (let iteration = 1; iteration <= config.iterations; iteration++) {
    const batch = collector.collect(version, streams.policy);
    samples += batch.steps;
    episodes += config.rollouts;
    returnTotal += batch.returnSum;
    if (batch.regret !== null) regret = (regret ?? 0) + batch.regret;
    meter.beforeUpdate(env.observationCount);
    const stats = updater.update(collector.episodes, version);
    if (stats !== null) version++;
    const shift = stats === null ? NO_SHIFT : meter.measure(stats.moved, env.observationCount);
    // The rows the update moved (none without an update), so that the environment may keep the rest.
    const evaluation = env.evaluate(policy, movedBy(stats));
    score = evaluation.score;
    if (samplesTo90 === null && score >= TARGET_PROBABILITY) samplesTo90 = samples;
    metrics.push({
      seed,
      iteration,
      samples,
      reward: batch.returnSum / config.rollouts,
      optimalProbability: score,
      evaluation: evaluation.details,
      regret,
      klMean: shift.klMean,
      klMax: shift.klMax,
      tvMax: shift.tvMax,
      updated: stats !== null,
      eliteMean: stats?.eliteMean ?? null,
      eliteSpread: stats?.eliteSpread ?? null,
      selected: stats?.selected ?? null,
      poolStaleness: stats?.poolStaleness ?? null,
      selectionStaleness: stats?.selectionStaleness ?? null,
    });
    onIteration?.();
    if (config.maxSamples !== undefined && samples >= config.maxSamples) break;
  }
  const reported = env.observationCount <= MAX_REPORTED_OBSERVATIONS;
  return {
    seed,
    metrics,
    finalOptimalProbability: score,
    meanReward: returnTotal / episodes,
    cumulativeRegret: regret,
    samplesTo90,
    environmentSteps: samples,
    episodes,
    updates: version,
    policyBytes: policy.memoryBytes,
    policy: reported
      ? Array.from({ length: env.observationCount }, (_, o) =>
          Array.from(distribution.of(policy, o).probabilities),
        )
      : null,
    finalPolicy: savedPolicy(seed, policy, env),
  };
}
