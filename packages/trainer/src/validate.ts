// Checks of the public entry points' options: each names the parameter, the value received and what
// was expected (STYLE: validate once at the boundary, then run tight code on validated values).

/** @throws RangeError unless `value` is an integer ≥ `min` (and ≤ `max` when given). */
export function checkInteger(
  name: string,
  value: unknown,
  min: number,
  max = Number.POSITIVE_INFINITY,
): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    const range = max === Number.POSITIVE_INFINITY ? `>= ${min}` : `in ${min}..${max}`;
    throw new RangeError(`${name} must be an integer ${range}, got ${String(value)}`);
  }
  return value;
}

/** @throws RangeError unless `value` is a finite number ≥ `min` (> `min` when `strict`). */
export function checkNumber(name: string, value: unknown, min: number, strict = false): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || (strict && value === min)) {
    throw new RangeError(
      `${name} must be a finite number ${strict ? '>' : '>='} ${min}, got ${String(value)}`,
    );
  }
  return value;
}

/** @throws RangeError unless `value` is one of `choices`. */
export function checkChoice<T extends string>(name: string, value: unknown, choices: readonly T[]): T {
  if (!choices.includes(value as T)) {
    throw new RangeError(`${name} must be one of ${choices.join(', ')}, got ${String(value)}`);
  }
  return value as T;
}
