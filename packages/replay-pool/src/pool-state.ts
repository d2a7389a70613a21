import type { Trajectory } from './trajectory.js';

/**
 * Everything a snapshot holds: the pool's configuration, its counters and its trajectories from oldest
 * to newest. Internal; the pool is built from it and a snapshot is written from it.
 */
export interface PoolState {
  readonly capacity: number;
  readonly maxVersionLag: number | undefined;
  readonly pushedCount: number;
  readonly evictedCount: number;
  readonly trajectories: readonly Trajectory[];
}

/**
 * Largest capacity: slots are allocated up front (48 bytes each: the mirrored return, the block's place,
 * length, observation size, version range and record once built), so 2^26 slots take 3 GiB.
 */
export const MAX_CAPACITY = 2 ** 26;
