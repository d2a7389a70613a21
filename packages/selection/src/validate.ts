import { describeValue } from '@ftw/internal';

/** Largest pool size: indices into the pool are stored in `Uint32Array`s. */
export const MAX_POOL_SIZE = 2 ** 32 - 1;

/**
 * Largest pool of returns (and `n` of the samplers), as documented since the first release (the samplers
 * once kept a flag in the top bit of each permutation entry). A pool of 2^31 returns is 16 GiB of
 * doubles, beyond any JavaScript heap.
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
  // The common case in one pass with no branch per item; the checks below name the offending item.
  if (
    returns instanceof Float64Array &&
    returns.length > 0 &&
    returns.length <= MAX_SAMPLED_POOL_SIZE &&
    allFinite(returns)
  ) {
    return returns;
  }
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
 * Checks `returns` for a sampler that checks each value as it reads it: a `Float64Array` of 1 to 2^31
 * items is returned as is, without a pass over its values (so a call that draws J·C items does not scan
 * a pool of n); any other array is checked whole and copied, as by {@link checkReturns}.
 * @throws TypeError when `returns` is not array-like; RangeError when it is empty or too long, or when
 * an array that is not a Float64Array holds a non-finite value.
 */
export function checkReturnsToRead(returns: unknown): Float64Array {
  if (returns instanceof Float64Array && returns.length > 0 && returns.length <= MAX_SAMPLED_POOL_SIZE) {
    return returns;
  }
  return checkReturns(returns);
}

/**
 * Throws the error {@link checkReturns} gives for a non-finite return, for the samplers that check each
 * return as they read it (`score - score === 0` holds exactly for finite scores).
 * @throws RangeError naming `returns[item]` and its value, always.
 */
export function nonFiniteReturn(item: number, value: number): never {
  throw new RangeError(`returns[${item}] must be a finite number, got ${describeValue(value)}`);
}

/**
 * Whether every value is finite: x·0 is 0 for a finite x and NaN for ±Infinity and NaN, and a sum that
 * meets a NaN stays NaN. Four sums, so that the additions do not wait on one another.
 */
function allFinite(values: Float64Array): boolean {
  const n = values.length;
  const whole = n - (n & 3);
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  let i = 0;
  for (; i < whole; i += 4) {
    a += values[i]! * 0;
    b += values[i + 1]! * 0;
    c += values[i + 2]! * 0;
    d += values[i + 3]! * 0;
  }
  for (; i < n; i++) a += values[i]! * 0;
  return a + b + c + d === 0;
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
