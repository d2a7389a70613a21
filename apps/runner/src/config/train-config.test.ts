import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../cli/usage-error.js';
import { addOptions, collectOptions } from './option-spec.js';
import { readConfigFile } from './read-config-file.js';
import { REPRODUCE_CONFIG } from './reproduce-config.js';
import { resolveTrainConfig, TRAIN_OPTIONS, type TrainConfig } from './train-config.js';

function resolve(args: string[], file?: Record<string, unknown>): TrainConfig {
  const command = addOptions(new Command('train').exitOverride(), TRAIN_OPTIONS);
  command.parse(args, { from: 'user' });
  return resolveTrainConfig(
    collectOptions(
      TRAIN_OPTIONS,
      command,
      file === undefined ? undefined : { values: file, name: 'cfg.json' },
    ),
  );
}

describe('resolveTrainConfig', () => {
  it('reads a network policy with its defaults, and refuses its options where they do not apply', () => {
    const sokoban = ['--env', 'sokoban'];
    expect(resolve([...sokoban, '--policy', 'cnn']).network).toEqual({
      hidden: [64],
      filters: [16, 16],
      envs: 8,
    });
    expect(resolve([...sokoban, '--policy', 'mlp', '--hidden', '32,16', '--envs', '2'])).toMatchObject({
      policy: 'mlp',
      network: { hidden: [32, 16], filters: [], envs: 2 },
    });
    expect(resolve(sokoban).network).toBeUndefined();
    expect(() => resolve(['--policy', 'mlp'])).toThrow(
      '--policy mlp applies only to --env sokoban, got --env gaussian',
    );
    expect(() => resolve([...sokoban, '--policy', 'mlp', '--filters', '8'])).toThrow(
      '--filters applies only to --policy cnn, got --policy mlp',
    );
    expect(() => resolve([...sokoban, '--envs', '4'])).toThrow(
      '--envs applies only to --policy mlp or cnn, got --policy tabular',
    );
    expect(() => resolve([...sokoban, '--policy', 'cnn', '--hidden', '2.5'])).toThrow(
      '--hidden[0] must be an integer, got 2.5',
    );
    expect(() => resolve([...sokoban, '--policy', 'cnn', '--envs', '0'])).toThrow(UsageError);
  });

  it('defaults to the small reproduction', () => {
    expect(resolve([])).toEqual(REPRODUCE_CONFIG);
  });

  it('reads every kind of flag', () => {
    const c = resolve([
      '--env',
      'contextual',
      '--task-means',
      '1,0;0,1;0.5,0.2',
      '--keep',
      '2',
      '--optimizer',
      'adam',
      '--threshold',
      '0.5',
      '--seeds',
      '0..3',
      '--selection',
      'expected',
      '--max-version-lag',
      '10',
    ]);
    expect(c.environment).toEqual({
      kind: 'contextual',
      taskMeans: [
        [1, 0],
        [0, 1],
        [0.5, 0.2],
      ],
      sd: 0.2,
    });
    expect(c.keep).toBe(2);
    expect(c.optimizer).toBe('adam');
    expect(c.threshold).toBe(0.5);
    expect(c.seeds).toEqual([0, 1, 2, 3]);
    expect(c.selection).toBe('expected');
    expect(c.maxVersionLag).toBe(10);
  });

  it('lets flags override a config file, and the file override defaults', () => {
    const c = resolve(['--keep', '3'], {
      keep: 2,
      batchSize: 8,
      lr: 0.1,
      env: 'bernoulli',
      probs: [0.1, 0.9],
    });
    expect(c.keep).toBe(3);
    expect(c.batchSize).toBe(8);
    expect(c.lr).toBe(0.1);
    expect(c.environment).toEqual({ kind: 'bernoulli', probs: [0.1, 0.9] });
  });

  it('resolves epochs auto by method', () => {
    expect(resolve(['--method', 'ppo']).epochs).toBe(4);
    expect(resolve(['--method', 'reinforce']).epochs).toBe(1);
    expect(resolve(['--epochs', '3']).epochs).toBe(3);
  });

  it('names the flag and what is allowed for a bad value', () => {
    expect(() => resolve(['--lr', '-1'])).toThrow(
      new UsageError('--lr must be a finite number > 0, got "-1"'),
    );
    expect(() => resolve(['--kl', 'sideways'])).toThrow(
      new UsageError('--kl must be one of reverse, forward, got "sideways"'),
    );
    expect(() => resolve([], { beta: -2 })).toThrow(
      new UsageError('beta in cfg.json must be a finite number >= 0, got -2'),
    );
    expect(resolve(['--tie-rule', 'shortest']).tieRule).toBe('shortest');
    expect(() => resolve(['--tie-rule', 'shorter'])).toThrow(
      new UsageError('--tie-rule must be one of random, newest, oldest, shortest, longest, got "shorter"'),
    );
  });

  it('checks K <= C <= N and C <= warmup <= N', () => {
    expect(() => resolve(['--keep', '6'])).toThrow(
      new UsageError('--keep (K) must be <= --batch-size (C = 5), got 6'),
    );
    expect(() => resolve(['--batch-size', '200'])).toThrow(
      /--batch-size \(C\) must be <= --capacity \(N = 128\), got 200/,
    );
    expect(() => resolve(['--batch-size', '8', '--warmup', '5'])).toThrow(
      new UsageError('--warmup must be an integer in [C, N] = [8, 128], got 5'),
    );
    expect(resolve(['--batch-size', '8']).warmup).toBe(8);
  });

  it('refuses options that do not apply', () => {
    expect(() => resolve(['--probs', '0.1,0.2'])).toThrow(
      new UsageError('--probs applies only to --env bernoulli, got --env gaussian'),
    );
    expect(() => resolve(['--method', 'ppo', '--keep', '2'])).toThrow(
      new UsageError('--keep applies only to --method ftw, got --method ppo'),
    );
    expect(() => resolve(['--method', 'grpo'])).toThrow(
      /--rollouts \(default\) must be >= 2 for --method grpo/,
    );
  });

  it('reads --length-tiebreak for sokoban, within the smallest gap between two returns', () => {
    expect(resolve(['--env', 'sokoban']).environment).toMatchObject({ lengthTiebreak: 0 });
    expect(resolve(['--env', 'sokoban', '--length-tiebreak', '1e-6']).environment).toMatchObject({
      lengthTiebreak: 1e-6,
    });
    expect(() => resolve(['--env', 'sokoban', '--length-tiebreak', '-1e-6'])).toThrow(
      new UsageError('--length-tiebreak must be a finite number >= 0, got "-1e-6"'),
    );
    // 30 steps × 0.04 = 1.2: a 30-step success would rank below a 1-step failure.
    expect(() => resolve(['--env', 'sokoban', '--length-tiebreak', '0.04'])).toThrow(
      new UsageError(
        '--length-tiebreak (0.04) times --max-steps (default) (30) must be < 1, the smallest gap between two binary returns, so that it orders equal returns only',
      ),
    );
    expect(resolve(['--env', 'sokoban', '--length-tiebreak', '0.03']).environment).toMatchObject({
      lengthTiebreak: 0.03,
    });
    expect(() =>
      resolve(['--env', 'sokoban', '--reward', 'shaped', '--length-tiebreak', '0.01', '--max-steps', '10']),
    ).toThrow(/\(10\) must be < 0.1, the smallest gap between two shaped returns/);
    expect(() => resolve(['--length-tiebreak', '1e-6'])).toThrow(
      new UsageError('--length-tiebreak applies only to --env sokoban, got --env gaussian'),
    );
  });

  it('reads --level-set and --level-cache for sokoban, leaving the default configuration as it was', () => {
    expect(resolve(['--env', 'sokoban']).environment).not.toHaveProperty('levelSet');
    expect(resolve(['--env', 'sokoban']).environment).not.toHaveProperty('levelCache');
    expect(resolve(['--env', 'sokoban', '--level-set', 'stream']).environment).not.toHaveProperty('levelSet');
    expect(
      resolve(['--env', 'sokoban', '--level-set', 'split', '--levels', '10000', '--held-out', '500'])
        .environment,
    ).toMatchObject({ levelSet: 'split', levels: 10_000, heldOut: 500 });
    expect(
      resolve(['--env', 'sokoban'], { levelSet: 'split', levelCache: '.cache/levels' }).environment,
    ).toMatchObject({ levelSet: 'split', levelCache: '.cache/levels' });
    expect(() => resolve(['--env', 'sokoban', '--level-set', 'fresh'])).toThrow(
      new UsageError('--level-set must be one of stream, split, got "fresh"'),
    );
    expect(() => resolve(['--env', 'sokoban', '--level-cache', 'c'])).toThrow(
      new UsageError('--level-cache applies only to --level-set split, got --level-set (default) stream'),
    );
    expect(() => resolve(['--env', 'sokoban', '--level-set', 'split'], { levelCache: 3 })).toThrow(
      new UsageError('levelCache in cfg.json must be a directory or none, got 3'),
    );
    expect(() => resolve(['--level-set', 'split'])).toThrow(
      new UsageError('--level-set applies only to --env sokoban, got --env gaussian'),
    );
  });

  it('reads --probe and --probe-levels for sokoban, leaving the default configuration as it was', () => {
    expect(resolve(['--env', 'sokoban']).environment).not.toHaveProperty('probes');
    expect(resolve(['--env', 'sokoban', '--probe', 'none']).environment).not.toHaveProperty('probes');
    expect(resolve(['--env', 'sokoban', '--probe', '8']).environment).toMatchObject({ probes: 8 });
    expect(resolve(['--env', 'sokoban', '--probe', '8']).environment).not.toHaveProperty('probeLevels');
    expect(resolve(['--env', 'sokoban', '--probe', '4', '--probe-levels', '16']).environment).toMatchObject({
      probes: 4,
      probeLevels: 16,
    });
    expect(() => resolve(['--env', 'sokoban', '--probe', '0'])).toThrow(
      new UsageError('--probe must be "none" or a finite number >= 1, got "0"'),
    );
    expect(() => resolve(['--env', 'sokoban', '--probe', '2.5'])).toThrow(
      new UsageError('--probe must be "none" or an integer >= 1, got 2.5'),
    );
    expect(() => resolve(['--env', 'sokoban', '--probe-levels', '16'])).toThrow(
      new UsageError('--probe-levels applies only with --probe <n>, got --probe (default) none'),
    );
    expect(() => resolve(['--probe', '8'])).toThrow(
      new UsageError('--probe applies only to --env sokoban, got --env gaussian'),
    );
  });

  it('checks environment shapes', () => {
    expect(() => resolve(['--means', '1'])).toThrow(/--means must list at least 2 arms, got 1/);
    expect(() => resolve(['--sd', '0.1,0.2,0.3'])).toThrow(
      /--sd must have 1 or 2 values \(one per arm\), got 3/,
    );
    expect(() => resolve(['--env', 'bernoulli', '--probs', '0.5,1.2'])).toThrow(
      /--probs\[1\] must be a finite number >= 0 and <= 1/,
    );
  });

  it('rejects unknown keys in a config file', () => {
    expect(() => resolve([], { kepe: 2 })).toThrow(
      /cfg.json has unknown key "kepe"; allowed keys: method, env/,
    );
  });
});

describe('readConfigFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ftw-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a JSON object', () => {
    const file = join(dir, 'ok.json');
    writeFileSync(file, '{"keep": 2}');
    expect(readConfigFile(file)).toEqual({ values: { keep: 2 }, name: file });
  });

  it('rejects missing files, bad JSON and non-objects', () => {
    expect(() => readConfigFile(join(dir, 'missing.json'))).toThrow(
      /--config must name a readable JSON file.*ENOENT/,
    );
    writeFileSync(join(dir, 'bad.json'), '{keep: 2}');
    expect(() => readConfigFile(join(dir, 'bad.json'))).toThrow(/is not valid JSON/);
    writeFileSync(join(dir, 'array.json'), '[1]');
    expect(() => readConfigFile(join(dir, 'array.json'))).toThrow(/must hold a JSON object of options/);
  });
});
