import { fc, test } from '@fast-check/vitest';
import { keepProbability } from '@ftw/bandit';
import { seededStreams } from '@ftw/internal/seeded-streams';
import { describe, expect, it } from 'vitest';
import { CoinTasks } from '../test/coin-tasks.js';
import { probeTasks } from './probe-tasks.js';
import { TabularPolicy } from './tabular-policy.js';

/** A tabular policy over `tasks` rows whose row i plays action 1 with probability sigmoid(z[i]). */
function coinPolicy(z: readonly number[]): TabularPolicy {
  const policy = new TabularPolicy(2, z.length);
  z.forEach((zi, i) => {
    policy.parameters[2 * i + 1] = zi;
  });
  return policy;
}

describe('probeTasks', () => {
  it('keeps exactly the tasks with 0 < successes < probes, and counts every probe step', () => {
    // Task 0 always fails (π(1) = e^-1000 = 0), task 1 always succeeds, task 2 is a coin.
    const env = new CoinTasks(3, [2, 3, 1]);
    const policy = coinPolicy([-1000, 1000, 0]);
    const result = probeTasks(env, policy, [0, 1, 2, 2, 1], 8, seededStreams(3).policy);
    expect(Array.from(result.successes.subarray(0, 2))).toEqual([0, 8]);
    expect(result.successes[4]).toBe(8);
    const expected = [0, 1, 2, 2, 1].filter((_, i) => result.successes[i]! > 0 && result.successes[i]! < 8);
    expect(result.kept).toEqual(expected);
    // Each task's episodes last lengths[task] steps whatever the actions.
    expect(result.steps).toBe(8 * (2 + 3 + 1 + 1 + 3));
    expect(env.started).toEqual([0, 1, 2, 2, 1].flatMap((t) => Array(8).fill(t)));
  });

  it('keeps nothing with one probe per task', () => {
    const result = probeTasks(new CoinTasks(1), coinPolicy([0]), [0, 0, 0, 0], 1, seededStreams(0).policy);
    expect(result.kept).toEqual([]);
    expect(result.steps).toBe(4);
  });

  // A task the policy solves with probability p, probed M times: the kept count is Binomial(M, q) with
  // q = 1 − p^8 − (1 − p)^8, sd ≤ √(M/4). The check allows 5 sd: a false alarm has probability below
  // 5.8e-7 per run, 1.2e-5 over the 20 seeded runs.
  test.prop([fc.double({ min: -3, max: 3, noNaN: true }), fc.integer({ min: 0, max: 2 ** 31 - 1 })], {
    numRuns: 20,
    seed: 40,
  })('keeps a task with probability 1 − p^8 − (1 − p)^8 (Binomial model)', (z, seed) => {
    const M = 3000;
    const p = 1 / (1 + Math.exp(-z));
    const result = probeTasks(
      new CoinTasks(1),
      coinPolicy([z]),
      new Int32Array(M),
      8,
      seededStreams(seed).policy,
    );
    const q = keepProbability(p, 8);
    expect(Math.abs(result.kept.length - M * q)).toBeLessThan(5 * Math.sqrt(M * q * (1 - q)) + 1);
    // The success counts are Binomial(8, p): their mean is 8p (same 5-sd allowance).
    const mean = result.successes.reduce((s, k) => s + k, 0) / M;
    expect(Math.abs(mean - 8 * p)).toBeLessThan(5 * Math.sqrt((8 * p * (1 - p)) / M) + 1e-9);
  });

  it('refuses bad input naming the parameter and the value, before any episode', () => {
    const env = new CoinTasks(2);
    const policy = coinPolicy([0, 0]);
    const random = seededStreams(0).policy;
    expect(() => probeTasks(env, policy, [0], 0, random)).toThrow(
      new RangeError('probes must be an integer >= 1, got 0'),
    );
    expect(() => probeTasks(env, policy, [0], 2.5, random)).toThrow(
      'probes must be an integer >= 1, got 2.5',
    );
    expect(() => probeTasks(env, policy, [0], Number.NaN, random)).toThrow('got NaN');
    expect(() => probeTasks(env, policy, [0, 2], 8, random)).toThrow(
      new RangeError('tasks[1] must be an integer in 0..1, got 2'),
    );
    expect(() => probeTasks(env, policy, [0, 0.5], 8, random)).toThrow('tasks[1] must be an integer');
    const noTasks = { numActions: 2, reset: () => 0, step: env.step.bind(env) };
    expect(() => probeTasks(noTasks as never, policy, [0], 8, random)).toThrow(
      /env must be a TaskEnvironment .* got taskCount undefined and resetTask undefined/,
    );
    expect(() => probeTasks(env, new TabularPolicy(3), [0], 8, random)).toThrow('ACTION_COUNT_MISMATCH');
    expect(env.started).toEqual([]);
  });
});
