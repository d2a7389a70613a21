import { RedisPoolError, type RedisServer, startRedisServer } from '@ftw/redis-pool';
import type { ReplayPool } from '@ftw/replay-pool';
import type { EliteChoice } from '@ftw/trainer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASYNC_REDIS_BASE } from '../commands/compare-async.js';
import type { TrainConfig } from '../config/train-config.js';
import type { AsyncOptions } from './async-options.js';
import { replaySelection } from './redis-replay.js';
import { type RedisIterationMetrics, trainRedisSeed } from './redis-training.js';
import { sourceLauncher } from './testing/source-launcher.js';

let server: RedisServer | undefined;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server?.stop();
});

/** What the learner recorded of a selection, computed as `FtwUpdater` and `weightedSelector` do. */
function figures(pool: ReplayPool, choice: EliteChoice | null, version: number) {
  if (choice === null) return { eliteMean: null, selectionStaleness: null };
  let total = 0;
  let sum = 0;
  let ageSum = 0;
  for (let i = 0; i < choice.size; i++) {
    const m = choice.counts[i]!;
    const trajectory = pool.columnsAt(choice.positions[i]!);
    total += m;
    sum += m * trajectory.return;
    ageSum += m * (version - trajectory.minVersion);
  }
  return { eliteMean: sum / total, selectionStaleness: ageSum / total };
}

describe('replaySelection', () => {
  it("selects again exactly what a run's updates selected, from the stream range and selection draws each logged", async () => {
    const config: TrainConfig = { ...ASYNC_REDIS_BASE, iterations: 30, seeds: [0], capacity: 16 };
    const options: AsyncOptions = {
      actors: 2,
      redis: server!.url,
      lag: 0,
      hotLoad: 'step',
      is: { kind: 'none' },
      horizon: 4,
    };
    const result = await trainRedisSeed(config, options, 0, server!.url, sourceLauncher);
    // The rows as metrics.ndjson holds them.
    const rows = JSON.parse(JSON.stringify(result.metrics)) as RedisIterationMetrics[];
    // The learner's pool filled and wrapped: the ranges moved along the stream.
    expect(rows.at(-1)!.replay.size).toBe(16);
    expect(new Set(rows.map((r) => r.replay.first)).size).toBeGreaterThan(5);
    let replayed = 0;
    let offByOneDiffers = false;
    for (const row of rows.filter((r) => r.updated)) {
      let again: Awaited<ReturnType<typeof replaySelection>>;
      try {
        again = await replaySelection(server!.url, config, row);
      } catch (error) {
        // The oldest ranges may have been trimmed from the stream (it keeps N more entries than the pool).
        if (error instanceof RedisPoolError && error.code === 'RANGE_TRIMMED') continue;
        throw error;
      }
      replayed++;
      const before = row.version - 1;
      expect(again.pool.size).toBe(row.replay.size);
      expect(again.pool.staleness(before).trajectoryAge.mean).toBe(row.poolStaleness);
      // Bit for bit: the same elites with the same counts, summed in the same order.
      const { eliteMean, selectionStaleness } = figures(again.pool, again.choice, before);
      expect(eliteMean).toBe(row.eliteMean);
      expect(selectionStaleness).toBe(row.selectionStaleness);
      // One uniform off, and the minibatches are others (the returns are continuous: two selections
      // agree in their weighted mean only if they pick the same elites).
      const shifted = { ...row, replay: { ...row.replay, selectionDraws: row.replay.selectionDraws + 1 } };
      const other = await replaySelection(server!.url, config, shifted);
      if (figures(other.pool, other.choice, before).eliteMean !== row.eliteMean) offByOneDiffers = true;
    }
    // Every update of the last N / rollouts iterations at least (rollouts 3 of N = 16), and the shifted
    // draws changed the selection of at least one (all agreeing by chance: below 0.05^5).
    expect(replayed).toBeGreaterThanOrEqual(5);
    expect(offByOneDiffers).toBe(true);
    // The draws were counted before each update: they increase, by J·C = 20 uniforms per sampled update.
    const draws = rows.map((r) => r.replay.selectionDraws);
    expect(draws.every((d, i) => i === 0 || d >= draws[i - 1]!)).toBe(true);
    expect(draws.at(-1)! % 20).toBe(0);
  });

  it('refuses a run of another method, naming it', async () => {
    const row = { replay: { pool: 'x', first: '1-0', last: '1-0', size: 1, selectionDraws: 0 } };
    await expect(
      replaySelection(
        server!.url,
        { ...ASYNC_REDIS_BASE, method: 'grpo' },
        row as unknown as RedisIterationMetrics,
      ),
    ).rejects.toThrow("config.method must be 'ftw' to replay a selection, got 'grpo'");
  });
});
