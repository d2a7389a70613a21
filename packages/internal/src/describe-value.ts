/**
 * A short rendering of a received value for argument error messages: numbers as written (`-0`, `NaN`),
 * strings quoted (cut at 60 characters), typed arrays and arrays with their length, other objects by kind.
 *
 * @param value - any value
 * @returns a string of at most about 60 characters
 * @example
 * ```ts
 * describeValue(-0); // '-0'
 * describeValue('abc'); // '"abc"'
 * describeValue(new Int32Array(3)); // 'an Int32Array of length 3'
 * ```
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'string') {
    const quoted = JSON.stringify(value);
    return quoted.length > 60 ? `${quoted.slice(0, 57)}..."` : quoted;
  }
  if (typeof value === 'bigint') return `${value}n`;
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  if (typeof value === 'object') {
    const name = Object.getPrototypeOf(value)?.constructor?.name;
    if (typeof name !== 'string' || name === 'Object') return 'an object';
    const kind = /^[AEIOU]/.test(name) ? `an ${name}` : `a ${name}`;
    const length = (value as { length?: unknown }).length;
    return ArrayBuffer.isView(value) && typeof length === 'number' ? `${kind} of length ${length}` : kind;
  }
  return String(value);
}
