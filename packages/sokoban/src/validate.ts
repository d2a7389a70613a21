import { describeValue } from '@ftw/internal';

/**
 * Argument checks shared by the public entry points. Each throws a `TypeError` (wrong kind of value) or a
 * `RangeError` (right kind, wrong value) whose message names the parameter, the value received and what
 * was expected. Internal; not exported from the package.
 */

/**
 * @param value - the received options argument
 * @param name - the parameter name for the message
 * @throws TypeError when `value` is not a plain object
 */
export function checkObject<T>(value: T, name: string): asserts value is T & object {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || ArrayBuffer.isView(value)) {
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
 * @param value - the received option
 * @param name - the parameter name for the message
 * @param allowed - the accepted strings
 * @returns `value` when it is one of `allowed`
 * @throws TypeError when not one of them
 */
export function checkChoice<T extends string>(value: unknown, name: string, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new TypeError(
      `${name} must be one of ${allowed.map((a) => `'${a}'`).join(', ')}, got ${describeValue(value)}`,
    );
  }
  return value as T;
}

export { checkedUniform, checkInteger, checkSeed } from '@ftw/internal';
