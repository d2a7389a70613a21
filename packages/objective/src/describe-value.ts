/**
 * A short rendering of a received value for argument error messages: numbers as written (`-0`, `NaN`),
 * strings quoted, other values by kind. Internal; not exported from the package.
 *
 * @param value - any value
 * @returns a string of at most about 60 characters
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'string') {
    const quoted = JSON.stringify(value);
    return quoted.length > 60 ? `${quoted.slice(0, 57)}..."` : quoted;
  }
  if (typeof value === 'bigint') return `${value}n`;
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  if (ArrayBuffer.isView(value)) {
    const name = value.constructor.name;
    const length = (value as unknown as { length?: unknown }).length;
    return typeof length === 'number' ? `a ${name} of length ${length}` : `a ${name}`;
  }
  if (typeof value === 'object') {
    const name = Object.getPrototypeOf(value)?.constructor?.name;
    return typeof name === 'string' && name !== 'Object' ? `a ${name}` : 'an object';
  }
  return String(value);
}
