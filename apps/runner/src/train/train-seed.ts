import { laneStreams } from '@ftw/internal/seeded-streams';
import { ActionDistribution, type IterationMetrics as TrainerMetrics, train } from '@ftw/trainer';
import type { TrainConfig } from '../config/train-config.js';
import { seededStreams } from '../random/seeded-streams.js';
import { createEncodedEnvironments, createEnvironment } from './create-environment.js';
import { createPolicy } from './create-policy.js';
import type { EpisodeEnv } from './episode-env.js';
import { type SavedPolicy, savedPolicy } from './saved-policy.js';

/**
 * One line of `metrics.ndjson`: the state after one training iteration of one seed, the trainer's
 * {@link TrainerMetrics} with the seed, and the environment's headline score as `optimalProbability` (for
 * bandits the probability of the optimal action, mean over observations). The pool's size and the loss are
 * not recorded. With `--eval-every n` (n > 1) an iteration not evaluated carries the last evaluation's
 * `optimalProbability` and `evaluation`, and every line names that iteration as `evaluatedAt`.
 */
export type IterationMetrics = { readonly seed: number; readonly optimalProbability: number } & Omit<
  TrainerMetrics,
  'score' | 'poolSize' | 'loss' | 'failureShare' | 'evaluatedAt'
> & { readonly failureShare?: number | null; readonly evaluatedAt?: number | null };

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

/** The score the learning speed is measured at. */
export const TARGET_PROBABILITY = 0.9;

/**
 * Trains a policy on one seed with `@ftw/trainer`'s `train`: each iteration collects `rollouts` episodes
 * with the current policy, then lets the method's updater change the policy; after each iteration the
 * environment evaluates it. This adds the runner's environment and policy, its seeded streams and the
 * figures of `summary.json` and `policies.ndjson`.
 *
 * Randomness: the environment draws from its own seeded generator; actions and minibatches come from two
 * separate streams of the same seed (`seededStreams`), so the same seed gives the same run bit for bit.
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
  const lanes = laneStreams(seed);
  const network = config.network;
  const envs =
    network === undefined || config.environment.kind !== 'sokoban'
      ? [environment ?? createEnvironment(config.environment, streams.environment)]
      : createEncodedEnvironments(
          config.environment,
          config.policy === 'cnn' ? 'grid' : 'features',
          streams.environment,
          network.envs,
        );
  const env = envs[0]!;
  const policy = createPolicy(config, env, lanes.network);
  const metrics: IterationMetrics[] = [];
  let samplesTo90: number | null = null;
  const result = train({
    env: envs,
    policy,
    method: config.method,
    iterations: config.iterations,
    rollouts: config.rollouts,
    optimizer: config.optimizer,
    lr: config.lr,
    random:
      envs.length === 1
        ? streams.policy
        : envs.map((_, j) => (j === 0 ? streams.policy : lanes.lane(j).policy)),
    selectionRandom: streams.selection,
    ftw: config,
    baseline: config,
    ...(config.maxSamples === undefined ? {} : { maxSamples: config.maxSamples }),
    ...(config.evalEvery === undefined ? {} : { evaluateEvery: config.evalEvery }),
    // Difficulty probes (`--probe`): candidate levels default to the rollouts.
    ...(config.environment.kind === 'sokoban' && config.environment.probes !== undefined
      ? {
          probe: {
            probes: config.environment.probes,
            candidates: config.environment.probeLevels ?? config.rollouts,
          },
        }
      : {}),
    keepMetrics: false,
    onIteration: (m) => {
      const score = m.score!;
      if (samplesTo90 === null && score >= TARGET_PROBABILITY) samplesTo90 = m.samples;
      metrics.push(seedMetrics(seed, m, config.failureReturn !== undefined, config.evalEvery !== undefined));
      onIteration?.();
    },
  });
  const reported = 'observationCount' in env && env.observationCount <= MAX_REPORTED_OBSERVATIONS;
  const distribution = new ActionDistribution(env.numActions);
  const last = metrics[metrics.length - 1]!;
  return {
    seed,
    metrics,
    finalOptimalProbability: last.optimalProbability,
    meanReward: result.meanReward,
    cumulativeRegret: last.regret,
    samplesTo90,
    environmentSteps: result.samples,
    episodes: result.episodes,
    updates: result.updates,
    policyBytes: policy.memoryBytes,
    policy: reported
      ? Array.from({ length: (env as EpisodeEnv).observationCount }, (_, o) =>
          Array.from(distribution.of(policy, o).probabilities),
        )
      : null,
    finalPolicy: savedPolicy(seed, policy, env),
  };
}

/** The trainer's metrics of an iteration as a line of `metrics.ndjson`. */
function seedMetrics(seed: number, m: TrainerMetrics, failures: boolean, sparse: boolean): IterationMetrics {
  return {
    seed,
    iteration: m.iteration,
    samples: m.samples,
    reward: m.reward,
    optimalProbability: m.score!,
    evaluation: m.evaluation,
    regret: m.regret,
    klMean: m.klMean,
    klMax: m.klMax,
    tvMax: m.tvMax,
    updated: m.updated,
    eliteMean: m.eliteMean,
    eliteSpread: m.eliteSpread,
    selected: m.selected,
    poolStaleness: m.poolStaleness,
    selectionStaleness: m.selectionStaleness,
    ...(failures ? { failureShare: m.failureShare } : {}),
    ...(sparse ? { evaluatedAt: m.evaluatedAt } : {}),
  };
}
