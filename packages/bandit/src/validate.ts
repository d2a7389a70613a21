import { describeValue } from '@ftw/internal';

/**
 * Argument checks shared by the public entry points (probabilities: `validate-probability.ts`). Each throws a `TypeError` (wrong kind of value) or a
 * `RangeError` (right kind, wrong value) whose message names the parameter, the value received and what
 * was expected. Internal; not exported from the package.
 */

/**
 * @param value - any value
 * @returns whether `value` is an array or a typed array
 */
export function isArrayLike(value: unknown): value is ArrayLike<unknown> {
  return Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView));
}

/**
 * @param value - the received options argument
 * @param name - the parameter name for the message
 * @throws TypeError when `value` is not a plain object
 */
export function checkObject<T>(value: T, name: string): asserts value is T & object {
  if (typeof value !== 'object' || value === null || isArrayLike(value)) {
    throw new TypeError(`${name} must be an object, got ${describeValue(value)}`);
  }
}

/**
 * @param value - the received number
 * @param name - the parameter name for the message
 * @returns `value` when it is a finite number
 * @throws TypeError when not a number; RangeError when NaN or infinite
 */
export function checkFinite(value: unknown, name: string): number {
  if (typeof value !== 'number')
    throw new TypeError(`${name} must be a finite number, got ${describeValue(value)}`);
  if (!Number.isFinite(value))
    throw new RangeError(`${name} must be a finite number, got ${describeValue(value)}`);
  return value;
}

/**
 * @param value - the received array of numbers
 * @param name - the parameter name for the message
 * @param check - the per-entry check, given the entry and its name (`means[2]`)
 * @returns a fresh `Float64Array` copy of the checked entries
 * @throws TypeError when not an array; RangeError when empty; whatever `check` throws
 */
export function toCheckedArray(
  value: unknown,
  name: string,
  check: (entry: unknown, entryName: string) => number,
): Float64Array {
  if (!isArrayLike(value))
    throw new TypeError(`${name} must be an array of numbers, got ${describeValue(value)}`);
  if (value.length === 0) throw new RangeError(`${name} must hold at least one arm, got an empty array`);
  const out = new Float64Array(value.length);
  for (let i = 0; i < value.length; i++) out[i] = check(value[i], `${name}[${i}]`);
  return out;
}

/**
 * @param entry - the received entry
 * @param name - its name for the message
 * @returns `entry` when it is a finite number >= 0
 * @throws TypeError when not a number; RangeError when negative, NaN or infinite
 */
export function checkNonNegative(entry: unknown, name: string): number {
  if (typeof entry !== 'number') {
    throw new TypeError(`${name} must be a finite number >= 0, got ${describeValue(entry)}`);
  }
  if (!(entry >= 0 && entry < Number.POSITIVE_INFINITY)) {
    throw new RangeError(`${name} must be a finite number >= 0, got ${describeValue(entry)}`);
  }
  return entry;
}

export { checkInteger, checkSeed } from '@ftw/internal';
