import { describe, expect, it } from 'vitest';
import { describeValue } from './describe-value.js';

describe('describeValue', () => {
  it.each([
    [-0, '-0'],
    [Number.NaN, 'NaN'],
    [1.5, '1.5'],
    ['x', '"x"'],
    ['y'.repeat(100), `"${'y'.repeat(56)}..."`],
    [3n, '3n'],
    [null, 'null'],
    [undefined, 'undefined'],
    [[1, 2], 'an array of length 2'],
    [{}, 'an object'],
    [Object.create(null), 'an object'],
    [new Int32Array(1), 'an Int32Array of length 1'],
    [new Float64Array(3), 'a Float64Array of length 3'],
    [new Map(), 'a Map'],
    [true, 'true'],
  ])('renders %s as %s', (value, expected) => {
    expect(describeValue(value)).toBe(expected);
  });
});
