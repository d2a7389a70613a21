import type { Trajectory } from './trajectory.js';

/**
 * Minimum, mean and maximum of a set of ages in policy versions.
 *
 * @example
 * ```ts
 * const { min, mean, max } = pool.staleness(version).stepAge; // e.g. 1 1.8 3
 * ```
 */
export interface AgeSummary {
  /** Smallest age. */
  readonly min: number;
  /** Arithmetic mean age (exact sums of integers below 2^53, then one division). */
  readonly mean: number;
  /** Largest age. */
  readonly max: number;
}

/**
 * How stale a set of trajectories is at a given policy version. The age of a step is
 * `currentVersion − v_t`; the age of a trajectory is the age of its oldest step,
 * `currentVersion − minVersion`, the quantity that {@link ReplayPoolOptions.maxVersionLag} bounds.
 * For a selection every occurrence counts, so a trajectory picked three times weighs three times.
 *
 * @example
 * ```ts
 * pool.push({ actions: [0, 1], logProbs: [-1, -1], versions: [3, 4], return: 1 });
 * pool.push({ actions: [1], logProbs: [-0.5], versions: 5, return: 0 });
 * console.log(pool.staleness(6));
 * // { currentVersion: 6, trajectories: 2, distinct: 2, steps: 3,
 * //   trajectoryAge: { min: 1, mean: 2, max: 3 }, stepAge: { min: 1, mean: 2, max: 3 },
 * //   multiVersionShare: 0.5 }
 * ```
 */
export interface Staleness {
  /** The policy version the ages are measured from. */
  readonly currentVersion: number;
  /** Trajectories counted, repeats included. */
  readonly trajectories: number;
  /** Different trajectories among them. */
  readonly distinct: number;
  /** Steps counted, repeats included. */
  readonly steps: number;
  /** Age of each trajectory (its oldest step), one value per trajectory counted. */
  readonly trajectoryAge: AgeSummary;
  /** Age of every step counted. */
  readonly stepAge: AgeSummary;
  /** Share of the trajectories counted whose steps come from more than one policy version. */
  readonly multiVersionShare: number;
}

/**
 * Computes a {@link Staleness} over `trajectories` (non-empty, repeats allowed). Internal.
 *
 * @param trajectories - the trajectories counted, with repeats
 * @param distinct - how many of them are different
 * @param currentVersion - a validated integer version
 * @returns the summary
 * @throws RangeError when some trajectory has a step newer than `currentVersion`
 */
export function measureStaleness(
  trajectories: readonly Trajectory[],
  distinct: number,
  currentVersion: number,
): Staleness {
  let newest = 0;
  let trajectoryMin = Number.POSITIVE_INFINITY;
  let trajectoryMax = 0;
  let trajectorySum = 0;
  let stepMin = Number.POSITIVE_INFINITY;
  let steps = 0;
  let stepSum = 0;
  let multi = 0;
  for (const t of trajectories) {
    if (t.maxVersion > newest) newest = t.maxVersion;
    const age = currentVersion - t.minVersion;
    if (age < trajectoryMin) trajectoryMin = age;
    if (age > trajectoryMax) trajectoryMax = age;
    trajectorySum += age;
    const youngest = currentVersion - t.maxVersion;
    if (youngest < stepMin) stepMin = youngest;
    if (t.minVersion !== t.maxVersion) multi++;
    const versions = t.versions;
    let versionSum = 0;
    for (let i = 0; i < versions.length; i++) versionSum += versions[i]!;
    steps += versions.length;
    stepSum += versions.length * currentVersion - versionSum;
  }
  if (newest > currentVersion) {
    throw new RangeError(
      `currentVersion must be >= ${newest}, the newest policy version among the trajectories, got ${currentVersion}`,
    );
  }
  const n = trajectories.length;
  return {
    currentVersion,
    trajectories: n,
    distinct,
    steps,
    trajectoryAge: { min: trajectoryMin, mean: trajectorySum / n, max: trajectoryMax },
    // The oldest step of all is the oldest step of the oldest trajectory.
    stepAge: { min: stepMin, mean: stepSum / steps, max: trajectoryMax },
    multiVersionShare: multi / n,
  };
}
