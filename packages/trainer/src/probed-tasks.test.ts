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

  it('with several instances, probes on the first and starts every instance on the next task of one cycle', () => {
    const envs = [new CoinTasks(6), new CoinTasks(6), new CoinTasks(6)];
    const probed = new ProbedTasks(
      envs,
      mixedPolicy(),
      { probes: 8, candidates: 12 },
      seededStreams(5).policy,
    );
    expect(probed.instances.length).toBe(3);
    expect(probed.instances[0]).toBe(probed);
    probed.probe();
    expect(envs[0]!.started.length).toBe(12 * 8);
    expect(envs[1]!.started.length + envs[2]!.started.length).toBe(0);
    const kept = envs[0]!.started.filter((_, i) => i % 8 === 0).filter((t) => t === 2 || t === 3);
    expect(kept.length).toBeGreaterThan(1); // each of 12 coins dropped with probability 2^-7
    envs[0]!.started.length = 0;
    // Lanes reset in turn, 0, 1, 2, 0, 1, 2, …: the cycle goes on from instance to instance.
    const started: number[] = [];
    for (let e = 0; e < 3 * kept.length; e++) {
      const lane = e % 3;
      probed.instances[lane]!.reset();
      started.push(envs[lane]!.started.at(-1)!);
      expect(probed.instances[lane]!.step(1).terminated).toBe(true);
    }
    expect(started).toEqual([...kept, ...kept, ...kept]);
  });

  it('refuses instances that differ, an empty list, and an instance without tasks, naming it', () => {
    const random = seededStreams(0).policy;
    const options = { probes: 8, candidates: 4 };
    expect(() => new ProbedTasks([], mixedPolicy(), options, random)).toThrow(
      new RangeError('env must hold at least one task environment, got []'),
    );
    expect(
      () => new ProbedTasks([new CoinTasks(6), new CoinTasks(5)], mixedPolicy(), options, random),
    ).toThrow('env[1].taskCount is 5, env[0].taskCount is 6');
    const plain = { numActions: 2, reset: () => 0, step: new CoinTasks(1).step };
    expect(
      () =>
        new ProbedTasks([new CoinTasks(6), plain as unknown as CoinTasks], mixedPolicy(), options, random),
    ).toThrow(/^env\[1\] must be a TaskEnvironment/);
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

  it("collects every instance's episodes on the kept tasks, with probe steps counted once", () => {
    const envs = [new CoinTasks(6, [1, 1, 2, 2, 1, 1]), new CoinTasks(6, [1, 1, 2, 2, 1, 1])];
    const result = train({
      env: envs,
      policy: mixedPolicy(),
      method: 'reinforce',
      iterations: 1,
      rollouts: 6,
      lr: 1e-9,
      random: [seededStreams(2).policy, seededStreams(3).policy],
      probe: { probes: 8, candidates: 5 },
    });
    const round = envs[0]!.started.slice(0, 40);
    const kept: number[] = round.filter((_, i) => i % 8 === 0).filter((t) => t === 2 || t === 3);
    expect(kept.length).toBeGreaterThan(0);
    const episodes = [...envs[0]!.started.slice(40), ...envs[1]!.started];
    expect(envs[1]!.started.length).toBeGreaterThan(0);
    expect(episodes.length).toBe(6);
    expect(episodes.every((t) => kept.includes(t))).toBe(true);
    const probeSteps = round.reduce((s, t) => s + (t === 2 || t === 3 ? 2 : 1), 0);
    expect(result.samples).toBe(probeSteps + 6 * 2);
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
