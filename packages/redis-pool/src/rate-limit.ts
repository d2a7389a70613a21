import { describeValue } from '@ftw/internal';

/**
 * Reverb's sample-to-insert ratio, for FTW: a bound on learner updates per inserted trajectory, with a
 * tolerance, enforced on the server by the pool's Lua scripts so that neither actors nor learner run
 * arbitrarily ahead. With i inserts and u updates so far, the quantity d = r·i − u must stay within
 * r·m ± e once m trajectories are in:
 *
 *   insert allowed  ⇔  i + 1 ≤ m  or  r·(i + 1) − u ≤ r·m + e
 *   update allowed  ⇔  i ≥ m  and  r·i − (u + 1) ≥ r·m − e
 *
 * (Reverb's `SampleToInsertRatio(samples_per_insert, min_size_to_sample, error_buffer)`, with a learner
 * update as the sample.) Neither side can be stuck while the other waits only if 2e ≥ r + 1 (both are
 * blocked iff r·m + e − r < d < r·m − e + 1); this package asks for e ≥ max(1, r), which implies it.
 *
 * @example
 * ```ts
 * const limit: RateLimit = { updatesPerInsert: 0.25, minSize: 64, tolerance: 8 };
 * // one update per 4 new trajectories once 64 are in; either side may run 8 updates ahead
 * ```
 */
export interface RateLimit {
  /** r: learner updates per inserted trajectory, a finite number > 0. */
  readonly updatesPerInsert: number;
  /** m: trajectories inserted before the first update; an integer ≥ 1. */
  readonly minSize: number;
  /** e: how far (in updates) either side may run ahead; a finite number ≥ max(1, r). */
  readonly tolerance: number;
}

/**
 * Validates a {@link RateLimit}. Internal.
 *
 * @param limit - the candidate
 * @returns the same object
 * @throws TypeError when it is not an object; RangeError naming the field out of its domain
 */
export function checkRateLimit(limit: unknown): RateLimit {
  if (typeof limit !== 'object' || limit === null) {
    throw new TypeError(
      `rateLimit must be an object like { updatesPerInsert, minSize, tolerance }, got ${describeValue(limit)}`,
    );
  }
  const { updatesPerInsert: r, minSize: m, tolerance: e } = limit as Record<string, unknown>;
  if (typeof r !== 'number' || !Number.isFinite(r) || r <= 0) {
    throw new RangeError(`rateLimit.updatesPerInsert must be a finite number > 0, got ${describeValue(r)}`);
  }
  if (typeof m !== 'number' || !Number.isSafeInteger(m) || m < 1) {
    throw new RangeError(`rateLimit.minSize must be an integer >= 1, got ${describeValue(m)}`);
  }
  if (typeof e !== 'number' || !Number.isFinite(e) || e < Math.max(1, r)) {
    throw new RangeError(
      `rateLimit.tolerance must be a finite number >= max(1, updatesPerInsert) = ${Math.max(1, r)} (else both sides can block each other), got ${describeValue(e)}`,
    );
  }
  return { updatesPerInsert: r, minSize: m, tolerance: e };
}
