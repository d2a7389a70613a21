import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { ndjson, ndjsonChunks } from './ndjson.js';

/** The definition: one JSON.stringify per row, each followed by a newline. */
const reference = (rows: readonly unknown[]): string =>
  rows.map((row) => `${JSON.stringify(row)}\n`).join('');

const numbers = fc.oneof(
  fc.double(),
  fc.constantFrom(-0, 0, 5e-324, -5e-324, 1e-300, 1.7976931348623157e308, 1e21, 1e-7, 0.1 + 0.2, Number.NaN),
  fc.constantFrom(Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
  fc.integer(),
);
// Strings that need escapes (quotes, backslashes, control characters, lone surrogates) and ones that
// contain the row boundary `},{` itself.
const strings = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.constantFrom('},{', '"},{"', '\\', '\n\t\u0000\u001f', '\ud800', 'a\udc00b', '{"a":1},{"b":2}'),
);
const values = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    numbers,
    strings,
    fc.constant(null),
    fc.boolean(),
    fc.constant(undefined),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 4 }), tie('value'), { maxKeys: 3 }),
  ),
})).value;
const rows = fc.array(fc.dictionary(fc.oneof(fc.string({ maxLength: 6 }), strings), values, { maxKeys: 6 }), {
  maxLength: 20,
});

describe('ndjson', () => {
  it('writes one line per row with the bytes of JSON.stringify', () => {
    expect(
      ndjson([
        { seed: 0, reward: -0 },
        { seed: 1, reward: null, ok: true },
      ]),
    ).toBe('{"seed":0,"reward":0}\n{"seed":1,"reward":null,"ok":true}\n');
    expect(ndjson([])).toBe('');
    expect(ndjson([{}])).toBe('{}\n');
  });

  test.prop([rows])('equals JSON.stringify per row for any plain rows', (input) => {
    expect(ndjson(input)).toBe(reference(input));
  });

  test.prop([
    fc.array(fc.record({ seed: fc.nat(), reward: numbers, label: strings }), { minLength: 1, maxLength: 50 }),
  ])('equals JSON.stringify per row for flat metric rows, whose labels may hold "},{"', (input) => {
    expect(ndjson(input)).toBe(reference(input));
  });

  it('keeps rows whose values hold the boundary, nested objects in arrays, and rows that are not plain objects', () => {
    const tricky: unknown[] = [
      { a: '},{' },
      { list: [{ x: 1 }, { y: 2 }] },
      { when: new Date(0) },
      { toJSON: () => 'replaced' },
      Object.assign(Object.create(null), { bare: 1 }),
      [1, 2],
      'text',
      7,
      null,
    ];
    expect(ndjson(tricky)).toBe(reference(tricky));
    // A row that is not an object drops a boundary, which a value holding `},{` would make up for.
    expect(ndjson([7, { s: '},{' }])).toBe('7\n{"s":"},{"}\n');
    expect(ndjson([{ toJSON: () => 7 }, { s: '},{' }])).toBe('7\n{"s":"},{"}\n');
    for (const row of tricky)
      expect(ndjson([{ before: 1 }, row, { after: 2 }])).toBe(reference([{ before: 1 }, row, { after: 2 }]));
  });

  it('throws as JSON.stringify does on a cycle', () => {
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect(() => ndjson([cycle])).toThrow(TypeError);
  });
});

describe('ndjsonChunks', () => {
  test.prop([rows, fc.integer({ min: 1, max: 25 })])(
    'joins to ndjson of all the rows, each chunk holding at most rowsPerChunk lines',
    (input, rowsPerChunk) => {
      const chunks = [...ndjsonChunks(input, rowsPerChunk)];
      expect(chunks.join('')).toBe(reference(input));
      expect(chunks).toHaveLength(Math.ceil(input.length / rowsPerChunk));
      // JSON.stringify escapes a newline inside a string, so every raw newline ends a row.
      for (const [i, chunk] of chunks.entries()) {
        const lines = chunk.split('\n').length - 1;
        expect(lines).toBe(i < chunks.length - 1 ? rowsPerChunk : input.length - i * rowsPerChunk);
      }
    },
  );

  it('gives no chunk for no rows, and refuses a rowsPerChunk that is not an integer >= 1', () => {
    expect([...ndjsonChunks([])]).toEqual([]);
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => [...ndjsonChunks([{ a: 1 }], bad)]).toThrow(
        `rowsPerChunk must be an integer >= 1, got ${bad}`,
      );
    }
  });
});
