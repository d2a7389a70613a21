import { SOKOBAN_FEATURE_COUNT as FEATURE_COUNT } from '@ftw/sokoban';
import { SokobanEpisodeEnv } from '@ftw/sokoban/trainer';
import { describe, expect, it } from 'vitest';
import { REPRODUCE_CONFIG } from '../config/reproduce-config.js';
import type { TrainConfig } from '../config/train-config.js';
import { SMALL_LEVELS } from '../sokoban/testing/small-levels.js';
import { createEnvironment } from './create-environment.js';
import type { EpisodeEnv } from './episode-env.js';
import { restorePolicy, type SavedPolicy } from './saved-policy.js';
import { trainSeed } from './train-seed.js';

const LEVELS = SMALL_LEVELS;
const SOKOBAN: TrainConfig = {
  ...REPRODUCE_CONFIG,
  environment: LEVELS,
  optimizer: 'adam',
  lr: 0.05,
  rollouts: 4,
  iterations: 150,
};
const CONTEXTUAL: TrainConfig = {
  ...REPRODUCE_CONFIG,
  environment: {
    kind: 'contextual',
    taskMeans: [
      [1, 0.2],
      [0.2, 1],
    ],
    sd: 0.3,
  },
  iterations: 120,
};

/** Through JSON, as `policies.ndjson` holds it. */
const asWritten = (saved: SavedPolicy): SavedPolicy => JSON.parse(JSON.stringify(saved));

describe('savedPolicy and restorePolicy', () => {
  const cases: [string, TrainConfig, () => EpisodeEnv][] = [
    ['the reproduction bandit', REPRODUCE_CONFIG, () => createEnvironment(REPRODUCE_CONFIG.environment, 99)],
    ['a contextual bandit', CONTEXTUAL, () => createEnvironment(CONTEXTUAL.environment, 99)],
    ['Sokoban, tabular', SOKOBAN, () => new SokobanEpisodeEnv(LEVELS, 99)],
    ['Sokoban, linear', { ...SOKOBAN, policy: 'linear' }, () => new SokobanEpisodeEnv(LEVELS, 99)],
  ];
  for (const [label, config, fresh] of cases) {
    it(`gives back the policy a seed ended with: ${label}`, () => {
      for (const seed of [0, 1]) {
        const result = trainSeed(config, seed);
        const saved = asWritten(result.finalPolicy);
        expect(saved.seed).toBe(seed);
        // Another process's environment of the same configuration scores the restored policy as the
        // run scored the policy it ended with.
        const env = fresh();
        expect(env.evaluate(restorePolicy(saved, env)).score).toBe(result.finalOptimalProbability);
      }
    });
  }

  it('saves a bandit table as it is, a linear policy with its feature count, Sokoban rows with their positions', () => {
    const bandit = trainSeed(REPRODUCE_CONFIG, 0).finalPolicy;
    expect(bandit).toMatchObject({ kind: 'tabular', numActions: 2 });
    expect(bandit.parameters).toHaveLength(2);
    expect(bandit).not.toHaveProperty('positions');
    const linear = trainSeed({ ...SOKOBAN, policy: 'linear', iterations: 10 }, 0).finalPolicy;
    expect(linear).toMatchObject({ kind: 'linear', numActions: 4, featureCount: FEATURE_COUNT });
    expect(linear.parameters).toHaveLength(4 * FEATURE_COUNT);
    const tabular = trainSeed({ ...SOKOBAN, iterations: 10 }, 0).finalPolicy;
    expect(tabular.parameters).toHaveLength(4 * tabular.positions!.length);
    expect(new Set(tabular.positions).size).toBe(tabular.positions!.length);
  });

  it('numbers Sokoban positions again in an environment that has met others already', () => {
    const result = trainSeed(SOKOBAN, 2);
    const saved = asWritten(result.finalPolicy);
    const env = new SokobanEpisodeEnv(LEVELS, 7);
    env.reset();
    for (let t = 0; t < 40; t++) {
      const step = env.step(t % 4);
      if (step.terminated || step.truncated) env.reset();
    }
    expect(env.observationCount).toBeGreaterThan(1);
    const policy = restorePolicy(saved, env);
    expect(env.evaluate(policy).score).toBe(result.finalOptimalProbability);
    // Each saved row is the row of its position's id in this environment.
    const row = new Float64Array(4);
    const last = saved.positions!.length - 1;
    policy.logits(Float64Array.of(env.idOfPosition(saved.positions![last]!)), 1, row);
    expect(Array.from(row)).toEqual(saved.parameters.slice(4 * last, 4 * last + 4));
  });

  it('refuses a saved policy that does not fit the environment, naming why', () => {
    const bandit = trainSeed(REPRODUCE_CONFIG, 0).finalPolicy;
    const sokoban = trainSeed({ ...SOKOBAN, iterations: 10 }, 0).finalPolicy;
    const linear = trainSeed({ ...SOKOBAN, policy: 'linear', iterations: 10 }, 0).finalPolicy;
    const banditEnv = () => createEnvironment(REPRODUCE_CONFIG.environment, 0);
    const sokobanEnv = () => new SokobanEpisodeEnv(LEVELS, 0);
    expect(() => restorePolicy(bandit, sokobanEnv())).toThrow(
      'saved policy of seed 0 has 2 parameters for 2 actions; the environment has 4 actions',
    );
    expect(() => restorePolicy({ ...bandit, parameters: [1, 2, 3] }, banditEnv())).toThrow(
      'saved policy of seed 0 has 3 parameters for 2 actions',
    );
    expect(() => restorePolicy({ ...linear, featureCount: 3 }, sokobanEnv())).toThrow(
      `saved linear policy of seed 0 needs a Sokoban environment and ${FEATURE_COUNT} features, got 3 features`,
    );
    expect(() => restorePolicy({ ...bandit, positions: ['0|a'] }, banditEnv())).toThrow(
      'saved policy of seed 0 names Sokoban positions; the environment is a bandit',
    );
    expect(() => restorePolicy({ ...sokoban, positions: sokoban.positions!.slice(1) }, sokobanEnv())).toThrow(
      /^saved Sokoban policy of seed 0 must name the position of each of its \d+ rows, got \d+ positions$/,
    );
    const other = new SokobanEpisodeEnv({ ...LEVELS, levels: 1 }, 0);
    expect(() => restorePolicy(sokoban, other)).toThrow(
      /^name must be <training level>\|<key> with a level in 0 … 0/,
    );
  });
});
