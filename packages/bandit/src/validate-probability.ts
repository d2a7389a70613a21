import { describeValue } from '@ftw/internal';
import { isArrayLike, toCheckedArray } from './validate.js';

/**
 * Argument checks for probabilities and probability vectors, in the style of `validate.ts`. Internal; not
 * exported from the package.
 */

/** Sum tolerance for probability vectors: a few ulps per entry of a softmax over thousands of actions. */
export const SUM_TOLERANCE = 1e-9;

/**
 * @param entry - the received entry
 * @param name - its name for the message
 * @returns `entry` when it is a number in [0, 1]
 * @throws TypeError when not a number; RangeError when outside [0, 1] or NaN
 */
export function checkProbability(entry: unknown, name: string): number {
  if (typeof entry !== 'number')
    throw new TypeError(`${name} must be a number in [0, 1], got ${describeValue(entry)}`);
  if (!(entry >= 0 && entry <= 1))
    throw new RangeError(`${name} must be a number in [0, 1], got ${describeValue(entry)}`);
  return entry;
}

/**
 * @param value - the received probability vector
 * @param name - the parameter name for the message
 * @param length - the required length
 * @returns a fresh `Float64Array` copy, entries in [0, 1] summing to 1 within {@link SUM_TOLERANCE}
 * @throws TypeError when not an array of numbers; RangeError on a wrong length, a bad entry or a bad sum
 */
export function toDistribution(value: unknown, name: string, length: number): Float64Array {
  if (isArrayLike(value) && value.length !== length) {
    throw new RangeError(`${name} must have length ${length}, got length ${value.length}`);
  }
  const out = toCheckedArray(value, name, checkProbability);
  let sum = 0;
  for (let i = 0; i < out.length; i++) sum += out[i]!;
  if (!(Math.abs(sum - 1) <= SUM_TOLERANCE)) {
    throw new RangeError(`${name} must sum to 1 (within ${SUM_TOLERANCE}), got a sum of ${sum}`);
  }
  return out;
}
