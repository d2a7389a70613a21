import type { CompareScenario } from '../config/compare-scenarios.js';
import { REPRODUCE_CONFIG } from '../config/reproduce-config.js';
import type { SokobanEnvironmentConfig } from '../config/sokoban-environment-config.js';

/** Environment steps per method and seed of the default Sokoban comparison. */
export const SOKOBAN_STEPS = 8000;

/** The levels of the comparison: 6 × 6 interior, one box, optimal solutions of at most 8 moves. */
export const SOKOBAN_LEVELS: SokobanEnvironmentConfig = {
  kind: 'sokoban',
  size: 6,
  boxes: 1,
  levels: 10,
  heldOut: 10,
  levelSeed: 0,
  maxMoves: 8,
  maxSteps: 30,
  reward: 'binary',
  lengthTiebreak: 0,
};

/**
 * `ftw compare --scenario sokoban`: the paper's own setting, multi-step episodes with binary returns that
 * tie massively. Every method trains a linear softmax policy over egocentric features on the same 10
 * training levels (so that success on the 10 held-out levels measures something) with Adam, lr 0.05,
 * 4 episodes per iteration, until {@link SOKOBAN_STEPS} environment steps (matched in steps, not
 * episodes: a method that solves levels sooner gets more episodes). FTW: K = 1, C = 5; K = 3, C = 5 (the
 * paper's collapse); K = 3, C = 5 with threshold 0 (only successes can be elites); K = 3, C = 5 with ties
 * broken by episode length (tie rule `shortest`: a shorter success ranks first, equal lengths at random); all with
 * N = 128, J = 4, β = 0.05 reverse KL to uniform. Baselines: REINFORCE with a running-mean baseline, GRPO
 * (group-normalised over the 4 episodes of an iteration), PPO-clip with 4 epochs.
 */
export const SOKOBAN_SCENARIO: CompareScenario = {
  name: 'sokoban',
  description:
    'Sokoban 6 × 6, one box, 10 training and 10 held-out certified levels (optimal solutions of at most 8 moves), ' +
    'episodes of at most 30 steps, binary reward (1 when solved): returns tie massively.',
  base: {
    ...REPRODUCE_CONFIG,
    environment: SOKOBAN_LEVELS,
    optimizer: 'adam',
    lr: 0.05,
    iterations: 1_000_000,
    rollouts: 4,
    policy: 'linear',
    maxSamples: SOKOBAN_STEPS,
  },
  methods: [
    { label: 'ftw-k1', overrides: {} },
    { label: 'ftw-k3', overrides: { keep: 3 } },
    { label: 'ftw-k3-threshold', overrides: { keep: 3, threshold: 0 } },
    {
      label: 'ftw-k3-by-length',
      overrides: { keep: 3, tieRule: 'shortest' },
    },
    { label: 'reinforce', overrides: { method: 'reinforce' } },
    { label: 'grpo', overrides: { method: 'grpo' } },
    { label: 'ppo', overrides: { method: 'ppo', epochs: 4 } },
  ],
};

/** Environment steps per method and seed of the neural Sokoban comparison. */
export const SOKOBAN_NEURAL_STEPS = 200_000;

/**
 * `ftw compare --scenario sokoban-neural`: the methods of {@link SOKOBAN_SCENARIO} with one network, an
 * MLP of 64 hidden units on the 84 egocentric features (`@ftw/tfjs`), on levels drawn from a generated
 * stream: 2,000 training levels and 500 held-out levels never trained on (a level split), 8 environments
 * in lockstep and 8 episodes per iteration, Adam lr 0.001, until {@link SOKOBAN_NEURAL_STEPS} environment
 * steps, evaluated after every 25th iteration (and the last).
 */
export const SOKOBAN_NEURAL_SCENARIO: CompareScenario = {
  name: 'sokoban-neural',
  description:
    'Sokoban 6 × 6, one box, 2000 training levels and 500 held-out levels never trained on, from a stream of ' +
    'generated certified levels (optimal solutions of at most 8 moves), episodes of at most 30 steps, binary reward.',
  base: {
    ...SOKOBAN_SCENARIO.base,
    environment: { ...SOKOBAN_LEVELS, levelSet: 'split', levels: 2000, heldOut: 500 },
    policy: 'mlp',
    network: { hidden: [64], filters: [], envs: 8 },
    lr: 0.001,
    rollouts: 8,
    maxSamples: SOKOBAN_NEURAL_STEPS,
    // About 1 200 iterations of ~170 steps: greedy play of 1 000 levels after each would cost more than
    // training; every 25th gives the learning curves about 50 points (the grid has 40).
    evalEvery: 25,
  },
  methods: SOKOBAN_SCENARIO.methods,
};

/** Environment steps per method and seed of the two goal runs (issue 40's budget). */
export const SOKOBAN_GOAL_STEPS = 2_000_000;

/** The methods of the goal runs: the two FTW variants that led at 2·10^5 steps, and PPO as the anchor. */
const GOAL_METHODS = SOKOBAN_SCENARIO.methods.filter((m) =>
  ['ftw-k1', 'ftw-k3-threshold', 'ppo'].includes(m.label),
);

/**
 * `ftw compare --scenario sokoban-goal-6x6`: {@link SOKOBAN_NEURAL_SCENARIO}'s network and settings at the
 * goal's scale: 10,000 training levels and 500 held-out ones (a level split), 2·10^6 environment steps per
 * method and seed, evaluated after every 250th iteration; FTW K = 1, FTW K = 3 with threshold 0, and PPO.
 */
export const SOKOBAN_GOAL_6X6_SCENARIO: CompareScenario = {
  name: 'sokoban-goal-6x6',
  description:
    'Sokoban 6 × 6, one box, 10000 training levels and 500 held-out levels never trained on (optimal solutions ' +
    'of at most 8 moves), episodes of at most 30 steps, binary reward: the goal is held-out success ≥ 0.90.',
  base: {
    ...SOKOBAN_NEURAL_SCENARIO.base,
    environment: { ...SOKOBAN_LEVELS, levelSet: 'split', levels: 10_000, heldOut: 500 },
    maxSamples: SOKOBAN_GOAL_STEPS,
    evalEvery: 250,
  },
  methods: GOAL_METHODS,
};

/**
 * `ftw compare --scenario sokoban-goal-8x8`: as {@link SOKOBAN_GOAL_6X6_SCENARIO} on 8 × 8 levels with two
 * boxes, optimal solutions of at most 20 moves, episodes of at most 60 steps.
 */
export const SOKOBAN_GOAL_8X8_SCENARIO: CompareScenario = {
  name: 'sokoban-goal-8x8',
  description:
    'Sokoban 8 × 8, two boxes, 10000 training levels and 500 held-out levels never trained on (optimal solutions ' +
    'of at most 20 moves), episodes of at most 60 steps, binary reward: the goal is held-out success ≥ 0.50.',
  base: {
    ...SOKOBAN_GOAL_6X6_SCENARIO.base,
    environment: {
      ...SOKOBAN_LEVELS,
      size: 8,
      boxes: 2,
      maxMoves: 20,
      maxSteps: 60,
      levelSet: 'split',
      levels: 10_000,
      heldOut: 500,
    },
  },
  methods: GOAL_METHODS,
};

/** The Sokoban scenarios of `ftw compare --scenario`. */
export const SOKOBAN_SCENARIOS: readonly CompareScenario[] = [
  SOKOBAN_SCENARIO,
  SOKOBAN_NEURAL_SCENARIO,
  SOKOBAN_GOAL_6X6_SCENARIO,
  SOKOBAN_GOAL_8X8_SCENARIO,
];
