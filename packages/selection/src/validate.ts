import { describeValue } from '@ftw/internal';

/** Largest pool size: indices into the pool are stored in `Uint32Array`s. */
export const MAX_POOL_SIZE = 2 ** 32 - 1;

/**
 * Largest pool of returns (and `n` of the samplers): the samplers' permutation entries keep a flag in the
 * top bit. (A pool of 2^31 returns is 16 GiB of doubles, beyond any JavaScript heap.)
 */
export const MAX_SAMPLED_POOL_SIZE = 2 ** 31;

/**
 * Checks that `value` is an integer in [1, max].
 * @throws TypeError when `value` is not a number; RangeError when it is not a positive integer <= max.
 */
export function checkPositiveInteger(name: string, value: unknown, max: number = MAX_POOL_SIZE): number {
  if (typeof value !== 'number') {
    throw new TypeError(`${name} must be a positive integer, got ${describeValue(value)}`);
  }
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new RangeError(`${name} must be a positive integer <= ${max}, got ${describeValue(value)}`);
  }
  return value;
}

/**
 * Checks the sizes of one selection: `n >= batchSize >= keep >= 1`, all integers.
 * @throws TypeError or RangeError naming the offending parameter and its value.
 */
export function checkSizes(
  n: unknown,
  batchSize: unknown,
  keep: unknown,
  nName = 'n',
  maxN = MAX_POOL_SIZE,
): void {
  const size = checkPositiveInteger(nName, n, maxN);
  const c = checkPositiveInteger('batchSize', batchSize);
  const k = checkPositiveInteger('keep', keep);
  if (k > c) throw new RangeError(`keep must be <= batchSize (${c}), got ${k}`);
  if (c > size) throw new RangeError(`batchSize must be <= ${nName} (${size}), got ${c}`);
}

/**
 * Checks that `returns` is a non-empty array of finite numbers and gives it as a `Float64Array`
 * (the same object when it already is one).
 * @throws TypeError when `returns` is not array-like; RangeError when it is empty, too long or holds a
 * non-finite value.
 */
export function checkReturns(returns: unknown): Float64Array {
  if (
    returns === null ||
    typeof returns !== 'object' ||
    typeof (returns as { length?: unknown }).length !== 'number'
  ) {
    throw new TypeError(`returns must be an array or typed array of numbers, got ${describeValue(returns)}`);
  }
  const values = returns as ArrayLike<unknown>;
  if (values.length === 0) throw new RangeError('returns must not be empty, got length 0');
  if (values.length > MAX_SAMPLED_POOL_SIZE) {
    throw new RangeError(
      `returns must have at most ${MAX_SAMPLED_POOL_SIZE} items, got length ${values.length}`,
    );
  }
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== 'number') throw new TypeError(`returns[${i}] must be a number, got ${describeValue(v)}`);
    if (!Number.isFinite(v))
      throw new RangeError(`returns[${i}] must be a finite number, got ${describeValue(v)}`);
  }
  return values instanceof Float64Array ? values : Float64Array.from(values as ArrayLike<number>);
}

/**
 * Checks an optional return threshold: `undefined` or a finite number.
 * @throws RangeError or TypeError naming `threshold`.
 */
export function checkThreshold(threshold: unknown): number | undefined {
  if (threshold === undefined) return undefined;
  if (typeof threshold !== 'number') {
    throw new TypeError(`threshold must be a finite number or undefined, got ${describeValue(threshold)}`);
  }
  if (!Number.isFinite(threshold)) {
    throw new RangeError(`threshold must be a finite number or undefined, got ${describeValue(threshold)}`);
  }
  return threshold;
}

/**
 * Checks that `options` is an object.
 * @throws TypeError naming `options`.
 */
export function checkOptions(options: unknown): Record<string, unknown> {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`options must be an object, got ${describeValue(options)}`);
  }
  return options as Record<string, unknown>;
}
