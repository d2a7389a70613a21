import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { decodeRows, encodeRows } from './row-batch.js';

/** What must survive the crossing: each row's JSON text, and its keys as `for…in` lists them. */
const texts = (rows: readonly object[]): string[] => rows.map((row) => JSON.stringify(row));

const numbers = fc.oneof(
  fc.double(),
  fc.constantFrom(
    -0,
    0,
    5e-324,
    1.7976931348623157e308,
    1e21,
    1e-7,
    0.1 + 0.2,
    Number.NaN,
    Number.NEGATIVE_INFINITY,
  ),
  fc.integer(),
);
const flatValues = fc.oneof(
  numbers,
  fc.constant(null),
  fc.boolean(),
  fc.constant(undefined),
  fc.string({ unit: 'binary', maxLength: 8 }),
);
/** Rows of one shape: the same keys (integer-like ones included, which objects list first) in one order. */
const flatRows = fc
  .uniqueArray(fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('0', '7', 'seed', 'a b')), {
    maxLength: 8,
  })
  .filter((keys) => !keys.includes('__proto__'))
  .chain((keys) =>
    fc.array(
      fc.tuple(...keys.map(() => flatValues)).map((values) => {
        const row: Record<string, unknown> = {};
        keys.forEach((k, i) => {
          row[k] = values[i];
        });
        return row;
      }),
      { minLength: 1, maxLength: 12 },
    ),
  );

describe('encodeRows and decodeRows', () => {
  it('carry a seed row of the runner: numbers, null, booleans and an undefined field', () => {
    const rows = [
      { seed: 3, iteration: 1, reward: 0.1 + 0.2, evaluation: undefined, updated: false, eliteMean: null },
      { seed: 3, iteration: 2, reward: -0, evaluation: undefined, updated: true, eliteMean: 1e-300 },
    ];
    const batch = encodeRows(rows)!;
    expect(batch.keys).toEqual(['seed', 'iteration', 'reward', 'evaluation', 'updated', 'eliteMean']);
    expect(batch.rows).toBe(2);
    const back = decodeRows(batch);
    expect(texts(back)).toEqual(texts(rows));
    // The undefined field is left out, as JSON.stringify leaves it out; every other value is the same.
    expect(back[1]).toEqual({ seed: 3, iteration: 2, reward: -0, updated: true, eliteMean: 1e-300 });
    expect(Object.is(back[1]!['reward'], -0)).toBe(true);
    expect(Object.keys(back[0]!)).toEqual(['seed', 'iteration', 'reward', 'updated', 'eliteMean']);
  });

  it('carries strings by index, and a string is not taken for a number', () => {
    const rows = [
      { method: 'ftw', scenario: '1' },
      { method: 'grpo', scenario: '},{"' },
    ];
    const batch = encodeRows(rows)!;
    expect(batch.strings).toEqual(['ftw', '1', 'grpo', '},{"']);
    expect(decodeRows(batch)).toEqual(rows);
  });

  test.prop([flatRows])('give back rows that JSON.stringify writes byte for byte as before', (rows) => {
    const batch = encodeRows(rows);
    expect(batch).not.toBeNull();
    expect(texts(decodeRows(batch!))).toEqual(texts(rows));
  });

  it('refuse rows that are not flat or do not share their keys in one order (null: send them as they are)', () => {
    const refused: object[][] = [
      [{ a: 1, evaluation: { heldOutSuccess: 0.5 } }],
      [{ a: [1, 2] }],
      [{ a: 1n }],
      [{ a: () => 1 }],
      [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ],
      [{ a: 1, b: 2 }, { a: 1 }],
      [{ a: 1 }, { a: 1, b: 2 }],
      [{ a: 1 }, { b: 1 }],
      [{ a: 1 }, new Date(0)],
      [{ a: 1, toJSON: () => 'x' }],
      [JSON.parse('{"__proto__": 1}') as object],
      [
        new (class Row {
          a = 1;
        })(),
      ],
    ];
    for (const rows of refused)
      expect(
        encodeRows(rows),
        JSON.stringify(rows, (_, v) => String(v)),
      ).toBeNull();
  });

  it('accept objects without a prototype', () => {
    const row = Object.assign(Object.create(null) as object, { a: 1, b: 'x' });
    expect(texts(decodeRows(encodeRows([row])!))).toEqual(texts([row]));
  });
});
