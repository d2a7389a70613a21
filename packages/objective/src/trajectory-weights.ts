import { describeValue } from '@ftw/internal';
import { MAX_MAGNITUDE } from './max-magnitude.js';
import { assertArrayLike, assertOneOf, outBuffer } from './validate.js';

/** How {@link trajectoryWeights} spreads a trajectory's selection count over its steps. */
export type WeightNormalization = 'trajectory' | 'step';

/** Options of {@link trajectoryWeights}. */
export interface TrajectoryWeightsOptions {
  /**
   * `'trajectory'`: every selection weighs the same and its steps share that weight, so a long trajectory
   * does not outweigh a short one. `'step'`: every selected step weighs the same.
   * @defaultValue 'trajectory'
   */
  normalize?: WeightNormalization;
}

const MODES: readonly WeightNormalization[] = ['trajectory', 'step'];

/**
 * Expands per-trajectory selection counts into per-step (per-row) weights that sum to one, in trajectory
 * order then step order: the `weights` argument of {@link ftwLoss} for rows laid out the same way.
 *
 * Equation, for trajectory i with selection count m_i (times selected as an elite, or its expected count
 * J·K·P(r)) and length L_i:
 *
 *     'trajectory':  w_{i,t} = m_i / (L_i · Σ_j m_j)          (sum over j with L_j > 0)
 *     'step':        w_{i,t} = m_i / Σ_j m_j L_j
 *
 * so the weighted cross-entropy is `Σ_i (m_i/M) · mean_t CE_{i,t}` (per trajectory, M = Σ m_j) or
 * `(1/Σ m_j L_j) Σ_i m_i Σ_t CE_{i,t}` (per step): the two normalisations by M of the design notes,
 * section "The objective".
 *
 * @param counts - selection count per trajectory in `[0, MAX_MAGNITUDE]` (need not be integers)
 * @param lengths - number of steps per trajectory, integers `>= 0`
 * @param options - normalisation
 * @param out - optional buffer of length `Σ lengths`, filled and returned
 * @returns per-step weights, summing to 1
 * @throws TypeError if `counts` or `lengths` is not array-like, or `out` is not a Float64Array of the
 *   right length
 * @throws RangeError if the lengths differ, a count is negative, non-finite or above `MAX_MAGNITUDE`, a
 *   length is not a non-negative integer, `normalize` is unknown, or the total weight is zero
 * @example
 * ```ts
 * // Trajectory 0 (2 steps) selected 3 times, trajectory 1 (1 step) once.
 * console.log(Array.from(trajectoryWeights([3, 1], [2, 1])));
 * // [ 0.375, 0.375, 0.25 ]
 * console.log(Array.from(trajectoryWeights([3, 1], [2, 1], { normalize: 'step' })));
 * // [ 0.42857142857142855, 0.42857142857142855, 0.14285714285714285 ]
 * ```
 */
export function trajectoryWeights(
  counts: ArrayLike<number>,
  lengths: ArrayLike<number>,
  options?: TrajectoryWeightsOptions,
  out?: Float64Array,
): Float64Array {
  if (typeof lengths !== 'object' || lengths === null || typeof lengths.length !== 'number') {
    throw new TypeError(
      `lengths must be an array or typed array of step counts, got ${describeValue(lengths)}`,
    );
  }
  const n = lengths.length;
  assertArrayLike('counts', counts, n, 'lengths.length');
  const normalize =
    options?.normalize === undefined
      ? 'trajectory'
      : assertOneOf('options.normalize', options.normalize, MODES);
  let steps = 0;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const m = counts[i];
    if (typeof m !== 'number' || !(m >= 0 && m <= MAX_MAGNITUDE)) {
      throw new RangeError(
        `counts[${i}] must be a finite number in [0, ${MAX_MAGNITUDE}], got ${describeValue(m)}`,
      );
    }
    const len = lengths[i];
    if (typeof len !== 'number' || !Number.isInteger(len) || len < 0) {
      throw new RangeError(`lengths[${i}] must be an integer >= 0, got ${describeValue(len)}`);
    }
    steps += len;
    if (len > 0) total += normalize === 'trajectory' ? m : m * len;
  }
  if (!(total > 0)) {
    throw new RangeError(
      `counts must give a positive total weight over trajectories with at least one step, got ${total}`,
    );
  }
  const weights = outBuffer('out', out, steps);
  for (let i = 0, row = 0; i < n; i++) {
    const len = lengths[i]!;
    if (len === 0) continue;
    const w = normalize === 'trajectory' ? counts[i]! / (len * total) : counts[i]! / total;
    for (let t = 0; t < len; t++) weights[row++] = w;
  }
  return weights;
}
