import { SOKOBAN_FEATURE_COUNT as FEATURE_COUNT } from '@ftw/sokoban';
import { SOKOBAN_SCORE_LABEL, SokobanEpisodeEnv, SokobanLinearPolicy } from '@ftw/sokoban/trainer';
import { TabularPolicy } from '@ftw/trainer';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../cli/usage-error.js';
import { compareSokoban, onStepGrid } from '../commands/compare-sokoban.js';
import { addOptions, collectOptions } from '../config/option-spec.js';
import { REPRODUCE_CONFIG } from '../config/reproduce-config.js';
import { resolveTrainConfig, TRAIN_OPTIONS, type TrainConfig } from '../config/train-config.js';
import { createPolicy } from '../train/create-policy.js';
import { scoreName } from '../train/describe-config.js';
import { trainSeed } from '../train/train-seed.js';
import { SOKOBAN_SCENARIO } from './sokoban-scenario.js';
import { SMALL_LEVELS } from './testing/small-levels.js';

const SMALL = SMALL_LEVELS;

function resolve(args: string[]): TrainConfig {
  const command = addOptions(new Command('train').exitOverride(), TRAIN_OPTIONS);
  command.parse(args, { from: 'user' });
  return resolveTrainConfig(collectOptions(TRAIN_OPTIONS, command));
}

describe('SokobanEpisodeEnv in the runner', () => {
  it('labels its score as the runner names Sokoban scores', () => {
    expect(new SokobanEpisodeEnv(SMALL, 0).scoreLabel).toBe(scoreName({ kind: 'sokoban' }).label);
    expect(SOKOBAN_SCORE_LABEL).toBe(scoreName({ kind: 'sokoban' }).label);
  });

  it('computes no feature for a tabular policy, which never reads them', () => {
    const config = {
      ...REPRODUCE_CONFIG,
      environment: SMALL,
      iterations: 40,
      rollouts: 2,
      policy: 'tabular' as const,
    };
    const env = new SokobanEpisodeEnv(SMALL, 0);
    const before = env.featureBytes;
    trainSeed(config, 0, undefined, env);
    expect(env.observationCount).toBeGreaterThan(10);
    expect(env.featureBytes).toBe(before);
    // A linear policy reads them: they grow with the positions met.
    const linear = new SokobanEpisodeEnv(SMALL, 0);
    trainSeed({ ...config, policy: 'linear', optimizer: 'adam', lr: 0.05 }, 0, undefined, linear);
    expect(linear.featureBytes).toBeGreaterThanOrEqual(linear.observationCount * FEATURE_COUNT * 4);
  });
});

describe('training on Sokoban', () => {
  it('stops at the step budget, reproducibly, for the linear and tabular policies', () => {
    for (const policy of ['linear', 'tabular'] as const) {
      const config: TrainConfig = {
        ...REPRODUCE_CONFIG,
        environment: SMALL,
        optimizer: 'adam',
        lr: 0.05,
        iterations: 100_000,
        rollouts: 4,
        maxSamples: 600,
        ...(policy === 'linear' ? { policy } : {}),
      };
      const a = trainSeed(config, 5);
      expect(a.environmentSteps).toBeGreaterThanOrEqual(600);
      expect(a.environmentSteps).toBeLessThan(600 + 4 * SMALL.maxSteps);
      expect(a.metrics.at(-2)!.samples).toBeLessThan(600);
      expect(trainSeed(config, 5)).toEqual(a);
      expect(a.policyBytes).toBe(policy === 'linear' ? 4 * FEATURE_COUNT * 8 : a.policyBytes);
    }
  });

  it('builds the policy the configuration names', () => {
    const env = new SokobanEpisodeEnv(SMALL, 0);
    const linear = createPolicy({ ...REPRODUCE_CONFIG, environment: SMALL, policy: 'linear' }, env);
    expect(linear).toBeInstanceOf(SokobanLinearPolicy);
    expect(linear.parameters).toHaveLength(4 * FEATURE_COUNT);
    expect(createPolicy({ ...REPRODUCE_CONFIG, environment: SMALL }, env)).toBeInstanceOf(TabularPolicy);
  });
});

describe('ftw train --env sokoban options', () => {
  it('reads the Sokoban flags', () => {
    const c = resolve(
      '--env sokoban --size 5 --boxes 2 --levels 3 --held-out 2 --level-seed 9 --max-moves 7 --max-steps 40 --reward shaped --policy linear --max-samples 5000'.split(
        ' ',
      ),
    );
    expect(c.environment).toEqual({
      kind: 'sokoban',
      size: 5,
      boxes: 2,
      levels: 3,
      heldOut: 2,
      levelSeed: 9,
      maxMoves: 7,
      maxSteps: 40,
      reward: 'shaped',
      lengthTiebreak: 0,
    });
    expect(c.policy).toBe('linear');
    expect(c.maxSamples).toBe(5000);
    expect(resolve([])).toEqual(REPRODUCE_CONFIG);
  });

  it('refuses Sokoban flags elsewhere and bad values', () => {
    expect(() => resolve(['--size', '5'])).toThrow(/--size applies only to --env sokoban/);
    expect(() => resolve(['--policy', 'linear'])).toThrow(/--policy linear applies only to --env sokoban/);
    expect(() => resolve(['--env', 'sokoban', '--reward', 'dense'])).toThrow(UsageError);
    expect(() => resolve(['--env', 'sokoban', '--size', '2'])).toThrow(
      /--size must be an integer in \[3, 30\]/,
    );
    expect(() => resolve(['--max-samples', '0'])).toThrow(/--max-samples/);
  });
});

describe('compareSokoban', () => {
  it('runs every method on the seeds and reports training and held-out success', async () => {
    const scenario = {
      ...SOKOBAN_SCENARIO,
      base: { ...SOKOBAN_SCENARIO.base, environment: SMALL, maxSamples: 300 },
      methods: SOKOBAN_SCENARIO.methods.filter((m) => m.label === 'ftw-k3-by-length' || m.label === 'grpo'),
    };
    const result = await compareSokoban([0, 1], undefined, 1, scenario);
    const { report, files, summary } = result.artifacts;
    expect(report).toContain('| ftw-k3-by-length |');
    expect(report).toContain('held-out success');
    expect(Object.keys(files)).toEqual(['curves-sokoban-train.svg', 'curves-sokoban-held-out.svg']);
    expect(files['curves-sokoban-train.svg']).toContain('<svg');
    expect((summary as { methods: unknown[] }).methods).toHaveLength(2);
  });

  it('puts each seed on a common step grid', () => {
    const result = {
      metrics: [
        { samples: 10, optimalProbability: 0.1 },
        { samples: 25, optimalProbability: 0.5 },
      ],
    } as never;
    expect(onStepGrid(result, [5, 10, 20, 30], (m) => m.optimalProbability)).toEqual([0, 0.1, 0.1, 0.5]);
  });
});
