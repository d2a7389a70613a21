import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../cli/usage-error.js';
import {
  readChoice,
  readInteger,
  readNumber,
  readNumberList,
  readNumberTable,
  readOptionalNumber,
  readSeeds,
} from './read-value.js';

describe('readInteger', () => {
  it('reads integers from strings and numbers', () => {
    expect(readInteger('5', '--batch-size', { min: 1 })).toBe(5);
    expect(readInteger(7, 'keep in cfg.json', { min: 1 })).toBe(7);
    expect(readInteger(' +12 ', '--n')).toBe(12);
  });

  it('names the flag, the value and the allowed range', () => {
    expect(() => readInteger('abc', '--batch-size', { min: 1 })).toThrow(
      new UsageError('--batch-size must be an integer >= 1, got "abc"'),
    );
    expect(() => readInteger('2.5', '--keep', { min: 1, max: 5 })).toThrow(
      new UsageError('--keep must be an integer in [1, 5], got "2.5"'),
    );
    expect(() => readInteger(0, 'capacity in c.json', { min: 1 })).toThrow(
      /capacity in c.json must be an integer >= 1, got 0/,
    );
    expect(() => readInteger(true, '--n')).toThrow(UsageError);
  });

  test.prop([fc.string()])('either returns an in-range integer or throws a UsageError', (text) => {
    try {
      const n = readInteger(text, '--x', { min: 1, max: 100 });
      expect(Number.isInteger(n) && n >= 1 && n <= 100).toBe(true);
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError);
    }
  });
});

describe('readNumber', () => {
  it('reads decimals and exponents', () => {
    expect(readNumber('0.08', '--lr', { min: 0, exclusiveMin: true })).toBe(0.08);
    expect(readNumber('1e-3', '--lr')).toBe(0.001);
    expect(readNumber('-.5', '--threshold')).toBe(-0.5);
  });

  it('rejects non-numbers, non-finite values and out-of-range values', () => {
    expect(() => readNumber('fast', '--lr', { min: 0, exclusiveMin: true })).toThrow(
      new UsageError('--lr must be a finite number > 0, got "fast"'),
    );
    expect(() => readNumber('0', '--lr', { min: 0, exclusiveMin: true })).toThrow(
      /--lr must be a finite number > 0/,
    );
    expect(() => readNumber('Infinity', '--beta', { min: 0 })).toThrow(/--beta must be a finite number >= 0/);
    expect(() => readNumber(Number.NaN, '--beta')).toThrow(/got NaN/);
    expect(() => readNumber('2', '--p', { min: 0, max: 1 })).toThrow(
      /--p must be a finite number >= 0 and <= 1, got "2"/,
    );
  });
});

describe('readChoice', () => {
  it('accepts the allowed words and lists them otherwise', () => {
    expect(readChoice('adam', '--optimizer', ['sgd', 'adam'])).toBe('adam');
    expect(() => readChoice('rmsprop', '--optimizer', ['sgd', 'adam'])).toThrow(
      new UsageError('--optimizer must be one of sgd, adam, got "rmsprop"'),
    );
  });
});

describe('readNumberList', () => {
  it('reads comma-separated strings and arrays', () => {
    expect(readNumberList('1,0.3', '--means')).toEqual([1, 0.3]);
    expect(readNumberList([0.2, 0.5], 'probs in c.json', { min: 0, max: 1 })).toEqual([0.2, 0.5]);
  });

  it('names the bad element', () => {
    expect(() => readNumberList('1,x', '--means')).toThrow(
      new UsageError('--means[1] must be a finite number, got "x"'),
    );
    expect(() => readNumberList('', '--means')).toThrow(/--means must be a non-empty comma-separated list/);
    expect(() => readNumberList('0.5,1.5', '--probs', { min: 0, max: 1 })).toThrow(/--probs\[1\]/);
  });
});

describe('readNumberTable', () => {
  it('reads lists separated by semicolons', () => {
    expect(readNumberTable('1,0.3;0.3,1', '--task-means')).toEqual([
      [1, 0.3],
      [0.3, 1],
    ]);
  });

  it('rejects ragged tables', () => {
    expect(() => readNumberTable('1,0.3;1', '--task-means')).toThrow(
      new UsageError('--task-means must have lists of equal length, got lengths 2,1'),
    );
    expect(() => readNumberTable(42, '--task-means')).toThrow(/non-empty list of number lists/);
  });
});

describe('readSeeds', () => {
  it('reads lists and inclusive ranges', () => {
    expect(readSeeds('0,1,2', '--seeds')).toEqual([0, 1, 2]);
    expect(readSeeds('3..6', '--seeds')).toEqual([3, 4, 5, 6]);
    expect(readSeeds([7, 9], 'seeds in c.json')).toEqual([7, 9]);
  });

  it('rejects repeats, negatives and reversed ranges', () => {
    expect(() => readSeeds('1,1', '--seeds')).toThrow(
      new UsageError('--seeds must not repeat a seed, got "1,1"'),
    );
    expect(() => readSeeds('-1', '--seeds')).toThrow(
      /--seeds\[0\] must be an integer in \[0, 2147483647\], got "-1"/,
    );
    expect(() => readSeeds('5..2', '--seeds')).toThrow(/--seeds \(range end\)/);
    expect(() => readSeeds({}, '--seeds')).toThrow(/list like 0,1,2 or a range like 0..9/);
  });
});

describe('readOptionalNumber', () => {
  it('reads none as null and numbers as numbers', () => {
    expect(readOptionalNumber('none', '--threshold')).toBeNull();
    expect(readOptionalNumber(null, 'threshold in c.json')).toBeNull();
    expect(readOptionalNumber('0.5', '--threshold')).toBe(0.5);
  });

  it('says both forms are allowed', () => {
    expect(() => readOptionalNumber('low', '--threshold')).toThrow(
      new UsageError('--threshold must be "none" or a finite number, got "low"'),
    );
  });
});
