import { PolicyFollower, RedisPool, type RedisServer, startRedisServer } from '@ftw/redis-pool';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PolicyCodec, PolicyPublisher, thetaCodec } from './policy-publisher.js';
import { thetaLoader } from './theta-codec.js';

let server: RedisServer | undefined;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('PolicyPublisher', () => {
  it('publishes θ whole first, then the entries that moved while they cost less than a snapshot', async () => {
    const pool = await RedisPool.open(server!.url, { name: `pub-${Date.now().toString(36)}`, capacity: 4 });
    const follower = new PolicyFollower(pool, 'episode', { loader: thetaLoader });
    const publisher = new PolicyPublisher(pool);
    const theta = new Float64Array(10); // snapshot: 80 bytes; a delta of k entries: 8 + 12 k
    const kinds: string[] = [];
    const moves = [[], [1], [2, 3], [4], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [5]];
    for (const [v, moved] of moves.entries()) {
      for (const i of moved) theta[i]! += 1;
      kinds.push(await publisher.publish(v, theta));
      const held = await follower.beginEpisode();
      expect(held.version).toBe(v);
      expect(held.parameters).toEqual(theta);
    }
    // Deltas of 20, 32 and 20 bytes add up to 72 ≤ 80; all ten moved makes a 128-byte delta, so a snapshot
    // goes out instead; then a delta again.
    expect(kinds).toEqual(['snapshot', 'delta', 'delta', 'delta', 'snapshot', 'delta']);
    expect(publisher.published).toEqual({ snapshots: 2, deltas: 4, bytes: 80 + 20 + 32 + 20 + 80 + 20 });
    await pool.close();
  });

  it('publishes whole when the codec has no delta', async () => {
    const pool = await RedisPool.open(server!.url, { name: `whole-${Date.now().toString(36)}`, capacity: 4 });
    const inner = thetaCodec();
    const wholeOnly: PolicyCodec = { snapshot: (t) => inner.snapshot(t), delta: () => null };
    const publisher = new PolicyPublisher(pool, wholeOnly);
    expect(await publisher.publish(0, new Float64Array(4))).toBe('snapshot');
    expect(await publisher.publish(1, Float64Array.of(1, 0, 0, 0))).toBe('snapshot');
    expect(publisher.published.deltas).toBe(0);
    await pool.close();
  });
});
