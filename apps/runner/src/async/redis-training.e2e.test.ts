import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { ActorsLostError } from '@ftw/actors';
import { RedisPool, type RedisServer, startRedisServer } from '@ftw/redis-pool';
import type { JsonValue } from '@ftw/replay-pool';
import type { EncodedSokobanEnv } from '@ftw/sokoban';
import { SokobanEpisodeEnv } from '@ftw/sokoban/trainer';
import type { Policy } from '@ftw/trainer';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asyncRunResult, runAsyncTraining } from '../commands/async-training-run.js';
import { ASYNC_REDIS_BASE } from '../commands/compare-async.js';
import type { TrainConfig } from '../config/train-config.js';
import { SOKOBAN_SCENARIO } from '../sokoban/sokoban-scenario.js';
import { restorePolicy, type SavedPolicy } from '../train/saved-policy.js';
import type { ActorLauncher } from './actor-protocol.js';
import { POOL_NOTES } from './actor-protocol.js';
import type { AsyncOptions } from './async-options.js';
import { learnerTrajectory, redisEnvironment, redisPolicy } from './redis-policy.js';
import { type RedisSeedResult, trainRedisSeed } from './redis-training.js';
import { sourceLauncher, startRemoteActor } from './testing/source-launcher.js';

let server: RedisServer | undefined;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server?.stop();
});

/** Two actor processes on the test's server, loading the policy before every step. */
const twoActors = (horizon: number): AsyncOptions => ({
  actors: 2,
  redis: server!.url,
  lag: 0,
  hotLoad: 'step',
  is: { kind: 'none' },
  horizon,
});

describe('trainRedisSeed', () => {
  it('trains with actor processes over Redis, whole multi-step episodes, versions per step', async () => {
    const config = { ...ASYNC_REDIS_BASE, iterations: 25, seeds: [0] };
    const options = twoActors(4);
    const called = performance.now();
    const result = await trainRedisSeed(config, options, 0, server!.url, sourceLauncher);
    const callSeconds = (performance.now() - called) / 1000;
    expect(result.metrics).toHaveLength(25);
    expect(result.malformed).toBe(0);
    // Every episode has 4 steps, and each iteration took at least `rollouts` of them.
    expect(result.environmentSteps % 4).toBe(0);
    expect(result.environmentSteps).toBeGreaterThanOrEqual(25 * 3 * 4);
    expect(result.updates).toBeGreaterThan(0);
    // Not a speed goal but a bound that holds by construction: the throughput's clock (in seconds) runs
    // from the first episode's arrival to the end, inside this call, so it is at least the steps over the
    // call's seconds (a clock in ms, or one started with the process, falls below it).
    expect(result.stepsPerSecond).toBeGreaterThanOrEqual(result.environmentSteps / callSeconds);
    for (const m of result.metrics) {
      expect(m.versionSpread).toBeGreaterThanOrEqual(0);
      expect(m.optimalProbability).toBeGreaterThanOrEqual(0);
      expect(m.optimalProbability).toBeLessThanOrEqual(1);
    }
    // FTW selected from the mirrored pool and measured its staleness.
    const staleness = result.metrics.flatMap((m) => (m.poolStaleness === null ? [] : [m.poolStaleness]));
    expect(staleness.length).toBeGreaterThan(0);
    // The actors acted with exactly the policy the learner published.
    expect(result.behaviourCheck.steps).toBeGreaterThan(0);
    expect(result.behaviourCheck.maxLogProbGap).toBe(0);
  });

  for (const [policy, optimizer] of [
    ['tabular', 'adam'],
    ['tabular', 'sgd'],
    ['linear', 'adam'],
  ] as const) {
    it(`trains Sokoban (${policy} policy, ${optimizer}) with actor processes (${policy === 'linear' ? 'features' : 'positions by name'})`, async () => {
      const { maxSamples: _, ...base } = SOKOBAN_SCENARIO.base;
      const config: TrainConfig = {
        ...base,
        seeds: [0],
        iterations: 40,
        policy,
        optimizer,
        lr: optimizer === 'sgd' ? 0.5 : base.lr,
      };
      const options = twoActors(1);
      const result = await trainRedisSeed(config, options, 0, server!.url, sourceLauncher);
      expect(result.metrics).toHaveLength(40);
      expect(result.malformed).toBe(0);
      expect(result.updates).toBeGreaterThan(0);
      // Every step the learner could score again (taken with its current version) has the log-probability
      // the actor recorded: the learner numbered the actors' positions and published its rows (tabular)
      // so that both read the same row, or read the features the actor sent (linear).
      expect(result.behaviourCheck.steps).toBeGreaterThan(100);
      expect(result.behaviourCheck.maxLogProbGap).toBe(0);
      // A tabular policy under SGD goes out as the rows each update moved, applied by the actors between
      // steps (the check above then covers them); Adam moves every row it ever stepped, so its versions go
      // out whole. A linear policy's θ goes out as the entries that changed while they cost less than θ.
      const { snapshots, deltas } = result.published;
      expect(snapshots + deltas).toBe(result.updates + 1);
      if (policy === 'tabular' && optimizer === 'sgd') expect(deltas).toBeGreaterThan(snapshots);
      if (policy === 'tabular' && optimizer === 'adam') expect(deltas).toBe(0);
      // ... and the policy moved (a learner that read no position would agree with its actors on a policy
      // stuck at uniform): the selected elites' behaviour differs from the current policy.
      expect(result.metrics.some((m) => m.logWeightMax !== null && m.logWeightMax !== 0)).toBe(true);
      // Actors load the newest policy before every step here (hot-load per step). How many of their
      // episodes span the learner's updates depends on timing: 3–10 of the 40 iterations in nine runs
      // since actors learn of versions from the pool's announcements (18–24 when each step asked the
      // server, which made steps slow). Too few to hold as a test here; redis-actor.e2e.test.ts checks that an
      // actor takes up versions published mid-episode.
      expect(result.metrics.every((m) => m.multiVersionShare >= 0 && m.multiVersionShare <= 1)).toBe(true);
      // The final policy as the run writes it (positions by the learner's names) scores the same in a
      // fresh environment of the level set.
      const saved = JSON.parse(JSON.stringify(result.finalPolicy)) as SavedPolicy;
      const fresh = new SokobanEpisodeEnv(
        config.environment as ConstructorParameters<typeof SokobanEpisodeEnv>[0],
        5,
      );
      expect(fresh.evaluate(restorePolicy(saved, fresh)).score).toBe(result.finalOptimalProbability);
      for (const m of result.metrics) {
        expect(m.optimalProbability).toBeGreaterThanOrEqual(0);
        expect(m.optimalProbability).toBeLessThanOrEqual(1);
      }
    });
  }
  for (const policy of ['mlp', 'cnn'] as const) {
    it(`trains Sokoban with a network (${policy}) in actor processes: observation rows travel, weights as versions`, async () => {
      const { maxSamples: _, ...base } = SOKOBAN_SCENARIO.base;
      const config: TrainConfig = {
        ...base,
        seeds: [0],
        iterations: 15,
        policy,
        network: { hidden: [32], filters: policy === 'cnn' ? [8] : [], envs: 1 },
        optimizer: 'adam',
        lr: 0.001,
      };
      const result = await trainRedisSeed(config, twoActors(1), 0, server!.url, sourceLauncher);
      expect(result.metrics).toHaveLength(15);
      expect(result.malformed).toBe(0);
      expect(result.updates).toBeGreaterThan(0);
      // The actors' logits at the published weights are the learner's, to the last bit: every step of the
      // learner's current version scores the log-probability its actor recorded.
      expect(result.behaviourCheck.steps).toBeGreaterThan(0);
      expect(result.behaviourCheck.maxLogProbGap).toBe(0);
      expect(result.published.snapshots + result.published.deltas).toBe(result.updates + 1);
      // The saved weights, loaded into a fresh network of the configuration, score what the run recorded.
      const saved = JSON.parse(JSON.stringify(result.finalPolicy)) as SavedPolicy;
      expect(saved.kind).toBe('network');
      const env = await redisEnvironment(config, twoActors(1), 7);
      const fresh = redisPolicy(config, env).policy as Policy & { load(record: unknown): void };
      fresh.load(saved);
      expect((env as EncodedSokobanEnv).evaluate(fresh).score).toBe(result.finalOptimalProbability);
    });
  }

  it('lets actor processes from elsewhere join by pool name, follow the learner seed to seed and stop by themselves', async () => {
    const config = { ...ASYNC_REDIS_BASE, iterations: 15, seeds: [0, 1] };
    const options = { ...twoActors(4), actors: 0 };
    const remotes: ChildProcess[] = [];
    let join = '';
    const started = runAsyncTraining(config, options, undefined, sourceLauncher, (command) => {
      join = command;
      const pool = /--pool (\S+)$/.exec(command)![1]!;
      for (let k = 0; k < 2; k++) remotes.push(startRemoteActor(server!.url, pool));
    });
    // Whatever fails, no actor process outlives the test.
    const outcome = await started.finally(() => {
      setTimeout(() => {
        for (const child of remotes) if (child.exitCode === null) child.kill('SIGKILL');
      }, 20_000).unref();
    });
    expect(join).toMatch(/^ftw actor --redis redis:\/\/127\.0\.0\.1:\d+ --pool ftw-\d+-\w+-seed0$/);
    expect(outcome.results.map((r) => r.metrics.length)).toEqual([15, 15]);
    for (const r of outcome.results as RedisSeedResult[]) {
      expect(r.malformed).toBe(0);
      expect(r.behaviourCheck.steps).toBeGreaterThan(0);
      expect(r.behaviourCheck.maxLogProbGap).toBe(0);
    }
    // Both left on their own once the learner was done with the last seed: exit code 0, no signal.
    const exits = await Promise.all(
      remotes.map((child) =>
        child.exitCode !== null
          ? [child.exitCode, child.signalCode]
          : (once(child, 'exit') as Promise<[number | null, string | null]>),
      ),
    );
    expect(exits).toEqual([
      [0, null],
      [0, null],
    ]);
  });

  it("starts a run's actor processes once and moves them from seed to seed", async () => {
    const config = { ...ASYNC_REDIS_BASE, iterations: 12, seeds: [0, 1, 2] };
    const launched: ChildProcess[] = [];
    const launch: ActorLauncher = (task) => {
      const child = sourceLauncher(task);
      launched.push(child);
      return child;
    };
    // --wait 60: starting an actor from the TypeScript sources takes 6–8 s of imports alone on a 2-core machine,
    // and two start at once (with 20 s this test failed on main too when the machine was busy).
    const outcome = await runAsyncTraining(config, { ...twoActors(4), wait: 60 }, undefined, launch);
    expect(launched).toHaveLength(2);
    expect(outcome.results).toHaveLength(3);
    for (const result of outcome.results as RedisSeedResult[]) {
      expect(result.metrics).toHaveLength(12);
      expect(result.updates).toBeGreaterThan(0);
      expect(result.malformed).toBe(0);
      // The actors acted in each seed with the policy of that seed's learner.
      expect(result.behaviourCheck.steps).toBeGreaterThan(0);
      expect(result.behaviourCheck.maxLogProbGap).toBe(0);
    }
    // The run stops them when it ends.
    for (const child of launched) {
      if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
    }
  });

  it('fails after --wait seconds without a new episode, and marks its pool failed', async () => {
    const config = { ...ASYNC_REDIS_BASE, iterations: 5, seeds: [0] };
    const name = `lonely-${Date.now().toString(36)}`;
    const options = { ...twoActors(4), actors: 0, wait: 2 };
    const start = Date.now();
    const error = await trainRedisSeed(config, options, 0, server!.url, sourceLauncher, undefined, {
      name,
      next: '',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ActorsLostError);
    expect((error as Error).message).toBe(
      `no episode arrived in pool ${name} for 2 s: no actor is pushing to it`,
    );
    expect(Date.now() - start).toBeGreaterThanOrEqual(2000);
    const pool = await RedisPool.open(server!.url, { name });
    expect(await pool.readNote(POOL_NOTES.state)).toBe('failed');
    await pool.close();
  });

  it('counts the stream entries it skips: malformed ones and Sokoban trajectories without valid position names', async () => {
    // No actor process: the test pushes the entries itself, bad ones first (read before the good ones).
    const { maxSamples: _, ...base } = SOKOBAN_SCENARIO.base;
    const config: TrainConfig = { ...base, seeds: [0], iterations: 1, rollouts: 3, policy: 'tabular' };
    const name = `skipping-${Date.now().toString(36)}`;
    const options: AsyncOptions = { ...twoActors(1), actors: 0, hotLoad: 'episode', wait: 30 };
    const learning = trainRedisSeed(config, options, 0, server!.url, sourceLauncher, undefined, {
      name,
      next: '',
    });
    learning.catch(() => {});
    let pool: RedisPool | undefined;
    for (let k = 0; k < 200 && pool === undefined; k++) {
      pool = await RedisPool.open(server!.url, { name }).catch(async () => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return undefined;
      });
    }
    const client = createClient({ url: server!.url });
    await client.connect();
    try {
      // The learner waits a while for its first episode: its throughput clock must start at the arrival.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const firstPush = performance.now();
      await client.xAdd(`{${name}}:trajectories`, '*', { id: 'x', n: '1', t: 'not a trajectory' });
      const actor = new SokobanEpisodeEnv(
        config.environment as ConstructorParameters<typeof SokobanEpisodeEnv>[0],
        9,
      );
      const trajectory = (k: number) => {
        const positions: string[] = [];
        const actions: number[] = [];
        let observation = actor.reset();
        for (;;) {
          positions.push(actor.positionName(observation));
          actions.push(k % 4);
          const step = actor.step(k++ % 4);
          if (step.terminated || step.truncated) break;
          observation = step.observation;
        }
        const n = actions.length;
        return {
          actions,
          logProbs: new Array<number>(n).fill(-Math.log(4)),
          versions: 0,
          return: 0,
          metadata: { positions },
        };
      };
      const bad = trajectory(0);
      await pool!.pushMany([{ ...bad, metadata: { positions: bad.metadata.positions.slice(1) } }], {
        ids: ['bad'],
        timeoutMs: 30_000,
      });
      await pool!.pushMany([trajectory(1), trajectory(2), trajectory(3)], {
        ids: ['a', 'b', 'c'],
        timeoutMs: 30_000,
      });
      const result = await learning;
      const sincePush = (performance.now() - firstPush) / 1000;
      expect(result.metrics).toHaveLength(1);
      expect(result.malformed).toBe(2);
      // By construction, not a speed goal: the clock runs inside [first push, return], so the rate is at
      // least the steps over that window (a clock started with the call counts the 1.5 s of waiting).
      expect(result.stepsPerSecond).toBeGreaterThanOrEqual(result.environmentSteps / sincePush);
      const { artifacts } = asyncRunResult({ config, options, mode: 'redis', results: [result] });
      expect((artifacts.summary as { skipped: number }).skipped).toBe(2);
    } finally {
      await client.close();
      await pool?.close();
    }
  });

  it('runs actors on a server that wants a password, and records its URL without the password', async () => {
    const guarded = await startRedisServer({ args: ['--requirepass', 'Sup3rSecret'] });
    try {
      const url = `redis://:Sup3rSecret@127.0.0.1:${guarded.port}`;
      const config = { ...ASYNC_REDIS_BASE, iterations: 10, seeds: [0] };
      const options = {
        actors: 1,
        redis: url,
        lag: 0,
        hotLoad: 'episode' as const,
        is: { kind: 'none' as const },
        horizon: 4,
      };
      const result = await trainRedisSeed(config, options, 0, url, sourceLauncher);
      expect(result.metrics).toHaveLength(10);
      const { artifacts } = asyncRunResult({ config, options, mode: 'redis', results: [result] });
      const recorded = JSON.stringify([artifacts.config, artifacts.summary, artifacts.report]);
      expect(recorded).not.toContain('Sup3rSecret');
      expect((artifacts.config['asynchronous'] as { redis: string }).redis).toBe(
        `redis://:***@127.0.0.1:${guarded.port}`,
      );
    } finally {
      await guarded.stop();
    }
  });
});

describe('learnerTrajectory', () => {
  const levels = SOKOBAN_SCENARIO.base.environment as ConstructorParameters<typeof SokobanEpisodeEnv>[0];
  const steps = (n: number) => ({
    actions: new Int32Array(n),
    logProbs: new Float64Array(n).fill(-Math.log(4)),
    versions: new Uint32Array(n),
    return: 1,
  });

  it("numbers a Sokoban actor's positions by name in the learner's registry", () => {
    const learner = new SokobanEpisodeEnv(levels, 0);
    const actor = new SokobanEpisodeEnv(levels, 5);
    const own = [actor.reset()];
    for (let t = 0; t < 6; t++) own.push(actor.step(t % 4).observation);
    const positions = own.map((id) => actor.positionName(id));
    const trajectory = learnerTrajectory({ ...steps(7), metadata: { positions } }, learner)!;
    const observations = Array.from(trajectory.observations as Float64Array);
    expect(observations).toEqual(positions.map((n) => learner.idOfPosition(n)));
    expect(observations.map((id) => learner.positionName(id))).toEqual(positions);
    expect(trajectory.actions.length).toBe(7);
    // The names stay in the stream; the learner's pool holds the ids alone.
    expect(trajectory.metadata).toBeUndefined();
  });

  it('keeps bandit observation ids (0 without any)', () => {
    const trajectory = learnerTrajectory({ ...steps(2), observations: Float64Array.of(1, 0) }, null)!;
    expect(Array.from(trajectory.observations as Float64Array)).toEqual([1, 0]);
    expect(Array.from(learnerTrajectory(steps(2), null)!.observations as Float64Array)).toEqual([0, 0]);
  });

  it('skips a Sokoban trajectory without one valid name per step, numbering none of its positions', () => {
    const learner = new SokobanEpisodeEnv(levels, 0);
    const actor = new SokobanEpisodeEnv(levels, 5);
    const start = actor.positionName(actor.reset());
    for (const metadata of [
      undefined,
      null,
      7,
      { positions: start },
      { positions: [start] },
      { positions: [start, 3] },
      { positions: [start, '99|ab'] },
      { positions: [start, `0|${String.fromCharCode(0, 0)}`] },
    ]) {
      expect(learnerTrajectory({ ...steps(2), metadata: metadata as JsonValue }, learner)).toBeNull();
    }
    expect(learner.observationCount).toBe(0);
  });
});
