import { describe, expect, it } from 'vitest';
import { REPRODUCE_CONFIG } from '../config/reproduce-config.js';
import { SMALL_LEVELS } from '../sokoban/testing/small-levels.js';
import { describeEnvironment, describeMethod } from './describe-config.js';

describe('describeMethod', () => {
  it('names each FTW parameter with its own value', () => {
    // Every value distinct, so a parameter printed under another's name is caught.
    const config = {
      ...REPRODUCE_CONFIG,
      capacity: 64,
      batchSize: 8,
      keep: 3,
      batches: 6,
      beta: 0.02,
      kl: 'forward' as const,
      reference: 'previous' as const,
      optimizer: 'adam' as const,
      lr: 0.05,
      iterations: 150,
      rollouts: 4,
      threshold: 0,
      tieRule: 'shortest' as const,
      selection: 'expected' as const,
      epochs: 2,
    };
    expect(describeMethod(config)).toBe(
      'FTW N=64 C=8 K=3 J=6 expected, threshold 0, ties: shortest episode first, β=0.02 forward KL to previous, ' +
        'Adam lr 0.05, 2 epochs, 150 iterations × 4 rollouts',
    );
    expect(describeMethod(REPRODUCE_CONFIG)).toBe(
      'FTW N=128 C=5 K=1 J=4 sampled, β=0.05 reverse KL to uniform, SGD lr 0.08, 240 iterations × 1 rollout',
    );
  });

  it('names the baselines with their own settings', () => {
    const base = { ...REPRODUCE_CONFIG, optimizer: 'adam' as const, lr: 0.05, iterations: 120, rollouts: 4 };
    expect(describeMethod({ ...base, method: 'ppo', epochs: 4, clip: 0.3 })).toBe(
      'PPO-clip ε=0.3, Adam lr 0.05, 4 epochs, 120 iterations × 4 rollouts',
    );
    expect(describeMethod({ ...base, method: 'reinforce' })).toBe(
      'REINFORCE with baseline, Adam lr 0.05, 120 iterations × 4 rollouts',
    );
  });
});

describe('describeEnvironment', () => {
  it('prints the parameters each environment is built from', () => {
    expect(describeEnvironment(REPRODUCE_CONFIG.environment)).toBe('Gaussian bandit, means 1, 0.3, sd 0.2');
    expect(describeEnvironment({ kind: 'gaussian', means: [1, 0], sds: [0.1, 0.4] })).toBe(
      'Gaussian bandit, means 1, 0, sd 0.1, 0.4',
    );
    expect(describeEnvironment({ kind: 'tie-heavy', arms: 10, maxProbability: 0.2 })).toBe(
      'tie-heavy binary bandit, 10 Bernoulli arms, p = 0.2·(a+1)/10',
    );
    expect(
      describeEnvironment({
        kind: 'contextual',
        taskMeans: [
          [1, 0.3],
          [0, 1],
        ],
        sd: 0.3,
      }),
    ).toBe('contextual bandit, 2 tasks (1/0.3; 0/1), sd 0.3');
    expect(describeEnvironment(SMALL_LEVELS)).toBe(
      'Sokoban 5×5, 1 box, 4 training + 3 held-out levels (seed 3, ≤ 6 moves), binary reward, 20 steps',
    );
  });
});
