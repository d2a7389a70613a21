import { RedisPool, type RedisServer, startRedisServer } from '@ftw/redis-pool';
import { createOptimizer, DEFAULT_FTW_OPTIONS, eliteSelector, FtwUpdater } from '@ftw/trainer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corridorPolicy, lehmer } from '../test/corridor.js';
import { spawnActor } from '../test/spawn-actor.js';
import { ActorsError } from './actors-error.js';
import { RedisLearner } from './redis-learner.js';
import { decodeTheta } from './theta-codec.js';

let server: RedisServer | undefined;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('RedisLearner', () => {
  it('trains a linear policy with FTW from episodes two actor processes push', async () => {
    const url = server!.url;
    const name = `learn-${Date.now().toString(36)}`;
    const policy = corridorPolicy();
    const learner = await RedisLearner.open(url, {
      name,
      runId: name,
      kind: 'linear',
      policy,
      capacity: 64,
      rollouts: 4,
      waitSeconds: 60,
    });
    const ftw = { ...DEFAULT_FTW_OPTIONS, capacity: 64, warmup: 5 };
    const updater = new FtwUpdater(
      ftw,
      policy,
      createOptimizer('adam', 0.1),
      eliteSelector(ftw, lehmer(3)),
      learner.mirror.pool,
    );
    const actors = [0, 1].map((i) => spawnActor([url, name, `a${i}`, 'step', name, 'linear']));
    const returns: number[] = [];
    try {
      for (let iteration = 0; iteration < 60; iteration++) {
        const { episodes } = await learner.step(updater);
        expect(episodes.length).toBeGreaterThanOrEqual(4);
        returns.push(episodes.reduce((s, e) => s + e.return, 0) / episodes.length);
      }
    } finally {
      await Promise.all(actors.map((a) => a.kill()));
      await learner.close();
    }
    expect(learner.version).toBeGreaterThan(40);
    const { snapshots, deltas } = learner.published;
    expect(snapshots + deltas).toBe(learner.version + 1);
    // Every arrived step taken with the learner's version at the time scores the same log-probability.
    expect(learner.behaviourCheck.steps).toBeGreaterThan(50);
    expect(learner.behaviourCheck.maxLogProbGap).toBe(0);
    // The policy learnt to walk right: the last ten iterations' mean return beats the first ten's (the
    // uniform policy reaches the end of the 6-cell corridor within 12 steps about a third of the time).
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(returns.slice(-10))).toBeGreaterThan(mean(returns.slice(0, 10)));
  });

  it('counts as waited the time inside collect after the first episode arrived, and nothing else', async () => {
    const url = server!.url;
    const name = `wait-${Date.now().toString(36)}`;
    const learner = await RedisLearner.open(url, {
      name,
      runId: name,
      kind: 'linear',
      policy: corridorPolicy(),
      capacity: 64,
      rollouts: 2,
      waitSeconds: 60,
    });
    const pusher = await RedisPool.open(url, { name });
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // One step at the first cell, a corridor observation (one-hot cell 0, bias).
    const episode = {
      actions: [1],
      logProbs: [Math.log(0.5)],
      versions: 0,
      return: 0,
      observations: [1, 0, 0, 0, 0, 0, 1],
    };
    let n = 0;
    const pushTwoAfter = async (ms: number) => {
      await sleep(ms);
      await pusher.pushMany([episode, episode], { ids: [`e${n++}`, `e${n++}`] });
    };
    try {
      // Before the first episode: 1 s of waiting that is not the actors' pace but their start.
      await Promise.all([learner.collect(), pushTwoAfter(1000)]);
      const afterFirst = learner.waitedMs;
      // Outside collect (an update, say): not waiting.
      await sleep(1000);
      // Inside collect, 0.3 s until the actors' next episodes.
      await Promise.all([learner.collect(), pushTwoAfter(300)]);
      expect(learner.waitedMs - afterFirst).toBeGreaterThanOrEqual(300);
      // Neither the second before the first arrival nor the one outside collect is counted (either would
      // put it above 1.3 s); what remains is the reads' and the grant's round trips.
      expect(learner.waitedMs).toBeLessThan(1000);
    } finally {
      await Promise.all([pusher.close(), learner.close()]);
    }
  });

  it('refuses a pool that another run left its notes in, and changes nothing in it', async () => {
    const url = server!.url;
    const name = `taken-${Date.now().toString(36)}`;
    const first = await RedisLearner.open(url, {
      name,
      runId: 'run-a',
      kind: 'linear',
      policy: corridorPolicy(),
      capacity: 8,
      rollouts: 1,
    });
    await first.close();
    const open = RedisLearner.open(url, {
      name,
      runId: 'run-b',
      kind: 'linear',
      policy: corridorPolicy(),
      capacity: 8,
      rollouts: 1,
    });
    await expect(open).rejects.toThrow(ActorsError);
    await expect(open).rejects.toThrow('RUN_MISMATCH: the pool belongs to run "run-a"');
    const pool = await RedisPool.open(url, { name });
    expect(await pool.readNote('run')).toBe('run-a');
    expect(await pool.readPolicyVersion()).toBe(0);
    await pool.close();
  });

  it('resumes from a checkpoint: consumed episodes are not new again, later ones arrive once, θ goes out whole', async () => {
    const url = server!.url;
    const name = `resume-${Date.now().toString(36)}`;
    const options = { name, runId: name, kind: 'linear', capacity: 16, rollouts: 2, waitSeconds: 60 };
    const before = corridorPolicy();
    const first = await RedisLearner.open(url, { ...options, policy: before });
    const push = await RedisPool.open(url, { name });
    // Each episode's return labels it: 0, 1, 2, …
    let label = 0;
    const pushTwo = async () => {
      const labels = [label, label + 1];
      label += 2;
      await push.pushMany(
        labels.map((r) => ({
          actions: [1],
          logProbs: [Math.log(0.5)],
          versions: 0,
          return: r,
          observations: [1, 0, 0, 0, 0, 0, 1],
        })),
        { ids: labels.map((r) => `e${r}`) },
      );
    };
    const returns = (episodes: readonly { return: number }[]) => episodes.map((e) => e.return);
    let checkpoint: { range: ReturnType<typeof first.mirror.range>; theta: Float64Array };
    try {
      await pushTwo();
      expect(returns(await first.collect())).toEqual([0, 1]);
      before.parameters[0] = 0.5; // an update
      await first.publish();
      checkpoint = { range: first.mirror.range(), theta: Float64Array.from(before.parameters) };
      await pushTwo();
      expect(returns(await first.collect())).toEqual([2, 3]);
      before.parameters[1] = 0.7; // an update the checkpoint does not hold: lost with the learner
      await first.publish();
    } finally {
      await first.close();
    }
    await pushTwo(); // while no learner runs
    const resumed = corridorPolicy();
    resumed.parameters.set(checkpoint.theta);
    const second = await RedisLearner.open(url, {
      ...options,
      policy: resumed,
      resume: { range: checkpoint.range },
    });
    try {
      // Versions go on after the newest one published (2), the checkpoint's θ whole as version 3.
      expect(second.version).toBe(3);
      const published = (await push.readPolicy())!;
      expect(published.version).toBe(3);
      expect(Array.from(decodeTheta(published.parameters))).toEqual(Array.from(checkpoint.theta));
      expect(Array.from(second.mirror.pool.returns())).toEqual([0, 1]);
      // The episodes the stopped learner consumed after its checkpoint, and those pushed since: once each.
      expect(returns(await second.collect(4))).toEqual([2, 3, 4, 5]);
      expect(Array.from(second.mirror.pool.returns())).toEqual([0, 1, 2, 3, 4, 5]);
    } finally {
      await second.close();
    }
    // A range the stream does not hold (another pool's ids): refused, nothing published.
    const stray = RedisLearner.open(url, {
      ...options,
      policy: corridorPolicy(),
      resume: { range: { first: '1-0', last: '2-0', size: 2 } },
    });
    await expect(stray).rejects.toThrow(/RANGE_TRIMMED/);
    expect(await push.readPolicyVersion()).toBe(3);
    await push.close();
  });
});
