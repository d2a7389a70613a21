import { PoolMirror } from '@ftw/redis-pool';
import type { ReplayPool } from '@ftw/replay-pool';
import { eliteSelector as configSelector, type EliteChoice } from '@ftw/trainer';
import type { TrainConfig } from '../config/train-config.js';
import { seededStreams } from '../random/seeded-streams.js';
import { learnerTrajectory } from './redis-policy.js';
import type { RedisIterationMetrics } from './redis-training.js';

/** An update of a Redis run selected again: the learner's pool as it was, and FTW's choice from it. */
export interface ReplayedSelection {
  /** The pool the update selected from, rebuilt from the stream (positions as the learner had them). */
  readonly pool: ReplayPool;
  /** The elites and their counts m (before any `--is truncate` weighting), or null when none were drawn. */
  readonly choice: EliteChoice | null;
}

/**
 * Replays the selection of one update of a bandit run over Redis from its metrics row: reads the row's
 * stream range back (`PoolMirror.readRange`: `XRANGE` from `first` to `last`), which rebuilds the learner's
 * pool position for position, skips the seed's selection stream ahead by the `selectionDraws` the row
 * logged, and selects again as the learner did at the version it held before the update (no selection
 * while the pool holds fewer than `warmup` trajectories). Same pool, same uniforms, same rule: the same
 * minibatches and elites.
 *
 * @param url - the Redis server that holds the run's pool
 * @param config - the run's configuration (`config.json`)
 * @param row - the update's line of `metrics.ndjson`
 * @returns the pool and the choice
 * @throws RangeError when `config.method` is not `ftw` (only FTW selects from the pool); RedisPoolError
 *   `RANGE_TRIMMED` when the stream no longer holds the range (the learner keeps N
 *   entries beyond its pool, so the updates of about the last N / rollouts iterations replay), or
 *   `POOL_NOT_FOUND`
 * @example
 * ```ts
 * const { pool, choice } = await replaySelection(url, config, rows[41]);
 * console.log(choice.size); // the elites the update imitated
 * ```
 */
export async function replaySelection(
  url: string,
  config: TrainConfig,
  row: RedisIterationMetrics,
): Promise<ReplayedSelection> {
  if (config.method !== 'ftw') {
    throw new RangeError(`config.method must be 'ftw' to replay a selection, got '${config.method}'`);
  }
  const { replay } = row;
  const mirror = await PoolMirror.open(url, {
    name: replay.pool,
    maxVersionLag: config.maxVersionLag ?? undefined,
    prepare: (t) => learnerTrajectory(t, null),
  });
  let pool: ReplayPool;
  try {
    pool = await mirror.readRange(replay);
  } finally {
    await mirror.close();
  }
  const selection = seededStreams(row.seed).selection;
  for (let k = 0; k < replay.selectionDraws; k++) selection();
  const version = row.updated ? row.version - 1 : row.version;
  const choice = pool.size < config.warmup ? null : configSelector(config, selection)(pool, version);
  return { pool, choice };
}
