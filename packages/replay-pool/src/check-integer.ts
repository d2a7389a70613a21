import { describeValue } from '@ftw/internal';

/**
 * Checks an integer argument once at the public boundary. Internal.
 *
 * @param value - the argument received
 * @param name - its name, for the message
 * @param min - smallest value allowed
 * @param max - largest value allowed
 * @returns `value`, now known to be an integer in [min, max]
 * @throws RangeError `<name> must be an integer in [min, max], got <value>`
 */
export function checkInteger(value: unknown, name: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer in [${min}, ${max}], got ${describeValue(value)}`);
  }
  return value;
}
