import { checkFinite, checkNonNegative, toCheckedArray } from './validate.js';
import { checkProbability } from './validate-probability.js';

/**
 * The validated arms of one task: a Gaussian task samples `means[a] + stds[a]·Z`, a Bernoulli task
 * samples `1` with probability `means[a]`. Internal; not exported from the package.
 */
export interface ArmTable {
  readonly gaussian: boolean;
  /** Expected reward per arm (the success probability for Bernoulli arms). */
  readonly means: Float64Array;
  /** Standard deviation per arm; zeros for Bernoulli arms (unused). */
  readonly stds: Float64Array;
  /** Lowest index of the largest mean. */
  readonly best: number;
  /** The largest mean. */
  readonly bestMean: number;
}

function argMax(values: Float64Array): number {
  let best = 0;
  for (let a = 1; a < values.length; a++) if (values[a]! > values[best]!) best = a;
  return best;
}

/**
 * @param means - expected reward per arm (the optimum is found here)
 * @param stds - standard deviation per arm
 * @param gaussian - whether the arms are Gaussian
 * @returns the table with its best arm
 */
export function makeTable(means: Float64Array, stds: Float64Array, gaussian: boolean): ArmTable {
  const best = argMax(means);
  return { gaussian, means, stds, best, bestMean: means[best]! };
}

/**
 * @param means - the received means
 * @param stds - the received standard deviations: an array as long as `means`, or one number for all arms
 * @param prefix - the path of the options object in messages (`''` or `tasks[2].`)
 * @returns a Gaussian table
 * @throws TypeError/RangeError naming `means`, `stds` or an entry of them
 */
export function gaussianTable(means: unknown, stds: unknown, prefix: string): ArmTable {
  const checkedMeans = toCheckedArray(means, `${prefix}means`, checkFinite);
  let checkedStds: Float64Array;
  if (typeof stds === 'number') {
    checkedStds = new Float64Array(checkedMeans.length).fill(checkNonNegative(stds, `${prefix}stds`));
  } else {
    checkedStds = toCheckedArray(stds, `${prefix}stds`, checkNonNegative);
    if (checkedStds.length !== checkedMeans.length) {
      throw new RangeError(
        `${prefix}stds must have one entry per arm (${checkedMeans.length}, the length of ${prefix}means), got length ${checkedStds.length}`,
      );
    }
  }
  return makeTable(checkedMeans, checkedStds, true);
}

/**
 * @param probabilities - the received success probabilities
 * @param prefix - the path of the options object in messages (`''` or `tasks[2].`)
 * @returns a Bernoulli table
 * @throws TypeError/RangeError naming `probabilities` or one of its entries
 */
export function bernoulliTable(probabilities: unknown, prefix: string): ArmTable {
  const checked = toCheckedArray(probabilities, `${prefix}probabilities`, checkProbability);
  return makeTable(checked, new Float64Array(checked.length), false);
}
