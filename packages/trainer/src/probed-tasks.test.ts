import { seededStreams } from '@ftw/internal/seeded-streams';
import { describe, expect, it } from 'vitest';
import { CoinTasks } from '../test/coin-tasks.js';
import { ProbedTasks } from './probed-tasks.js';
import { TabularPolicy } from './tabular-policy.js';
import { train } from './train.js';

/** Tasks 0, 1 always fail, 2, 3 are coins (π(1) = 1/2), 4, 5 always succeed. */
function mixedPolicy(): TabularPolicy {
  const policy = new TabularPolicy(2, 6);
  policy.parameters.set([0, -1000, 0, -1000, 0, 0, 0, 0, 0, 1000, 0, 1000]);
  return policy;
}

describe('ProbedTasks', () => {
  it('starts episodes on the kept candidates in turn, and reports the kept share', () => {
    const env = new CoinTasks(6);
    const probed = new ProbedTasks(
      env,
      mixedPolicy(),
      { probes: 8, candidates: 12 },
      seededStreams(5).policy,
    );
    const round = probed.probe();
    expect(round.steps).toBe(12 * 8);
    const candidates = env.started.filter((_, i) => i % 8 === 0);
    const kept = candidates.filter((t) => t === 2 || t === 3);
    // A coin is dropped only when its 8 probes agree: probability 2^-7 per coin.
    expect(round.keptShare).toBe(kept.length / 12);
    expect(kept.length).toBeGreaterThan(0);
    env.started.length = 0;
    for (let e = 0; e < 2 * kept.length; e++) probed.reset();
    expect(env.started).toEqual([...kept, ...kept]);
  });

  it('falls back to the round’s candidates when none is kept', () => {
    const env = new CoinTasks(6);
    const policy = mixedPolicy();
    policy.parameters.set([0, -1000, 0, -1000], 4); // tasks 2, 3 now always fail too
    const probed = new ProbedTasks(env, policy, { probes: 4, candidates: 3 }, seededStreams(1).policy);
    expect(probed.probe().keptShare).toBe(0);
    const candidates = env.started.filter((_, i) => i % 4 === 0);
    env.started.length = 0;
    for (let e = 0; e < 6; e++) probed.reset();
    expect(env.started).toEqual([...candidates, ...candidates]);
  });

  it('refuses bad settings naming them and their value', () => {
    const env = new CoinTasks(2);
    const random = seededStreams(0).policy;
    expect(() => new ProbedTasks(env, mixedPolicy(), { probes: 0, candidates: 4 }, random)).toThrow(
      new RangeError('probes must be an integer >= 1, got 0'),
    );
    expect(() => new ProbedTasks(env, mixedPolicy(), { probes: 8, candidates: 1.5 }, random)).toThrow(
      new RangeError('candidates must be an integer >= 1, got 1.5'),
    );
  });
});

describe('train with probes', () => {
  it('counts probe steps in samples and maxSamples, collects on kept tasks and records the kept share', () => {
    const env = new CoinTasks(6, [1, 1, 2, 2, 1, 1]);
    const policy = mixedPolicy();
    const result = train({
      env,
      policy,
      method: 'reinforce',
      iterations: 50,
      rollouts: 3,
      lr: 1e-9,
      random: seededStreams(2).policy,
      probe: { probes: 8, candidates: 5 },
      maxSamples: 400,
    });
    const first = result.metrics[0]!;
    // Round 1: five candidates × 8 probes, each lasting its task's length; then 3 episodes.
    const round = env.started.slice(0, 40);
    const probeSteps = round.reduce((s, t) => s + (t === 2 || t === 3 ? 2 : 1), 0);
    const episodes = env.started.slice(40, 43);
    const kept: number[] = round.filter((_, i) => i % 8 === 0).filter((t) => t === 2 || t === 3);
    expect(kept.length).toBeGreaterThan(0);
    expect(episodes.every((t) => kept.includes(t))).toBe(true);
    expect(first.samples).toBe(probeSteps + episodes.length * 2);
    expect(first.evaluation).toEqual({ probeKeptShare: kept.length / 5 });
    // The budget stops the run once probes and episodes pass 400 steps.
    expect(result.samples).toBeGreaterThanOrEqual(400);
    expect(result.metrics.at(-2)!.samples).toBeLessThan(400);
  });

  it('refuses the probe option on an environment without tasks, before anything runs', () => {
    const coin = new CoinTasks(1);
    const env = { numActions: 2, reset: () => 0, step: coin.step.bind(coin) };
    expect(() =>
      train({
        env,
        policy: new TabularPolicy(2),
        iterations: 1,
        random: Math.random,
        probe: { probes: 8, candidates: 1 },
      }),
    ).toThrow(/env must be a TaskEnvironment/);
  });
});
