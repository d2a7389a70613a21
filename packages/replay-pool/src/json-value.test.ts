import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { cloneJsonValue, type JsonValue } from './json-value.js';

describe('cloneJsonValue', () => {
  test.prop([fc.jsonValue()])('returns a frozen copy equal to its JSON round trip', (value) => {
    const copy = cloneJsonValue(value, 'm');
    expect(copy).toEqual(JSON.parse(JSON.stringify(value)));
    if (typeof value === 'object' && value !== null) {
      expect(copy).not.toBe(value);
      expect(Object.isFrozen(copy)).toBe(true);
    }
  });

  it('turns -0 into 0, as JSON text does', () => {
    expect(Object.is(cloneJsonValue(-0, 'm'), 0)).toBe(true);
    expect(Object.is((cloneJsonValue([-0], 'm') as number[])[0], 0)).toBe(true);
  });

  it('accepts null-prototype objects', () => {
    const value = Object.assign(Object.create(null), { a: 1 }) as JsonValue;
    expect(cloneJsonValue(value, 'm')).toEqual({ a: 1 });
  });

  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  const sparse: unknown[] = [1];
  sparse[2] = 3;
  let deep: unknown = 0;
  for (let i = 0; i < 300; i++) deep = [deep];
  it.each([
    [
      'undefined',
      { a: undefined },
      'm.a must be JSON (null, boolean, string, finite number, array or plain object), got undefined',
    ],
    ['NaN', [1, Number.NaN], 'm[1] must be a finite number to be JSON, got NaN'],
    ['Infinity', Number.POSITIVE_INFINITY, 'm must be a finite number to be JSON, got Infinity'],
    ['a function', { f: () => 1 }, 'm.f must be JSON'],
    ['a bigint', 1n, 'm must be JSON (null, boolean, string, finite number, array or plain object), got 1n'],
    ['a symbol', Symbol('s'), 'm must be JSON'],
    ['a Map', new Map(), 'm must be a plain object to be JSON, got a Map'],
    ['a typed array', new Float64Array(2), 'got a Float64Array'],
    ['an object with toJSON', { toJSON: () => 1 }, 'm must be a plain object to be JSON, got an object'],
    ['a sparse array', sparse, 'm[1] must be JSON, got a hole in a sparse array'],
    ['a cycle', cyclic, 'm.self must not contain a cycle'],
    ['nesting 300 deep', deep, 'must nest at most 256 levels deep'],
  ])('refuses %s with a TypeError naming the place', (_, value, message) => {
    expect(() => cloneJsonValue(value, 'm')).toThrow(TypeError);
    expect(() => cloneJsonValue(value, 'm')).toThrow(message);
  });

  it('accepts the same object twice when it is not a cycle', () => {
    const shared = { x: 1 };
    expect(cloneJsonValue({ a: shared, b: shared }, 'm')).toEqual({ a: { x: 1 }, b: { x: 1 } });
  });
});
