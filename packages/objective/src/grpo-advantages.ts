import { describeValue } from '@ftw/internal';
import { MAX_MAGNITUDE } from './max-magnitude.js';
import { assertBoundedArray, assertOneOf, nonNegativeError, outBuffer } from './validate.js';

/** Options of {@link grpoAdvantages}. */
export interface GrpoAdvantagesOptions {
  /**
   * Standard deviation convention: `'population'` divides the squared deviations by n (the advantages of
   * a group then have variance exactly 1 over the group), `'sample'` by n − 1 (`torch.std`'s default, as
   * in common GRPO implementations).
   * @defaultValue 'population'
   */
  std?: 'population' | 'sample';
  /**
   * Added to the standard deviation before dividing, `>= 0`; 0 gives exactly unit variance, GRPO
   * implementations often use 1e-4 or 1e-8.
   * @defaultValue 0
   */
  epsilon?: number;
}

const STD_MODES: readonly ('population' | 'sample')[] = ['population', 'sample'];

/**
 * GRPO's group-normalised advantages: each reward minus its group's mean, divided by the group's standard
 * deviation. Groups are consecutive runs of `rewards`.
 *
 * Equation, for group g with rewards r_1..r_n, mean μ_g and `σ_g = sqrt(Σ_k (r_k − μ_g)² / d)`
 * (`d = n` population, `n − 1` sample):
 *
 *     A_k = (r_k − μ_g) / (σ_g + ε)
 *
 * A group whose rewards are all equal (`===`), including a group of one, gets advantages 0: it carries
 * no ranking signal, and dividing its rounding-level deviations by a rounding-level σ would amplify noise
 * into ±1. Any other group has σ_g > 0, so with ε = 0 its advantages have mean 0 and variance 1 (under
 * the chosen convention) up to rounding. Reference: Z. Shao et al., "DeepSeekMath" (2024),
 * section 4.1.2, outcome supervision.
 *
 * Method: deviations `r_k − r_1` from the group's first reward (exact for close rewards, by Sterbenz's
 * lemma) divided by the largest of them, their mean, then the squared deviations from it (two passes,
 * not the cancellation-prone `E[r²] − E[r]²`). Rewards that differ only in their last bits, or are
 * subnormal, still give mean 0 and variance 1; a group is constant exactly when every deviation is 0.
 *
 * @param rewards - one finite reward per sample, grouped consecutively
 * @param groups - the common group size (which must divide `rewards.length`), or the sizes of the
 *   consecutive groups (positive integers summing to `rewards.length`)
 * @param options - std convention and ε
 * @param out - optional Float64Array of `rewards.length`, filled and returned
 * @returns the advantage of every sample
 * @throws TypeError if `rewards` or `groups` has the wrong type or `out` is not a Float64Array of the
 *   right length
 * @throws RangeError if a reward is not finite or exceeds `MAX_MAGNITUDE`, a group size is not a positive
 *   integer, the sizes do not cover `rewards`, `std` is unknown or ε is negative or non-finite
 * @example
 * ```ts
 * console.log(Array.from(grpoAdvantages([1, 0, 0, 1, 5, 5], 2)));
 * // [ 1, -1, -1, 1, 0, 0 ]
 * ```
 */
export function grpoAdvantages(
  rewards: ArrayLike<number>,
  groups: number | ArrayLike<number>,
  options?: GrpoAdvantagesOptions,
  out?: Float64Array,
): Float64Array {
  if (typeof rewards !== 'object' || rewards === null || typeof rewards.length !== 'number') {
    throw new TypeError(`rewards must be an array or typed array of numbers, got ${describeValue(rewards)}`);
  }
  const n = rewards.length;
  assertBoundedArray('rewards', rewards, n, 'samples');
  const sample =
    options?.std === undefined ? false : assertOneOf('options.std', options.std, STD_MODES) === 'sample';
  const epsilon = options?.epsilon ?? 0;
  if (typeof epsilon !== 'number' || !(epsilon >= 0 && epsilon <= MAX_MAGNITUDE))
    throw nonNegativeError('options.epsilon', epsilon);
  let sizes: ArrayLike<number> | undefined;
  let size = 0;
  if (typeof groups === 'number') {
    if (!Number.isInteger(groups) || groups < 1 || n % groups !== 0) {
      throw new RangeError(
        `groups must be a positive integer group size dividing rewards.length = ${n}, got ${describeValue(groups)}`,
      );
    }
    size = groups;
  } else if (typeof groups === 'object' && groups !== null && typeof groups.length === 'number') {
    let covered = 0;
    for (let g = 0; g < groups.length; g++) {
      const s = groups[g];
      if (typeof s !== 'number' || !Number.isInteger(s) || s < 1) {
        throw new RangeError(`groups[${g}] must be a positive integer group size, got ${describeValue(s)}`);
      }
      covered += s;
    }
    if (covered !== n) throw new RangeError(`groups must sum to rewards.length = ${n}, got ${covered}`);
    sizes = groups;
  } else {
    throw new TypeError(
      `groups must be a group size or an array of group sizes, got ${describeValue(groups)}`,
    );
  }
  const advantages = outBuffer('out', out, n);
  const count = sizes === undefined ? n / size : sizes.length;
  for (let g = 0, start = 0; g < count; g++) {
    const len = sizes === undefined ? size : sizes[g]!;
    const end = start + len;
    // Deviations from the first reward, divided by the largest: exact for close rewards (Sterbenz),
    // and in [-1, 1] so that neither their mean nor their squares underflow or overflow.
    const first = rewards[start]!;
    let scale = 0;
    for (let k = start; k < end; k++) scale = Math.max(scale, Math.abs(rewards[k]! - first));
    if (scale === 0) {
      for (let k = start; k < end; k++) advantages[k] = 0;
    } else {
      let mean = 0;
      for (let k = start; k < end; k++) mean += (rewards[k]! - first) / scale;
      mean /= len;
      let ss = 0;
      for (let k = start; k < end; k++) {
        const d = (rewards[k]! - first) / scale - mean;
        ss += d * d;
      }
      const inv = 1 / (Math.sqrt(ss / (sample ? len - 1 : len)) + epsilon / scale);
      for (let k = start; k < end; k++) advantages[k] = ((rewards[k]! - first) / scale - mean) * inv;
    }
    start = end;
  }
  return advantages;
}
