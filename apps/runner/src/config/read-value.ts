import { UsageError } from '../cli/usage-error.js';

/**
 * Readers that turn one raw configuration value (a flag's string or a JSON value from a config file) into a
 * typed value, or throw a {@link UsageError} that names the flag or key, the value and what is allowed.
 * They are the single validation boundary of the CLI: everything after them runs on checked values.
 */

const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || value === undefined) return String(value);
  return String(JSON.stringify(value) ?? value);
}

function toNumber(value: unknown, integer: boolean): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (!(integer ? INTEGER : NUMBER).test(text)) return undefined;
  return Number(text);
}

/** Bounds for {@link readInteger}. */
export interface IntegerBounds {
  /** Smallest allowed value. @defaultValue 0 */
  readonly min?: number;
  /** Largest allowed value. @defaultValue Number.MAX_SAFE_INTEGER */
  readonly max?: number;
}

/**
 * Reads an integer in `[min, max]`.
 *
 * @param value - a number or a string of decimal digits
 * @param label - how the user named it (`--batch-size`, or `batchSize in cfg.json`)
 * @param bounds - the allowed range
 * @returns the integer
 * @throws {@link UsageError} when it is not an integer in range
 * @example
 * ```ts
 * readInteger('5', '--batch-size', { min: 1 }); // 5
 * ```
 */
export function readInteger(value: unknown, label: string, bounds: IntegerBounds = {}): number {
  const min = bounds.min ?? 0;
  const max = bounds.max ?? Number.MAX_SAFE_INTEGER;
  const n = toNumber(value, true);
  if (n === undefined || !Number.isSafeInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `in [${min}, ${max}]`;
    throw new UsageError(`${label} must be an integer ${range}, got ${show(value)}`);
  }
  return n;
}

/** Bounds for {@link readNumber}. */
export interface NumberBounds {
  /** Smallest allowed value (inclusive unless `exclusiveMin`). @defaultValue -Infinity */
  readonly min?: number;
  /** Whether `min` itself is excluded. @defaultValue false */
  readonly exclusiveMin?: boolean;
  /** Largest allowed value (inclusive). @defaultValue Infinity */
  readonly max?: number;
}

function describeBounds(bounds: NumberBounds): string {
  const parts: string[] = [];
  if (bounds.min !== undefined) parts.push(`${bounds.exclusiveMin === true ? '>' : '>='} ${bounds.min}`);
  if (bounds.max !== undefined) parts.push(`<= ${bounds.max}`);
  return parts.length === 0 ? '' : ` ${parts.join(' and ')}`;
}

/**
 * Reads a finite number within bounds.
 *
 * @param value - a number or a decimal string (`0.08`, `1e-3`)
 * @param label - how the user named it
 * @param bounds - the allowed range
 * @returns the number
 * @throws {@link UsageError} when it is not a finite number in range
 * @example
 * ```ts
 * readNumber('0.08', '--lr', { min: 0, exclusiveMin: true }); // 0.08
 * ```
 */
export function readNumber(value: unknown, label: string, bounds: NumberBounds = {}): number {
  const x = toNumber(value, false);
  const min = bounds.min ?? Number.NEGATIVE_INFINITY;
  const max = bounds.max ?? Number.POSITIVE_INFINITY;
  const ok =
    x !== undefined && Number.isFinite(x) && (bounds.exclusiveMin === true ? x > min : x >= min) && x <= max;
  if (!ok)
    throw new UsageError(`${label} must be a finite number${describeBounds(bounds)}, got ${show(value)}`);
  return x;
}

/**
 * Reads one of a fixed set of words.
 *
 * @param value - the word
 * @param label - how the user named it
 * @param choices - the allowed words
 * @returns the word, typed as one of `choices`
 * @throws {@link UsageError} listing the allowed words
 * @example
 * ```ts
 * readChoice('adam', '--optimizer', ['sgd', 'adam'] as const); // 'adam'
 * ```
 */
export function readChoice<T extends string>(value: unknown, label: string, choices: readonly T[]): T {
  if (typeof value === 'string' && (choices as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${label} must be one of ${choices.join(', ')}, got ${show(value)}`);
}

/**
 * Reads a non-empty list of finite numbers within bounds, from a JSON array or a comma-separated string.
 *
 * @param value - `[1, 0.3]` or `'1,0.3'`
 * @param label - how the user named it
 * @param bounds - the allowed range of every element
 * @returns the numbers
 * @throws {@link UsageError} when the list is empty or an element is out of range
 * @example
 * ```ts
 * readNumberList('1,0.3', '--means'); // [1, 0.3]
 * ```
 */
export function readNumberList(value: unknown, label: string, bounds: NumberBounds = {}): number[] {
  const items = typeof value === 'string' ? value.split(',') : value;
  if (!Array.isArray(items) || items.length === 0 || items.some((x) => x === '')) {
    throw new UsageError(
      `${label} must be a non-empty comma-separated list of numbers${describeBounds(bounds)}, got ${show(value)}`,
    );
  }
  return items.map((item, i) => readNumber(item, `${label}[${i}]`, bounds));
}

/**
 * Reads a list of lists of numbers (one list per task), from a JSON array of arrays or a string with lists
 * separated by `;` (`'1,0.3;0.2,0.9'`).
 *
 * @param value - the lists
 * @param label - how the user named it
 * @param bounds - the allowed range of every element
 * @returns the lists, all of the same length
 * @throws {@link UsageError} when a list is empty, the lengths differ or an element is out of range
 * @example
 * ```ts
 * readNumberTable('1,0.3;0.2,0.9', '--task-means'); // [[1, 0.3], [0.2, 0.9]]
 * ```
 */
export function readNumberTable(value: unknown, label: string, bounds: NumberBounds = {}): number[][] {
  const rows = typeof value === 'string' ? value.split(';') : value;
  if (!Array.isArray(rows) || rows.length === 0) {
    throw new UsageError(`${label} must be a non-empty list of number lists (a;b;c), got ${show(value)}`);
  }
  const table = rows.map((row, i) => readNumberList(row, `${label}[${i}]`, bounds));
  const width = table[0]!.length;
  if (table.some((row) => row.length !== width)) {
    throw new UsageError(
      `${label} must have lists of equal length, got lengths ${table.map((r) => r.length)}`,
    );
  }
  return table;
}

/** Largest seed accepted: seeds feed 32-bit generators. */
export const MAX_SEED = 0x7fffffff;

/**
 * Reads a list of distinct seeds: `'0,1,2'`, a range `'0..9'` (inclusive), or a JSON array of integers.
 *
 * @param value - the seeds
 * @param label - how the user named it
 * @returns the seeds in the given order
 * @throws {@link UsageError} when a seed is not an integer in [0, 2^31 − 1], or seeds repeat
 * @example
 * ```ts
 * readSeeds('0..3', '--seeds'); // [0, 1, 2, 3]
 * ```
 */
export function readSeeds(value: unknown, label: string): number[] {
  let seeds: number[];
  const range = typeof value === 'string' ? /^(\d+)\.\.(\d+)$/.exec(value.trim()) : null;
  if (range !== null) {
    const from = readInteger(range[1], `${label} (range start)`, { max: MAX_SEED });
    const to = readInteger(range[2], `${label} (range end)`, {
      min: from,
      max: Math.min(MAX_SEED, from + 9999),
    });
    seeds = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  } else {
    const items = typeof value === 'string' ? value.split(',') : value;
    if (!Array.isArray(items) || items.length === 0) {
      throw new UsageError(`${label} must be a list like 0,1,2 or a range like 0..9, got ${show(value)}`);
    }
    seeds = items.map((item, i) => readInteger(item, `${label}[${i}]`, { max: MAX_SEED }));
  }
  if (new Set(seeds).size !== seeds.length) {
    throw new UsageError(`${label} must not repeat a seed, got ${show(value)}`);
  }
  return seeds;
}

/**
 * Reads an optional number: `'none'` (or JSON `null`) means absent.
 *
 * @param value - a number, a decimal string, `'none'` or `null`
 * @param label - how the user named it
 * @param bounds - the allowed range when a number is given
 * @returns the number, or `null` when absent
 * @throws {@link UsageError} when it is neither absent nor a finite number
 * @example
 * ```ts
 * readOptionalNumber('none', '--threshold'); // null
 * readOptionalNumber('0', '--threshold'); // 0
 * ```
 */
export function readOptionalNumber(value: unknown, label: string, bounds: NumberBounds = {}): number | null {
  if (value === null || value === 'none') return null;
  try {
    return readNumber(value, label, bounds);
  } catch {
    throw new UsageError(
      `${label} must be "none" or a finite number${describeBounds(bounds)}, got ${show(value)}`,
    );
  }
}
