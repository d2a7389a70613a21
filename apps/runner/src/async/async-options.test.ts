import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addOptions, collectOptions } from '../config/option-spec.js';
import { ASYNC_OPTIONS, resolveAsyncOptions } from './async-options.js';

const read = (args: string[], method = 'ftw', kind = 'contextual') => {
  const command = addOptions(new Command('train').exitOverride(), ASYNC_OPTIONS);
  command.parse(args, { from: 'user' });
  return resolveAsyncOptions(collectOptions(ASYNC_OPTIONS, command), { method, environment: { kind } });
};

describe('resolveAsyncOptions', () => {
  it('is null without any asynchronous flag, so ftw train runs its synchronous loop', () => {
    expect(read([])).toBeNull();
  });

  it('chooses the simulation with --lag, a private redis-server with --actors alone, or the URL given', () => {
    expect(read(['--lag', '4', '--hot-load', 'step'])).toEqual({
      actors: 1,
      redis: null,
      lag: 4,
      hotLoad: 'step',
      is: { kind: 'none' },
      horizon: 1,
    });
    expect(read(['--actors', '4'])).toMatchObject({ redis: 'private', wait: 600 });
    expect(read(['--actors', '0', '--redis', 'redis://10.0.0.1:6379', '--wait', '30'])?.wait).toBe(30);
    expect(read(['--actors', '4', '--lag', '0'])?.redis).toBeNull();
    expect(read(['--actors', '2', '--redis', 'redis://10.0.0.1:6379/2'])?.redis).toBe(
      'redis://10.0.0.1:6379/2',
    );
    expect(read(['--actors', '2', '--redis', 'none'])?.redis).toBeNull();
    // No actor on the learner's machine: actors join from elsewhere, through a Redis they can reach.
    expect(read(['--actors', '0', '--redis', 'redis://10.0.0.1:6379'])).toMatchObject({ actors: 0 });
    expect(() => read(['--actors', '0'])).toThrow(
      '--actors 0 (actor processes that join from other machines with ftw actor) needs --redis with a URL they can reach, got --redis private',
    );
    expect(() => read(['--actors', '0', '--lag', '1'])).toThrow(/--actors 0 .* got the simulation/);
    expect(read(['--is', 'truncate:2.5'])?.is).toEqual({ kind: 'truncate', cap: 2.5 });
    // The baselines take the weights too (BaselineUpdater's truncation).
    for (const method of ['reinforce', 'grpo', 'ppo'])
      expect(read(['--lag', '2', '--is', 'truncate:1'], method)?.is).toEqual({ kind: 'truncate', cap: 1 });
  });

  it('names the bad flag and value', () => {
    expect(() => read(['--actors', '0'])).toThrow(/--actors/);
    expect(() => read(['--redis', 'localhost:6379'])).toThrow(
      /--redis must be a redis:\/\/, rediss:\/\/ or redis\+cluster:\/\/ URL, private or none, got "localhost:6379"/,
    );
    expect(() => read(['--redis', 'private', '--lag', '2'])).toThrow(/--lag applies only to the simulation/);
    expect(() => read(['--hot-load', 'always'])).toThrow(/--hot-load/);
    expect(() => read(['--actors', '2', '--wait', '0'])).toThrow(/--wait must be an integer .*got "0"/);
    expect(() => read(['--lag', '1', '--wait', '30'])).toThrow(
      '--wait applies only to actor processes over Redis (--redis or --actors without --lag), got --wait 30 with the simulation',
    );
    expect(() => read(['--is', 'clip:2'])).toThrow(
      /--is must be none or truncate:c with a cap c > 0, got "clip:2"/,
    );
    expect(() => read(['--is', 'truncate:0'])).toThrow(/--is/);
    expect(() => read(['--is', 'truncate:'], 'ppo')).toThrow(
      /--is must be none or truncate:c with a cap c > 0, got "truncate:"/,
    );
    expect(() => read(['--is', 'truncate:-2'], 'reinforce')).toThrow(
      /--is must be a finite number > 0, got "-2"/,
    );
    expect(() => read(['--is', 'truncate:Infinity'], 'grpo')).toThrow(/--is must be a finite number > 0/);
    expect(() => read(['--horizon', '0'])).toThrow(/--horizon/);
    // Sokoban: simulated actors, and actor processes over Redis (which send positions by name).
    expect(read(['--actors', '4', '--lag', '1'], 'ftw', 'sokoban')).toMatchObject({ actors: 4, redis: null });
    expect(read(['--lag', '3', '--hot-load', 'step'], 'ftw', 'sokoban')?.lag).toBe(3);
    expect(read(['--actors', '2'], 'ftw', 'sokoban')).toMatchObject({ actors: 2, redis: 'private' });
    expect(read(['--redis', 'redis://127.0.0.1:6379'], 'ftw', 'sokoban')?.redis).toBe(
      'redis://127.0.0.1:6379',
    );
    expect(() => read(['--lag', '0', '--horizon', '2'], 'ftw', 'sokoban')).toThrow(
      /--horizon applies to bandits only, got --horizon 2 with --env sokoban/,
    );
  });

  it('keeps a learner checkpoint only over a server that outlives the learner', () => {
    const url = ['--actors', '2', '--redis', 'redis://10.0.0.1:6379'];
    expect(read([...url, '--checkpoint', 'ckpt'])?.checkpoint).toEqual({ dir: 'ckpt', every: 10 });
    expect(read([...url, '--checkpoint', 'ckpt', '--checkpoint-every', '3'])?.checkpoint).toEqual({
      dir: 'ckpt',
      every: 3,
    });
    expect(read([...url, '--checkpoint', 'ckpt'], 'ppo')?.checkpoint?.dir).toBe('ckpt');
    expect(read(url)?.checkpoint).toBeUndefined();
    expect(() => read(['--actors', '2', '--checkpoint', 'ckpt'])).toThrow(
      '--checkpoint needs --redis with the URL of a server that outlives the learner (a private server ends with it, and the pool with it), got --redis private',
    );
    expect(() => read(['--lag', '1', '--checkpoint', 'ckpt'])).toThrow(
      /--checkpoint needs --redis .* got the simulation/,
    );
    expect(() => read([...url, '--checkpoint-every', '5'])).toThrow(
      '--checkpoint-every applies only with --checkpoint <dir>',
    );
    expect(() => read([...url, '--checkpoint', 'ckpt', '--checkpoint-every', '0'])).toThrow(
      /--checkpoint-every/,
    );
    expect(read([...url, '--checkpoint', 'ckpt'], 'reinforce')?.checkpoint?.dir).toBe('ckpt');
  });
});
