import { train } from '@ftw/trainer';
import { describe, expect, it } from 'vitest';
import { seededUniform } from '../seeded-uniform.js';
import { SOKOBAN_FEATURE_COUNT } from '../sokoban-features.js';
import { SokobanEpisodeEnv, SokobanLinearPolicy } from './index.js';

describe('README: training on Sokoban with @ftw/trainer', () => {
  it('prints what the README says it prints', () => {
    const levels = { size: 6, boxes: 1, levels: 10, heldOut: 10, levelSeed: 0, maxMoves: 8 };
    const env = new SokobanEpisodeEnv({ ...levels, maxSteps: 30, reward: 'binary', lengthTiebreak: 0 }, 0);
    const policy = new SokobanLinearPolicy(env.numActions, SOKOBAN_FEATURE_COUNT, env);
    expect(env.evaluate(policy)).toEqual({ score: 0, details: { heldOutSuccess: 0 } });
    train({
      env,
      policy,
      iterations: 500,
      rollouts: 4,
      optimizer: 'adam',
      lr: 0.05,
      random: seededUniform(1),
    });
    const { score, details } = env.evaluate(policy);
    expect([score, details?.['heldOutSuccess']]).toEqual([0.7, 0.4]);
  });
});
