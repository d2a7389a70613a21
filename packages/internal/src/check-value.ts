import { describeValue } from './describe-value.js';

/**
 * Checks an integer argument at a public boundary (shared by the packages that validate the same way).
 *
 * @param value - the received number
 * @param name - the parameter name for the message
 * @param min - smallest allowed value
 * @param max - largest allowed value
 * @returns `value` when it is an integer in [min, max]
 * @throws TypeError when not a number; RangeError when not an integer in range
 * @example
 * ```ts
 * checkInteger(3, 'boxes', 1, 4); // 3
 * checkInteger(5, 'boxes', 1, 4); // RangeError: boxes must be an integer in [1, 4], got 5
 * ```
 */
export function checkInteger(value: unknown, name: string, min: number, max: number): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
  // The message is built only for a value that fails (a bandit's step checks its action every call).
  const expected =
    max === Number.MAX_SAFE_INTEGER ? `an integer >= ${min}` : `an integer in [${min}, ${max}]`;
  const message = `${name} must be ${expected}, got ${describeValue(value)}`;
  throw typeof value === 'number' ? new RangeError(message) : new TypeError(message);
}

/**
 * Checks a seed: any safe integer.
 *
 * @param value - the received seed
 * @param name - the parameter name for the message
 * @returns `value` when it is a safe integer
 * @throws TypeError when not a number; RangeError when not a safe integer
 * @example
 * ```ts
 * checkSeed(7, 'seed'); // 7
 * checkSeed(0.5, 'seed'); // RangeError: seed must be a safe integer, got 0.5
 * ```
 */
export function checkSeed(value: unknown, name: string): number {
  if (typeof value !== 'number')
    throw new TypeError(`${name} must be a safe integer, got ${describeValue(value)}`);
  if (!Number.isSafeInteger(value))
    throw new RangeError(`${name} must be a safe integer, got ${describeValue(value)}`);
  return value;
}

/**
 * Wraps an injected uniform generator so that every draw is checked: a generator that returns 1, a
 * negative number or NaN would otherwise bias results silently.
 *
 * @param random - the injected function
 * @param name - the parameter name for the message
 * @returns a function that returns `random()` and throws when it is outside [0, 1)
 * @throws TypeError when `random` is not a function
 * @example
 * ```ts
 * checkedUniform(() => 1, 'random')(); // RangeError: random() must return a number in [0, 1), got 1
 * ```
 */
export function checkedUniform(random: unknown, name: string): () => number {
  if (typeof random !== 'function')
    throw new TypeError(`${name} must be a function, got ${describeValue(random)}`);
  const draw = random as () => unknown;
  return () => {
    const u = draw();
    if (typeof u !== 'number' || !(u >= 0 && u < 1)) {
      throw new RangeError(`${name}() must return a number in [0, 1), got ${describeValue(u)}`);
    }
    return u;
  };
}
