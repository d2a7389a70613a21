import { describeValue } from '@ftw/internal';
import { MAX_MAGNITUDE } from './max-magnitude.js';
import type { Logits } from './types.js';

/*
 * Argument checks shared by the public functions. Each runs once at the boundary and throws a
 * RangeError/TypeError naming the parameter, the value received and what was expected, so that the
 * numeric kernels behind them can assume valid input. Internal; not exported from the package.
 *
 * No check returns a non-integer number: V8 boxes a double passed to or returned from a call it does
 * not inline as a heap object, and the training-loop entry points must not allocate per call.
 */

/** Written by {@link checkWeights}: the sum of the weights it validated. */
export const weightTotal = new Float64Array(1);

/** Throws unless `value` is an integer `>= min`; returns it. */
export function assertInteger(name: string, value: unknown, min: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new RangeError(`${name} must be an integer >= ${min}, got ${describeValue(value)}`);
  }
  return value;
}

/**
 * The RangeError for a value that should be a number in `[0, MAX_MAGNITUDE]`. Callers test the value
 * inline (`v >= 0 && v <= MAX_MAGNITUDE`) and call this only to throw: passing a double to a helper
 * that V8 does not inline would box it on every call.
 */
export function nonNegativeError(name: string, value: unknown): RangeError {
  return new RangeError(
    `${name} must be a finite number in [0, ${MAX_MAGNITUDE}], got ${describeValue(value)}`,
  );
}

/** The RangeError for a value that should be a number with `|value| <= MAX_MAGNITUDE` (see above). */
export function boundedError(name: string, value: unknown): RangeError {
  return new RangeError(
    `${name} must be a finite number with |value| <= ${MAX_MAGNITUDE}, got ${describeValue(value)}`,
  );
}

/** Throws unless `value` is array-like (an array or a typed array) of exactly `length` entries. */
export function assertArrayLike(
  name: string,
  value: unknown,
  length: number,
  what: string,
): ArrayLike<number> {
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof (value as { length?: unknown }).length !== 'number'
  ) {
    throw new TypeError(`${name} must be an array or typed array of ${what}, got ${describeValue(value)}`);
  }
  const array = value as ArrayLike<number>;
  if (array.length !== length) {
    throw new RangeError(`${name}.length must be ${what} = ${length}, got ${array.length}`);
  }
  return array;
}

/** Throws unless `value` is a Float32Array or Float64Array. */
export function assertLogitArray(name: string, value: unknown): Logits {
  if (!(value instanceof Float64Array || value instanceof Float32Array)) {
    throw new TypeError(`${name} must be a Float32Array or Float64Array, got ${describeValue(value)}`);
  }
  return value;
}

/**
 * Block length of {@link assertLogitValues}: the scan calls {@link firstOutOfRange} once per block, so
 * that V8 optimizes that function by its call count within the first large call, instead of entering
 * one long loop from the interpreter (boxing every element it reads there) on each call.
 */
const SCAN_BLOCK = 4096;

/** Index of the first entry of `values[from .. to)` that is not a number with `|v| <= MAX_MAGNITUDE`, or −1. */
function firstOutOfRange(values: ArrayLike<number>, from: number, to: number): number {
  for (let k = from; k < to; k++) {
    const v = values[k]!;
    if (!(v >= -MAX_MAGNITUDE && v <= MAX_MAGNITUDE)) return k;
  }
  return -1;
}

/** Throws unless every entry of `values` is a number with `|v| <= MAX_MAGNITUDE` (so not NaN or ±∞). */
export function assertLogitValues(name: string, values: ArrayLike<number>): void {
  for (let from = 0; from < values.length; from += SCAN_BLOCK) {
    const k = firstOutOfRange(values, from, Math.min(from + SCAN_BLOCK, values.length));
    if (k >= 0) throw logitValueError(name, k, values[k]);
  }
}

/** The RangeError for entry `k` of `name` that is not a number with `|v| <= MAX_MAGNITUDE`. */
export function logitValueError(name: string, k: number, value: unknown): RangeError {
  return new RangeError(
    `${name}[${k}] must be a finite number with |value| <= ${MAX_MAGNITUDE}, got ${describeValue(value)}`,
  );
}

/**
 * Checks `values[from .. to)` and finds their maximum in one pass: returns the index of the first entry
 * that is not a number with `|v| <= MAX_MAGNITUDE`, or −1 with the maximum written to `maxima[slot]`
 * (written here rather than returned, so that no double passes through the caller).
 */
export function scanRow(
  values: Logits,
  from: number,
  to: number,
  maxima: Float64Array,
  slot: number,
): number {
  let m = Number.NEGATIVE_INFINITY;
  for (let k = from; k < to; k++) {
    const v = values[k]!;
    if (!(v >= -MAX_MAGNITUDE && v <= MAX_MAGNITUDE)) return k;
    if (v > m) m = v;
  }
  maxima[slot] = m;
  return -1;
}

/** Validates the type and shape of a `rows × actions` logit matrix (not its values). */
export function assertLogitShape(name: string, value: unknown, rows: number, actions: number): Logits {
  const logits = assertLogitArray(name, value);
  if (logits.length !== rows * actions) {
    throw new RangeError(
      `${name}.length must equal rows × actions = ${rows * actions}, got ${logits.length}`,
    );
  }
  return logits;
}

/** Validates a `rows × actions` logit matrix: type, shape and values. */
export function assertLogits(name: string, value: unknown, rows: number, actions: number): Logits {
  const logits = assertLogitShape(name, value, rows, actions);
  assertLogitValues(name, logits);
  return logits;
}

/** Validates one action index per row, each an integer in `[0, actions)`. */
export function assertSelected(
  name: string,
  value: unknown,
  rows: number,
  actions: number,
): ArrayLike<number> {
  const selected = assertArrayLike(name, value, rows, 'rows');
  for (let i = 0; i < rows; i++) {
    const a = selected[i];
    if (typeof a !== 'number' || !Number.isInteger(a) || a < 0 || a >= actions) {
      throw new RangeError(
        `${name}[${i}] must be an integer action index in [0, ${actions}), got ${describeValue(a)}`,
      );
    }
  }
  return selected;
}

/** Validates `length` entries with `|v| <= MAX_MAGNITUDE`; returns the array. */
export function assertBoundedArray(
  name: string,
  value: unknown,
  length: number,
  what: string,
): ArrayLike<number> {
  const array = assertArrayLike(name, value, length, what);
  for (let i = 0; i < length; i++) {
    const v = array[i];
    if (typeof v !== 'number' || !(v >= -MAX_MAGNITUDE && v <= MAX_MAGNITUDE)) {
      throw new RangeError(
        `${name}[${i}] must be a finite number with |value| <= ${MAX_MAGNITUDE}, got ${describeValue(v)}`,
      );
    }
  }
  return array;
}

/** Validates `length` log-probabilities in `[−MAX_MAGNITUDE, 0]`; returns the array. */
export function assertLogProbArray(
  name: string,
  value: unknown,
  length: number,
  what: string,
): ArrayLike<number> {
  const array = assertArrayLike(name, value, length, what);
  for (let i = 0; i < length; i++) {
    const v = array[i];
    if (typeof v !== 'number' || !(v <= 0 && v >= -MAX_MAGNITUDE)) {
      throw new RangeError(
        `${name}[${i}] must be a log-probability in [-${MAX_MAGNITUDE}, 0], got ${describeValue(v)}`,
      );
    }
  }
  return array;
}

/**
 * Validates optional per-row weights (each in `[0, MAX_MAGNITUDE]`) and writes their sum to
 * {@link weightTotal}; `undefined` means all ones. With `needPositiveSum`, a zero total (nothing to
 * average over) is an error.
 */
export function checkWeights(name: string, value: unknown, rows: number, needPositiveSum: boolean): void {
  if (value === undefined) {
    weightTotal[0] = rows;
    return;
  }
  const weights = assertArrayLike(name, value, rows, 'rows');
  let sum = 0;
  for (let i = 0; i < rows; i++) {
    const w = weights[i];
    if (typeof w !== 'number' || !(w >= 0 && w <= MAX_MAGNITUDE)) {
      throw new RangeError(
        `${name}[${i}] must be a finite number in [0, ${MAX_MAGNITUDE}], got ${describeValue(w)}`,
      );
    }
    sum += w;
  }
  if (needPositiveSum && !(sum > 0)) {
    throw new RangeError(`${name} must have a positive sum to average over, got ${sum}`);
  }
  weightTotal[0] = sum;
}

/** Returns `out` if it is a Float64Array of `length` entries, a fresh one if `out` is undefined. */
export function outBuffer(name: string, out: unknown, length: number): Float64Array {
  if (out === undefined) return new Float64Array(length);
  if (!(out instanceof Float64Array) || out.length !== length) {
    throw new TypeError(`${name} must be a Float64Array of length ${length}, got ${describeValue(out)}`);
  }
  return out;
}

/** Throws if two typed arrays share bytes: a kernel that writes `a` while reading `b` would corrupt it. */
export function assertNoOverlap(nameA: string, a: ArrayBufferView, nameB: string, b: unknown): void {
  if (!ArrayBuffer.isView(b) || a.buffer !== b.buffer) return;
  const aEnd = a.byteOffset + a.byteLength;
  const bEnd = b.byteOffset + b.byteLength;
  if (a.byteOffset < bEnd && b.byteOffset < aEnd) {
    throw new RangeError(`${nameA} must not share memory with ${nameB}`);
  }
}

/** Throws unless `value` is one of `allowed`; returns it. */
export function assertOneOf<T extends string>(name: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    const list = allowed.map((a) => `'${a}'`).join(' or ');
    throw new RangeError(`${name} must be ${list}, got ${describeValue(value)}`);
  }
  return value as T;
}

/** The shape shared by every loss over categorical logits: rows × actions, one selected action per row. */
export interface CategoricalBatch {
  rows: number;
  actions: number;
  logits: Logits;
  selected: ArrayLike<number>;
}

// One result object, refilled by every call, so that validation allocates nothing (callers destructure it
// at once; the checks are synchronous).
const checkedBatch: CategoricalBatch = { rows: 0, actions: 0, logits: new Float64Array(0), selected: [] };

/**
 * Validates the common part of a loss's input: an object with positive integer `rows` and `actions`,
 * finite bounded `logits` of that shape and one valid action index per row in `selected`.
 * @returns a shared object, overwritten by the next call: destructure it at once.
 * @throws TypeError or RangeError naming the offending field.
 */
export function checkCategoricalBatch(input: unknown): CategoricalBatch {
  if (typeof input !== 'object' || input === null) {
    throw new TypeError(`input must be an object, got ${describeValue(input)}`);
  }
  const i = input as { rows?: unknown; actions?: unknown; logits?: unknown; selected?: unknown };
  const rows = assertInteger('rows', i.rows, 1);
  const actions = assertInteger('actions', i.actions, 1);
  const logits = assertLogits('logits', i.logits, rows, actions);
  const selected = assertSelected('selected', i.selected, rows, actions);
  checkedBatch.rows = rows;
  checkedBatch.actions = actions;
  checkedBatch.logits = logits;
  checkedBatch.selected = selected;
  return checkedBatch;
}
