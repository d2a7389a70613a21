import { SokobanEpisodeEnv } from '@ftw/sokoban/trainer';
import type { Episode, Updater } from '@ftw/trainer';
import { FtwUpdater } from '@ftw/trainer';
import { describe, expect, it, vi } from 'vitest';
import { REPRODUCE_CONFIG } from '../config/reproduce-config.js';
import type { TrainConfig } from '../config/train-config.js';
import { SMALL_LEVELS } from '../sokoban/testing/small-levels.js';
import { BanditEpisodeEnv } from '../train/bandit-episode-env.js';
import { trainSeed } from '../train/train-seed.js';
import type { AsyncOptions } from './async-options.js';
import { RepeatedEpisodeEnv } from './repeated-episode-env.js';
import { type AsyncLearner, asyncIterationMetrics, trainAsyncSeed } from './train-async-seed.js';

const SYNC: AsyncOptions = {
  actors: 1,
  redis: null,
  lag: 0,
  hotLoad: 'episode',
  is: { kind: 'none' },
  horizon: 1,
};
const CONTEXTUAL: TrainConfig = {
  ...REPRODUCE_CONFIG,
  environment: {
    kind: 'contextual',
    taskMeans: [
      [1, 0.3, 0.5],
      [0.2, 1, 0.4],
    ],
    sd: 0.3,
  },
  rollouts: 4,
  iterations: 60,
  capacity: 64,
};

describe('trainAsyncSeed', () => {
  it('with one actor, no lag and one-step episodes, is exactly the synchronous loop', () => {
    for (const config of [
      REPRODUCE_CONFIG,
      CONTEXTUAL,
      { ...CONTEXTUAL, method: 'reinforce' as const, warmup: 5 },
    ]) {
      const sync = trainSeed(config, 3);
      const run = trainAsyncSeed(config, SYNC, 3);
      expect(
        run.metrics.map((m) => [m.samples, m.optimalProbability, m.regret, m.reward, m.updated]),
      ).toEqual(sync.metrics.map((m) => [m.samples, m.optimalProbability, m.regret, m.reward, m.updated]));
      expect(run.finalOptimalProbability).toBe(sync.finalOptimalProbability);
    }
  });

  it('is reproducible from the seed, bit for bit', () => {
    const options: AsyncOptions = {
      ...SYNC,
      actors: 3,
      lag: 4,
      hotLoad: 'step',
      horizon: 4,
      is: { kind: 'truncate', cap: 2 },
    };
    const a = trainAsyncSeed(CONTEXTUAL, options, 7);
    const b = trainAsyncSeed(CONTEXTUAL, options, 7);
    const c = trainAsyncSeed(CONTEXTUAL, options, 8);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(a)).not.toBe(JSON.stringify(c));
  });

  it("changes versions inside an episode only with hot-loading per 'step'", () => {
    // 3 episodes per iteration from 4 actors: one actor's episode is always left half-done.
    const options: AsyncOptions = { ...SYNC, actors: 4, horizon: 4 };
    const config = { ...CONTEXTUAL, rollouts: 3 };
    const episode = trainAsyncSeed(config, options, 1);
    const step = trainAsyncSeed(config, { ...options, hotLoad: 'step' }, 1);
    expect(episode.metrics.every((m) => m.versionSpread === 0 && m.multiVersionShare === 0)).toBe(true);
    expect(step.metrics.some((m) => m.multiVersionShare > 0)).toBe(true);
    expect(Math.max(...step.metrics.map((m) => m.versionSpread))).toBeGreaterThan(0);
  });

  it('acts with the policy L versions old: on-policy selections weigh 1, lagged ones do not', () => {
    // The pool holds exactly this iteration's 5 trajectories, so at lag 0 each was drawn by the policy
    // being updated: log w = 0 and the effective sample size is the whole selection.
    const config: TrainConfig = {
      ...CONTEXTUAL,
      capacity: 5,
      batchSize: 5,
      warmup: 5,
      rollouts: 5,
      iterations: 20,
    };
    const onPolicy = trainAsyncSeed(config, SYNC, 2);
    for (const m of onPolicy.metrics.filter((x) => x.updated)) {
      expect(m.logWeightMin).toBe(0);
      expect(m.logWeightMax).toBe(0);
      expect(m.essShare).toBe(1);
      expect(m.poolStaleness).toBe(0);
    }
    const lagged = trainAsyncSeed(config, { ...SYNC, lag: 3 }, 2);
    const later = lagged.metrics.filter((x) => x.version > 4);
    // Every trajectory was drawn by version v − 3 (learner at v): the pool is 3 versions old.
    for (const m of later) expect(m.poolStaleness).toBe(3);
    expect(later.some((m) => m.logWeightMax !== 0)).toBe(true);
  });

  it('weights the baselines with --is: on-policy the weights are 1 (same run), with lag they change it', () => {
    const truncated: AsyncOptions = { ...SYNC, is: { kind: 'truncate', cap: 1 } };
    for (const method of ['reinforce', 'grpo'] as const) {
      const config = { ...CONTEXTUAL, method, iterations: 30 };
      // One actor, lag 0: behaviour and current log-probabilities are the same numbers, log w = 0.
      expect(JSON.stringify(trainAsyncSeed(config, truncated, 4))).toBe(
        JSON.stringify(trainAsyncSeed(config, SYNC, 4)),
      );
      const lagged = (o: AsyncOptions) => trainAsyncSeed(config, { ...o, lag: 3 }, 4).metrics;
      expect(JSON.stringify(lagged(truncated))).not.toBe(JSON.stringify(lagged(SYNC)));
    }
  });

  /**
   * Runs a seed and observes it: θ of every version (the environment is asked for its score with the policy
   * at the start and after each iteration's update) and the episodes each update received.
   */
  function observe(
    config: TrainConfig,
    options: AsyncOptions,
    env: typeof RepeatedEpisodeEnv | typeof BanditEpisodeEnv,
  ) {
    const thetas: Float64Array[] = [];
    const seen: { version: number; episodes: Episode[] }[] = [];
    const evaluateOf = env.prototype.evaluate;
    const evaluate = vi.spyOn(env.prototype, 'evaluate').mockImplementation(function (
      this: InstanceType<typeof env>,
      policy,
      moved,
    ) {
      thetas.push(Float64Array.from(policy.parameters));
      return evaluateOf.call(this, policy, moved);
    });
    const updateOf = FtwUpdater.prototype.update;
    const update = vi.spyOn(FtwUpdater.prototype, 'update').mockImplementation(function (
      this: FtwUpdater,
      episodes,
      version,
    ) {
      seen.push({ version, episodes: [...episodes] });
      return updateOf.call(this, episodes, version);
    });
    let run: ReturnType<typeof trainAsyncSeed>;
    try {
      run = trainAsyncSeed(config, options, 3);
    } finally {
      evaluate.mockRestore();
      update.mockRestore();
    }
    const byVersion = new Map<number, Float64Array>([[0, thetas[0]!]]);
    for (const [i, m] of run.metrics.entries()) byVersion.set(m.version, thetas[i + 1]!);
    expect(thetas).toHaveLength(run.metrics.length + 1);
    return { run, byVersion, seen };
  }

  /** π_θ(· | o) of the contextual bandit's tabular policy (3 actions), from the definition. */
  const softmaxRow = (theta: Float64Array, o: number) => {
    const e = [0, 1, 2].map((k) => Math.exp(theta[o * 3 + k]!));
    const z = e.reduce((sum, x) => sum + x, 0);
    return e.map((x) => x / z);
  };

  it('records for each step the version that took it and log π of that version, L versions behind', () => {
    // 3 actors, lag 2, 4 decisions per episode, hot-loading per step.
    const options: AsyncOptions = { ...SYNC, actors: 3, lag: 2, hotLoad: 'step', horizon: 4 };
    const config: TrainConfig = { ...CONTEXTUAL, rollouts: 2, iterations: 25, capacity: 16, warmup: 4 };
    const { run, byVersion, seen } = observe(config, options, RepeatedEpisodeEnv);
    expect(run.updates).toBeGreaterThan(5);
    let steps = 0;
    let behind = 0;
    for (const { version, episodes } of seen) {
      for (const e of episodes) {
        for (let t = 0; t < e.length; t++) {
          const v = e.versions[t]!;
          // Never newer than what the lag lets actors see of the version being updated.
          expect(v).toBeLessThanOrEqual(Math.max(0, version - 2));
          if (v < version) behind++;
          const p = softmaxRow(byVersion.get(v)!, e.observations[t]!)[e.actions[t]!]!;
          expect(e.logProbs[t]).toBeCloseTo(Math.log(p), 12);
          steps++;
        }
      }
    }
    // Every step taken, but those of the episodes still in flight at the end (under one per actor).
    expect(run.environmentSteps - steps).toBeGreaterThanOrEqual(0);
    expect(run.environmentSteps - steps).toBeLessThan(3 * 4);
    expect(behind).toBeGreaterThan(steps / 2);
  });

  it('sums the regret of the lagged policies that acted, Σ_a π_{v_t}(a | o_t)(μ*(o_t) − μ(o_t, a)), per step', () => {
    // One decision per episode: every step taken in an iteration is one of its completed episodes.
    const options: AsyncOptions = { ...SYNC, actors: 3, lag: 3 };
    const config: TrainConfig = { ...CONTEXTUAL, rollouts: 2, iterations: 25, capacity: 16, warmup: 4 };
    const { run, byVersion, seen } = observe(config, options, BanditEpisodeEnv);
    const environment = CONTEXTUAL.environment;
    if (environment.kind !== 'contextual') throw new Error('a contextual bandit expected');
    const means = environment.taskMeans;
    let regret = 0;
    let lagged = 0;
    for (const [i, { version, episodes }] of seen.entries()) {
      for (const e of episodes) {
        const o = e.observations[0]!;
        const best = Math.max(...means[o]!);
        const p = softmaxRow(byVersion.get(e.versions[0]!)!, o);
        regret += p.reduce((sum, pa, a) => sum + pa * (best - means[o]![a]!), 0);
        if (e.versions[0]! < version) lagged++;
      }
      expect(run.metrics[i]!.regret).toBeCloseTo(regret, 12);
    }
    expect(seen).toHaveLength(25);
    expect(lagged).toBeGreaterThan(20);
  });

  it('records the same Sokoban run whether or not the environment is told which rows each update moved', () => {
    // A tabular policy under SGD: each update lists the rows it moved, and the learner's environment then
    // checks again only the greedy plays of their levels. Told nothing (every play checked), the run must
    // be the same.
    const config: TrainConfig = {
      ...REPRODUCE_CONFIG,
      environment: SMALL_LEVELS,
      rollouts: 2,
      iterations: 120,
      lr: 0.5,
    };
    const options: AsyncOptions = { ...SYNC, actors: 3, lag: 1 };
    const told = trainAsyncSeed(config, options, 6);
    const evaluate = SokobanEpisodeEnv.prototype.evaluate;
    const untoldSpy = vi.spyOn(SokobanEpisodeEnv.prototype, 'evaluate').mockImplementation(function (
      this: SokobanEpisodeEnv,
      policy,
    ) {
      return evaluate.call(this, policy);
    });
    try {
      expect(trainAsyncSeed(config, options, 6)).toEqual(told);
      expect(untoldSpy).toHaveBeenCalled();
    } finally {
      untoldSpy.mockRestore();
    }
    expect(new Set(told.metrics.map((m) => m.optimalProbability)).size).toBeGreaterThan(1);
  });

  it('runs Sokoban with several simulated actors on one id registry, reproducibly', () => {
    const config: TrainConfig = {
      ...REPRODUCE_CONFIG,
      environment: {
        kind: 'sokoban',
        size: 5,
        boxes: 1,
        levels: 4,
        heldOut: 2,
        levelSeed: 3,
        maxMoves: 6,
        maxSteps: 20,
        reward: 'binary',
        lengthTiebreak: 0,
      },
      policy: 'linear',
      optimizer: 'adam',
      lr: 0.05,
      rollouts: 3,
      iterations: 40,
    };
    const options: AsyncOptions = { ...SYNC, actors: 4, lag: 2, hotLoad: 'step' };
    const a = trainAsyncSeed(config, options, 5);
    expect(JSON.stringify(trainAsyncSeed(config, options, 5))).toBe(JSON.stringify(a));
    expect(a.metrics.some((m) => m.multiVersionShare > 0)).toBe(true);
    for (const m of a.metrics) {
      expect(Number.isFinite(m.optimalProbability)).toBe(true);
      if (m.logWeightMean !== null) expect(Number.isFinite(m.logWeightMean)).toBe(true);
    }
  });
});

describe('asyncIterationMetrics', () => {
  // Three episodes, version spreads 2, 0 and 1 (two of them span versions), returns summing to 6.
  const episode = (versions: number[], ret: number): Episode => ({
    length: versions.length,
    observations: new Int32Array(versions.length),
    actions: new Int32Array(versions.length),
    logProbs: new Float64Array(versions.length),
    versions: Uint32Array.from(versions),
    return: ret,
  });
  const episodes = [episode([3, 4, 5], 1), episode([5], 2), episode([4, 5], 3)];
  const updater = {} as Updater;
  const weights = {
    logWeightMean: -0.25,
    logWeightMin: -1,
    logWeightMax: 0.5,
    essShare: 0.8,
    selectionStaleness: 1.25,
  };
  const stats = {
    eliteMean: 1,
    eliteSpread: 0,
    selected: 4,
    poolSize: 10,
    poolStaleness: 1.5,
    selectionStaleness: 0.75,
    loss: 0.1,
    moved: null,
  };
  const base = {
    seed: 7,
    iteration: 2,
    samples: 6,
    episodes,
    returnSum: 6,
    optimalProbability: 0.6,
    regret: 0.4,
    version: 5,
  };

  it('divides the counts by the episodes, and copies the update statistics and importance weights', () => {
    const ftw: AsyncLearner = { updater, weights: () => weights };
    expect(asyncIterationMetrics({ ...base, stats, learner: ftw })).toEqual({
      seed: 7,
      iteration: 2,
      samples: 6,
      reward: 2,
      optimalProbability: 0.6,
      regret: 0.4,
      updated: true,
      version: 5,
      versionSpread: 1, // (2 + 0 + 1) / 3
      multiVersionShare: 2 / 3,
      poolStaleness: 1.5,
      // The selection's own (counts m), not the updater's (counts as handed to it).
      selectionStaleness: 1.25,
      logWeightMean: -0.25,
      logWeightMin: -1,
      logWeightMax: 0.5,
      essShare: 0.8,
    });
  });

  it('leaves the update and selection fields null without an update or for a baseline', () => {
    const ftw: AsyncLearner = { updater, weights: () => weights };
    const baseline: AsyncLearner = { updater, weights: null };
    for (const row of [
      asyncIterationMetrics({ ...base, stats: null, learner: ftw }),
      asyncIterationMetrics({
        ...base,
        stats: { ...stats, poolStaleness: null, selectionStaleness: null },
        learner: baseline,
      }),
    ]) {
      expect([
        row.poolStaleness,
        row.selectionStaleness,
        row.logWeightMean,
        row.logWeightMin,
        row.logWeightMax,
        row.essShare,
      ]).toEqual([null, null, null, null, null, null]);
    }
    expect(asyncIterationMetrics({ ...base, stats: null, learner: ftw }).updated).toBe(false);
  });
});
