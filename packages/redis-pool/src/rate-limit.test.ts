import { fc } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { uniqueName, useRedisServer } from '../test/redis-server.js';
import type { RateLimit } from './rate-limit.js';
import { RedisPool } from './redis-pool.js';
import { RedisPoolError } from './redis-pool-error.js';

const server = useRedisServer();
const one = { actions: [0], logProbs: [-1], versions: 0, return: 1 };

/**
 * Reverb's SampleToInsertRatio written from its definition (inserts i, learner updates u, ratio r,
 * min size m, tolerance e): an insert is allowed while the pool is below m, or when afterwards
 * r·i − u ≤ r·m + e; an update when i ≥ m and afterwards r·i − u ≥ r·m − e.
 */
class ReferenceLimiter {
  inserts = 0;
  updates = 0;
  constructor(readonly limit: RateLimit) {}
  insert(): boolean {
    const { updatesPerInsert: r, minSize: m, tolerance: e } = this.limit;
    const i = this.inserts + 1;
    if (i > m && r * i - this.updates > r * m + e) return false;
    this.inserts = i;
    return true;
  }
  update(): boolean {
    const { updatesPerInsert: r, minSize: m, tolerance: e } = this.limit;
    if (this.inserts < m || r * this.inserts - (this.updates + 1) < r * m - e) return false;
    this.updates++;
    return true;
  }
}

describe('rate limit', () => {
  it('grants exactly what the definition grants, step by step, on the server', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          updatesPerInsert: fc.constantFrom(0.25, 0.5, 1, 2, 3.5),
          minSize: fc.integer({ min: 1, max: 6 }),
          slack: fc.constantFrom(0, 0.5, 2, 5),
        }),
        fc.array(fc.constantFrom('insert', 'update'), { minLength: 1, maxLength: 60 }),
        async ({ updatesPerInsert, minSize, slack }, operations) => {
          const limit = { updatesPerInsert, minSize, tolerance: Math.max(1, updatesPerInsert) + slack };
          const name = uniqueName('limit');
          const pool = await RedisPool.open(server().url, { name, capacity: 100, rateLimit: limit });
          const reference = new ReferenceLimiter(limit);
          for (const operation of operations) {
            if (operation === 'update') {
              expect(await pool.tryUpdate()).toBe(reference.update());
            } else {
              const accepted = await pool.pushMany([one], { timeoutMs: 0 }).then(
                () => true,
                (error: unknown) => {
                  if (error instanceof RedisPoolError && error.code === 'RATE_LIMITED') return false;
                  throw error;
                },
              );
              expect(accepted).toBe(reference.insert());
            }
            expect(await pool.counters()).toEqual({ inserts: reference.inserts, updates: reference.updates });
          }
          await pool.close();
        },
      ),
      { numRuns: 25 },
    );
  });

  it('stops a batch at the first refused insert and retries the rest until the learner catches up', async () => {
    const name = uniqueName('limit-batch');
    const limit = { updatesPerInsert: 1, minSize: 2, tolerance: 1 };
    const pool = await RedisPool.open(server().url, { name, capacity: 100, rateLimit: limit });
    // i ≤ m + e / r = 3 inserts before the first update.
    await expect(pool.pushMany([one, one, one, one, one], { timeoutMs: 20 })).rejects.toThrow(
      /RATE_LIMITED: 2 of 5 trajectories were still refused/,
    );
    expect(await pool.counters()).toEqual({ inserts: 3, updates: 0 });
    const learner = await RedisPool.open(server().url, { name });
    const pushing = pool.pushMany([one, one, one], { timeoutMs: 10_000 });
    for (let k = 0; k < 3; k++) await learner.acquireUpdate(10_000);
    await pushing;
    expect(await pool.counters()).toEqual({ inserts: 6, updates: 3 });
    // 1·6 − 4 ≥ 1·2 − 1 holds, 1·6 − 5 ≥ 1 holds, 1·6 − 6 < 1: two more updates, not three.
    expect([await learner.tryUpdate(), await learner.tryUpdate(), await learner.tryUpdate()]).toEqual([
      true,
      true,
      false,
    ]);
    await expect(learner.acquireUpdate(20)).rejects.toThrow(/RATE_LIMITED: no update granted within 20 ms/);
    await Promise.all([pool.close(), learner.close()]);
  });

  it('counts an update once when it is asked again with the same number (a retry after a lost reply)', async () => {
    const name = uniqueName('limit-idempotent');
    const a = await RedisPool.open(server().url, { name, capacity: 10 });
    // `stale` opened when no update had been granted: its next request carries number 1 again, as a
    // learner retrying update 1 whose reply was lost would.
    const stale = await RedisPool.open(server().url, { name });
    expect(await a.tryUpdate()).toBe(true);
    expect(await a.tryUpdate()).toBe(true);
    expect(await stale.tryUpdate()).toBe(true);
    expect((await a.counters()).updates).toBe(2);
    // A learner restarted from the counters continues from 2.
    const b = await RedisPool.open(server().url, { name });
    expect(await b.tryUpdate()).toBe(true);
    expect((await b.counters()).updates).toBe(3);
    await stale.close();
    await Promise.all([a.close(), b.close()]);
  });
});
