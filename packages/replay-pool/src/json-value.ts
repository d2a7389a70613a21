import { describeValue } from '@ftw/internal';

/**
 * A value that survives `JSON.stringify` and `JSON.parse` unchanged: `null`, a boolean, a string, a
 * finite number, an array of JSON values, or a plain object of JSON values. Trajectory metadata has this
 * type; a snapshot stores it as JSON text.
 *
 * @example
 * ```ts
 * const metadata: JsonValue = { env: 'bandit', seed: 7, tags: ['eval'] };
 * ```
 */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

/** Deepest nesting accepted in metadata; deeper values would risk the call stack in JSON.stringify. */
const MAX_DEPTH = 256;

function check(value: unknown, name: string, depth: number, ancestors: Set<object>): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return;
    throw new TypeError(`${name} must be a finite number to be JSON, got ${describeValue(value)}`);
  }
  if (typeof value !== 'object') {
    throw new TypeError(
      `${name} must be JSON (null, boolean, string, finite number, array or plain object), got ${describeValue(value)}`,
    );
  }
  if (depth >= MAX_DEPTH) throw new TypeError(`${name} must nest at most ${MAX_DEPTH} levels deep`);
  if (ancestors.has(value))
    throw new TypeError(`${name} must not contain a cycle, got a reference to an ancestor`);
  ancestors.add(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) throw new TypeError(`${name}[${i}] must be JSON, got a hole in a sparse array`);
      check(value[i], `${name}[${i}]`, depth + 1, ancestors);
    }
  } else {
    const proto = Object.getPrototypeOf(value);
    if ((proto !== Object.prototype && proto !== null) || 'toJSON' in value) {
      throw new TypeError(`${name} must be a plain object to be JSON, got ${describeValue(value)}`);
    }
    for (const key of Object.keys(value)) {
      check((value as Record<string, unknown>)[key], `${name}.${key}`, depth + 1, ancestors);
    }
  }
  ancestors.delete(value);
}

/**
 * Freezes a JSON value and everything inside it. Internal.
 *
 * @param value - a JSON value
 * @returns the same value, frozen
 */
export function freezeJsonValue(value: JsonValue): JsonValue {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) freezeJsonValue(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * Validates that `value` is a {@link JsonValue} and returns a deep-frozen copy made through JSON text,
 * so the stored value is exactly what a snapshot round trip gives back (`-0` becomes `0`).
 * Internal; not exported from the package.
 *
 * @param value - the candidate metadata
 * @param name - the parameter name used in error messages
 * @returns a frozen copy, or the value itself when it is a primitive
 * @throws TypeError when `value` or anything inside it is not JSON
 */
export function cloneJsonValue(value: unknown, name: string): JsonValue {
  check(value, name, 0, new Set());
  if (value === null || typeof value !== 'object')
    return typeof value === 'number' ? value + 0 : (value as JsonValue);
  return freezeJsonValue(JSON.parse(JSON.stringify(value)) as JsonValue);
}
