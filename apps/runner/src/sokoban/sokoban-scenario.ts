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
