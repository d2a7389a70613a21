import type { JsonValue } from './json-value.js';

/**
 * A trajectory as the pool stores it: frozen, with columnar typed arrays of one entry per step, its
 * sequence id and its version range. Treat the typed arrays as read-only: they are the pool's own copy
 * and a snapshot saves them as they are. They are views into a 256 KiB slab shared with neighbouring
 * trajectories (allocating one ArrayBuffer per trajectory would cost more than the copy), so their
 * `.buffer` holds other trajectories' bytes, and keeping an evicted trajectory keeps its slab alive.
 *
 * @example
 * ```ts
 * const pool = new ReplayPool({ capacity: 2 });
 * pool.push({ actions: [2, 0], logProbs: [-0.1, -1.6], versions: [4, 5], return: 1 });
 * const t = pool.at(0);
 * console.log(t.sequence, t.length, t.actions, t.minVersion, t.maxVersion);
 * // 0 2 Int32Array(2) [ 2, 0 ] 4 5
 * ```
 */
export interface Trajectory {
  /** Monotone id: the number of trajectories pushed to the pool before this one. */
  readonly sequence: number;
  /** Number of steps T ≥ 1. */
  readonly length: number;
  /** Action per step. */
  readonly actions: Int32Array;
  /** Behaviour log-probability per step, each ≤ 0 and finite. */
  readonly logProbs: Float64Array;
  /** Policy version per step. */
  readonly versions: Uint32Array;
  /** Smallest version among the steps (the oldest policy that contributed). */
  readonly minVersion: number;
  /** Largest version among the steps. */
  readonly maxVersion: number;
  /** Terminal return (finite; `-0` is kept as `-0`). */
  readonly return: number;
  /** Observations, `observationSize` values per step, or `undefined` when none were given. */
  readonly observations?: Float64Array | undefined;
  /** Values per step in `observations`; 0 when there are none. */
  readonly observationSize: number;
  /** Frozen JSON metadata, or `undefined` when none was given. */
  readonly metadata?: JsonValue | undefined;
}
