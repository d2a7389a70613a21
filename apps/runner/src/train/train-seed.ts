import { policyShift } from '@ftw/objective';
import type { TrainConfig } from '../config/train-config.js';
import { seededStreams } from '../random/seeded-streams.js';
import { BaselineUpdater } from './baseline-updater.js';
import { createEnvironment } from './create-environment.js';
import { FtwUpdater } from './ftw-updater.js';
import { createOptimizer } from './optimizer.js';
import type { Rollout, Updater } from './rollout.js';
import { TabularPolicy } from './tabular-policy.js';

/** One line of `metrics.ndjson`: the state after one training iteration of one seed. */
export interface IterationMetrics {
  readonly seed: number;
  /** 1-based iteration. */
  readonly iteration: number;
  /** Environment steps so far (the sampling budget spent). */
  readonly samples: number;
  /** Mean reward of this iteration's rollouts. */
  readonly reward: number;
  /** Probability of the optimal action after the update (mean over observations). */
  readonly optimalProbability: number;
  /** Cumulative expected regret of the acting policies, Σ over samples of E[μ* − μ_a]. */
  readonly regret: number;
  /** Mean over observations of KL(π_before ‖ π_after) for this update (0 when no update). */
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
  /** Mean age of the selected trajectories; null otherwise. */
  readonly selectionStaleness: number | null;
}

/** The outcome of one seed. */
export interface SeedResult {
  readonly seed: number;
  readonly metrics: readonly IterationMetrics[];
  /** Optimal-action probability at the end. */
  readonly finalOptimalProbability: number;
  /** Mean reward over every sample. */
  readonly meanReward: number;
  /** Cumulative expected regret over every sample. */
  readonly cumulativeRegret: number;
  /** Samples after which the optimal-action probability first reached 0.9; null if never. */
  readonly samplesTo90: number | null;
  /** Number of `env.step` calls made. */
  readonly environmentSteps: number;
  /** Number of updates made. */
  readonly updates: number;
  /** Final policy, one row of action probabilities per observation. */
  readonly policy: readonly (readonly number[])[];
}

const NO_SHIFT = { klMean: 0, klMax: 0, tvMean: 0, tvMax: 0 } as const;

/** The optimal-action probability the learning speed is measured at. */
export const TARGET_PROBABILITY = 0.9;

/**
 * Trains a tabular policy on one seed: each iteration collects `rollouts` one-step episodes with the
 * current policy, then lets the method's updater change the policy.
 *
 * Randomness: the environment draws rewards from its own seeded generator; the runner draws actions and
 * minibatches from two separate streams of the same seed (`seededStreams`), so the same seed gives the same
 * run bit for bit.
 *
 * @param config - the resolved configuration
 * @param seed - the seed
 * @param onIteration - called after each iteration (progress)
 * @returns per-iteration metrics and the final figures
 * @example
 * ```ts
 * trainSeed(reproduceConfig, 0).finalOptimalProbability; // ≈ 0.968
 * ```
 */
export function trainSeed(config: TrainConfig, seed: number, onIteration?: () => void): SeedResult {
  const streams = seededStreams(seed);
  const env = createEnvironment(config.environment, streams.environment);
  const policy = new TabularPolicy(env.numObservations, env.numActions);
  const optimizer = createOptimizer(config.optimizer, config.lr, policy.logits.length);
  const updater: Updater =
    config.method === 'ftw'
      ? new FtwUpdater(config, policy, optimizer, streams.selection)
      : new BaselineUpdater(config, policy, optimizer);
  const optimal = Array.from({ length: env.numObservations }, (_, o) => env.optimalAction(o));
  const optimalProbability = (): number => {
    let sum = 0;
    for (let o = 0; o < policy.observations; o++) sum += policy.probability(o, optimal[o]!);
    return sum / policy.observations;
  };

  const probabilities = new Float64Array(env.numActions);
  const before = new Float64Array(policy.logits.length);
  const rollouts: Rollout[] = Array.from({ length: config.rollouts }, () => ({
    observation: 0,
    action: 0,
    logProb: 0,
    reward: 0,
    version: 0,
  }));
  const metrics: IterationMetrics[] = [];
  let samples = 0;
  let regret = 0;
  let rewardTotal = 0;
  let version = 0;
  let samplesTo90: number | null = null;
  for (let iteration = 1; iteration <= config.iterations; iteration++) {
    let rewardSum = 0;
    for (const rollout of rollouts) {
      const { observation } = env.reset();
      policy.probabilities(observation, probabilities);
      regret += env.regret(probabilities, observation);
      const action = policy.sample(observation, streams.policy());
      const { reward } = env.step(action);
      samples++;
      rewardSum += reward;
      rollout.observation = observation;
      rollout.action = action;
      rollout.logProb = policy.logProbability(observation, action);
      rollout.reward = reward;
      rollout.version = version;
    }
    rewardTotal += rewardSum;
    before.set(policy.logits);
    const stats = updater.update(rollouts, version);
    if (stats !== null) version++;
    const shift = stats === null ? NO_SHIFT : policyShift(before, policy.logits, policy.actions);
    const pOptimal = optimalProbability();
    if (samplesTo90 === null && pOptimal >= TARGET_PROBABILITY) samplesTo90 = samples;
    metrics.push({
      seed,
      iteration,
      samples,
      reward: rewardSum / config.rollouts,
      optimalProbability: pOptimal,
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
  }
  return {
    seed,
    metrics,
    finalOptimalProbability: optimalProbability(),
    meanReward: rewardTotal / samples,
    cumulativeRegret: regret,
    samplesTo90,
    environmentSteps: samples,
    updates: version,
    policy: Array.from({ length: policy.observations }, (_, o) => Array.from(policy.probabilities(o))),
  };
}
