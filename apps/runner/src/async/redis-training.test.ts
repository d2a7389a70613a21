import { type RedisServer, startRedisServer } from '@ftw/redis-pool';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asyncRunResult } from './async-training-run.js';
import { ASYNC_REDIS_BASE } from './compare-async.js';
import { trainRedisSeed } from './redis-training.js';
import { sourceLauncher } from './testing/source-launcher.js';

let server: RedisServer | undefined;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('trainRedisSeed', () => {
  it('trains with actor processes over Redis, whole multi-step episodes, versions per step', async () => {
    const config = { ...ASYNC_REDIS_BASE, iterations: 25, seeds: [0] };
    const options = {
      actors: 2,
      redis: server!.url,
      lag: 0,
      hotLoad: 'step' as const,
      is: { kind: 'none' as const },
      horizon: 4,
    };
    const result = await trainRedisSeed(config, options, 0, server!.url, sourceLauncher);
    expect(result.metrics).toHaveLength(25);
    expect(result.malformed).toBe(0);
    // Every episode has 4 steps, and each iteration took at least `rollouts` of them.
    expect(result.environmentSteps % 4).toBe(0);
    expect(result.environmentSteps).toBeGreaterThanOrEqual(25 * 3 * 4);
    expect(result.updates).toBeGreaterThan(0);
    expect(result.stepsPerSecond).toBeGreaterThan(0);
    for (const m of result.metrics) {
      expect(m.versionSpread).toBeGreaterThanOrEqual(0);
      expect(m.optimalProbability).toBeGreaterThanOrEqual(0);
      expect(m.optimalProbability).toBeLessThanOrEqual(1);
    }
    // FTW selected from the mirrored pool and measured its staleness.
    const staleness = result.metrics.flatMap((m) => (m.poolStaleness === null ? [] : [m.poolStaleness]));
    expect(staleness.length).toBeGreaterThan(0);
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
