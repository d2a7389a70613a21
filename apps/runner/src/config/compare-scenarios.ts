import { REPRODUCE_CONFIG } from './reproduce-config.js';
import type { TrainConfig } from './train-config.js';

/** One method of a comparison: a label and how its configuration differs from the scenario's base. */
export interface CompareMethod {
  /** Short label used in tables, charts and metrics (`ftw-sampled`, `ppo`…). */
  readonly label: string;
  /** Overrides of the scenario's base configuration. */
  readonly overrides: Partial<TrainConfig>;
}

/** A comparison scenario: one environment, one sampling budget, several methods. */
export interface CompareScenario {
  /** Identifier used by `--scenarios` and in file names. */
  readonly name: string;
  /** What it tests, for the report. */
  readonly description: string;
  /** The configuration every method starts from (environment, budget, optimiser, FTW settings). */
  readonly base: Omit<TrainConfig, 'seeds'>;
  /** The methods compared. */
  readonly methods: readonly CompareMethod[];
}

/** Rollouts per iteration for every method: GRPO needs a group, and all methods get the same batches. */
const ROLLOUTS = 4;

const baselines: readonly CompareMethod[] = [
  { label: 'reinforce', overrides: { method: 'reinforce' } },
  { label: 'grpo', overrides: { method: 'grpo' } },
  { label: 'ppo', overrides: { method: 'ppo', epochs: 4 } },
];

/**
 * The scenarios of `ftw compare`. Every method of a scenario runs on the same environment, the same seeds,
 * the same number of iterations and rollouts per iteration (so the same number of environment samples and
 * of updates), and the same optimiser and learning rate (Adam, whose per-coordinate scaling keeps one rate
 * fair across losses whose gradients differ in scale).
 *
 * - `gaussian`: the reproduction's two-armed bandit; 120 iterations × 4 rollouts = 480 samples.
 * - `tie-heavy`: 10 Bernoulli arms with success probabilities 0.02…0.20, where binary returns tie
 *   massively; FTW with K = 3, C = 5 (the setting of the paper's Sokoban collapse), with and without a
 *   threshold of 0 (only successes can be elites); 400 iterations × 4 rollouts = 1600 samples.
 */
export const COMPARE_SCENARIOS: readonly CompareScenario[] = [
  {
    name: 'gaussian',
    description:
      "The reproduction's two-armed Gaussian bandit (means 1.0 and 0.3, sd 0.2): continuous returns, rare ties.",
    base: {
      ...REPRODUCE_CONFIG,
      optimizer: 'adam',
      lr: 0.05,
      iterations: 120,
      rollouts: ROLLOUTS,
    },
    methods: [
      { label: 'ftw-sampled', overrides: {} },
      { label: 'ftw-expected', overrides: { selection: 'expected' } },
      ...baselines,
    ],
  },
  {
    name: 'tie-heavy',
    description:
      'Ten Bernoulli arms with success probabilities 0.02, 0.04, …, 0.20 (the best is the last): binary ' +
      'returns tie massively and most minibatches of C = 5 hold fewer than K = 3 successes.',
    base: {
      ...REPRODUCE_CONFIG,
      environment: { kind: 'tie-heavy', arms: 10, maxProbability: 0.2 },
      keep: 3,
      optimizer: 'adam',
      lr: 0.05,
      iterations: 400,
      rollouts: ROLLOUTS,
    },
    methods: [
      { label: 'ftw-sampled', overrides: {} },
      { label: 'ftw-expected', overrides: { selection: 'expected' } },
      { label: 'ftw-sampled-threshold', overrides: { threshold: 0 } },
      { label: 'ftw-expected-threshold', overrides: { selection: 'expected', threshold: 0 } },
      ...baselines,
    ],
  },
];
