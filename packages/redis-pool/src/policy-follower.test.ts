import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { uniqueName, useRedisServer } from '../test/redis-server.js';
import { PolicyFollower, type PolicyLoader } from './policy-follower.js';
import { RedisPool } from './redis-pool.js';

const server = useRedisServer();
const bytes = (v: number) => new Uint8Array([v]);

/**
 * Runs episodes of 4 steps while the learner publishes a new version after every 3rd step taken
 * (counting across episodes); returns the version recorded at each step, per episode.
 */
async function rollout(hotLoad: 'episode' | 'step'): Promise<number[][]> {
  const name = uniqueName(`follow-${hotLoad}`);
  const learner = await RedisPool.open(server().url, { name, capacity: 10 });
  const actor = await RedisPool.open(server().url, { name });
  const follower = new PolicyFollower(actor, hotLoad);
  await expect(follower.beginEpisode()).rejects.toThrow(/NO_POLICY/);
  let version = 0;
  await learner.publishPolicy(version, bytes(version));
  const episodes: number[][] = [];
  let taken = 0;
  for (let episode = 0; episode < 3; episode++) {
    await follower.beginEpisode();
    const versions: number[] = [];
    for (let step = 0; step < 4; step++) {
      const policy = await follower.beforeStep();
      expect(policy.parameters).toEqual(bytes(policy.version));
      versions.push(policy.version);
      if (++taken % 3 === 0) await learner.publishPolicy(++version, bytes(version));
    }
    episodes.push(versions);
  }
  await Promise.all([learner.close(), actor.close()]);
  return episodes;
}

describe('PolicyFollower', () => {
  it("with 'episode', keeps one version per episode and takes the newest at the next one", async () => {
    expect(await rollout('episode')).toEqual([
      [0, 0, 0, 0],
      [1, 1, 1, 1],
      [2, 2, 2, 2],
    ]);
  });

  it("with 'step', changes version inside an episode as soon as one is published", async () => {
    expect(await rollout('step')).toEqual([
      [0, 0, 0, 1],
      [1, 1, 2, 2],
      [2, 3, 3, 3],
    ]);
  });

  it('loads parameters only when the version changed, and refuses an unknown mode', async () => {
    const name = uniqueName('follow-loads');
    const pool = await RedisPool.open(server().url, { name, capacity: 1 });
    await pool.publishPolicy(1, bytes(1));
    const follower = new PolicyFollower(pool, 'step');
    for (let k = 0; k < 5; k++) await follower.beforeStep();
    expect(follower.loads).toBe(1);
    await pool.publishPolicy(2, bytes(2));
    expect((await follower.beforeStep()).version).toBe(2);
    expect(follower.loads).toBe(2);
    expect(() => new PolicyFollower(pool, 'always' as 'step')).toThrow(
      /hotLoad must be 'episode' or 'step', got "always"/,
    );
    await pool.close();
  });

  it('with a loader, reaches every version by its deltas alone, and from the snapshot when it joins late', async () => {
    const name = uniqueName('follow-deltas');
    const learner = await RedisPool.open(server().url, { name, capacity: 1 });
    // The policy is the list of every number published since the start; a snapshot holds them all, a
    // delta the ones it adds.
    const calls: string[] = [];
    const loader: PolicyLoader<number[]> = {
      snapshot: (bytes, version) => {
        calls.push(`snapshot ${version}`);
        return Array.from(bytes);
      },
      delta: (policy, bytes, version) => {
        calls.push(`delta ${version}`);
        policy.push(...bytes);
        return policy;
      },
    };
    const actors = [
      await RedisPool.open(server().url, { name }),
      await RedisPool.open(server().url, { name }),
    ];
    const early = new PolicyFollower(actors[0]!, 'step', { loader });
    const all: number[] = [0];
    await learner.publishPolicy(0, Uint8Array.from(all));
    expect((await early.beginEpisode()).parameters).toEqual([0]);
    for (let v = 1; v <= 4; v++) {
      all.push(v, 10 * v);
      await learner.publishPolicyDelta(v, Uint8Array.of(v, 10 * v));
      if (v % 2 === 0) expect(await early.beforeStep()).toEqual({ version: v, parameters: all });
    }
    expect(calls).toEqual(['snapshot 0', 'delta 1', 'delta 2', 'delta 3', 'delta 4']);
    expect(early.loads).toBe(3);
    calls.length = 0;
    const late = new PolicyFollower(actors[1]!, 'episode', { loader });
    expect(await late.beginEpisode()).toEqual({ version: 4, parameters: all });
    expect(calls).toEqual(['snapshot 0', 'delta 1', 'delta 2', 'delta 3', 'delta 4']);
    // A new snapshot: a follower one delta behind it starts again from the snapshot.
    await learner.publishPolicy(6, Uint8Array.from(all));
    all.push(7);
    await learner.publishPolicyDelta(7, Uint8Array.of(7));
    calls.length = 0;
    expect(await early.beforeStep()).toEqual({ version: 7, parameters: all });
    expect(calls).toEqual(['snapshot 6', 'delta 7']);
    await Promise.all([learner.close(), ...actors.map((a) => a.close())]);
  });

  it('without a loader, refuses a delta by name; after a loader throws, starts again from the snapshot', async () => {
    const name = uniqueName('follow-no-loader');
    const learner = await RedisPool.open(server().url, { name, capacity: 1 });
    const actor = await RedisPool.open(server().url, { name });
    await learner.publishPolicy(0, bytes(0));
    const plain = new PolicyFollower(actor, 'step');
    expect((await plain.beginEpisode()).parameters).toEqual(bytes(0));
    await learner.publishPolicyDelta(1, bytes(1));
    await expect(plain.beforeStep()).rejects.toThrow(
      /NO_LOADER: the learner published policy version 1 as a delta: give PolicyFollower a loader that applies deltas/,
    );
    expect(plain.current).toBeUndefined();
    let fail = true;
    const snapshots: number[] = [];
    const loader: PolicyLoader<number[]> = {
      snapshot: (b, version) => {
        snapshots.push(version);
        return Array.from(b);
      },
      delta: (policy, b) => {
        if (fail) throw new RangeError('bad delta');
        return [...policy, ...b];
      },
    };
    const follower = new PolicyFollower(actor, 'step', { loader });
    await expect(follower.beginEpisode()).rejects.toThrow(/bad delta/);
    expect(follower.current).toBeUndefined();
    fail = false;
    expect(await follower.beginEpisode()).toEqual({ version: 1, parameters: [0, 1] });
    expect(snapshots).toEqual([0, 0]);
    expect(
      () => new PolicyFollower(actor, 'step', { loader: { snapshot: (b: Uint8Array) => b } as never }),
    ).toThrow(/options.loader must have snapshot and delta functions, got/);
    expect(() => new PolicyFollower(actor, 'step', { notify: 'yes' as never })).toThrow(
      'options.notify must be a boolean, got "yes"',
    );
    await Promise.all([learner.close(), actor.close()]);
  });

  it('with notify, reads only after a newer version was announced, and makes up for announcements lost in a reconnection', async () => {
    const name = uniqueName('follow-notify');
    const learner = await RedisPool.open(server().url, { name, capacity: 1 });
    const actor = await RedisPool.open(server().url, { name });
    const admin = createClient({ url: server().url });
    admin.on('error', () => {});
    await admin.connect();
    const channel = `{${name}}:policy-version`;
    const follower = new PolicyFollower(actor, 'step', { notify: true });
    await learner.publishPolicy(0, bytes(0));
    expect((await follower.beginEpisode()).version).toBe(0);
    expect(await admin.pubSubNumSub(channel)).toEqual({ [channel]: 1 });
    for (let k = 0; k < 50; k++) await follower.beforeStep();
    expect([follower.reads, follower.loads]).toEqual([1, 1]);
    /** Checks until the follower holds `version` (each check yields to the event loop once). */
    const reach = async (version: number) => {
      const deadline = Date.now() + 10_000;
      while ((await follower.beforeStep()).version !== version) {
        if (Date.now() > deadline) throw new Error(`the follower did not reach version ${version} in 10 s`);
      }
      expect((await follower.beforeStep()).parameters).toEqual(bytes(version));
    };
    await learner.publishPolicy(1, bytes(1));
    await reach(1);
    for (let k = 0; k < 50; k++) await follower.beforeStep();
    expect([follower.reads, follower.loads]).toEqual([2, 2]);
    // The listening connection is cut, and a version published before it is back: the follower reads at
    // every check from its reconnection until the next announcement, so it is not missed.
    await admin.sendCommand(['CLIENT', 'KILL', 'TYPE', 'pubsub']);
    await learner.publishPolicy(2, bytes(2));
    await reach(2);
    await learner.publishPolicy(3, bytes(3));
    await reach(3);
    const reads = follower.reads;
    for (let k = 0; k < 50; k++) await follower.beforeStep();
    expect(follower.reads).toBe(reads);
    await follower.close();
    expect(await admin.pubSubNumSub(channel)).toEqual({ [channel]: 0 });
    // Closed, it asks the server again at every check.
    await follower.beforeStep();
    expect(follower.reads).toBe(reads + 1);
    // A follower whose pool was closed (its listening connection with it) fails as one that asks would,
    // rather than act on with the version it holds.
    const listening = new PolicyFollower(actor, 'step', { notify: true });
    expect((await listening.beginEpisode()).version).toBe(3);
    await actor.close();
    await expect(listening.beforeStep()).rejects.toThrow(/CONNECTION_LOST/);
    await Promise.all([learner.close(), admin.close()]);
  });
});
