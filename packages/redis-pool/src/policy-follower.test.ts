import { describe, expect, it } from 'vitest';
import { uniqueName, useRedisServer } from '../test/redis-server.js';
import { PolicyFollower } from './policy-follower.js';
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
});
