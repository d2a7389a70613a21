import { SOKOBAN_FEATURE_COUNT as FEATURE_COUNT } from '@ftw/sokoban';
import { SokobanEpisodeEnv, SokobanLinearPolicy } from '@ftw/sokoban/trainer';
import { describe, expect, it } from 'vitest';
import { seededStreams } from '../random/seeded-streams.js';
import { SMALL_LEVELS } from '../sokoban/testing/small-levels.js';
import { savedPolicy } from '../train/saved-policy.js';
import { evaluatePolicies } from './evaluate-command.js';

describe('evaluatePolicies', () => {
  it('scores saved linear Sokoban policies as the policies themselves score: training and held-out success', async () => {
    const environment = { ...SMALL_LEVELS, heldOut: 6 };
    const random = seededStreams(11).policy;
    const expected: { seed: number; score: number; heldOutSuccess: number }[] = [];
    const saved = [0, 1, 2, 3, 4, 5].map((seed) => {
      const env = new SokobanEpisodeEnv(environment, seed);
      const policy = new SokobanLinearPolicy(4, FEATURE_COUNT, env);
      for (let i = 0; i < policy.parameters.length; i++) policy.parameters[i] = 6 * random() - 3;
      const { score, details } = env.evaluate(policy);
      expected.push({ seed, score, heldOutSuccess: details!['heldOutSuccess']! });
      return savedPolicy(seed, policy, env);
    });
    // Random weights solve different shares of the two level sets: a column read from the wrong figure
    // would differ.
    expect(new Set(expected.map((e) => e.heldOutSuccess)).size).toBeGreaterThan(1);
    expect(expected.some((e) => e.heldOutSuccess !== e.score)).toBe(true);
    expect(await evaluatePolicies(environment, saved)).toEqual(expected);
  });
});
