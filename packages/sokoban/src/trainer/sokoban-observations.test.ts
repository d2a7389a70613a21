import { fc, test } from '@fast-check/vitest';
import {
  SOKOBAN_FEATURE_COUNT as FEATURE_COUNT,
  parseLevel,
  positionGrid,
  sokobanFeatures,
} from '@ftw/sokoban';
import { describe, expect, it } from 'vitest';
import { mapKey, SokobanObservations } from './sokoban-observations.js';

describe('SokobanObservations', () => {
  it('numbers (level, key) pairs in order of discovery, one id per pair, and finds them without creating any', () => {
    const a = parseLevel('######\n#@ $.#\n######');
    const b = parseLevel('######\n# @$.#\n######');
    const ids = new SokobanObservations();
    ids.wantFeatures([]);
    expect(ids.find(0, 'k')).toBeUndefined();
    expect(ids.idOf(0, 'k', a.grid, 6, 3)).toBe(0);
    // The same key on another level is another position.
    expect(ids.idOf(1, 'k', b.grid, 6, 3)).toBe(1);
    expect(ids.idOf(0, 'j', b.grid, 6, 3)).toBe(2);
    expect(ids.idOf(1, 'k', a.grid, 6, 3)).toBe(1);
    expect([
      ids.find(0, 'k'),
      ids.find(1, 'k'),
      ids.find(0, 'j'),
      ids.find(1, 'j'),
      ids.find(2, 'k'),
    ]).toEqual([0, 1, 2, undefined, undefined]);
    expect(ids.count).toBe(3);
    expect([0, 1, 2].map((id) => ids.nameOf(id))).toEqual(['0|k', '1|k', '0|j']);
    expect(() => ids.nameOf(3)).toThrow(/id must be an id handed out \(0 … 2\), got 3/);
    expect([0, 1, 2, 3].map((id) => ids.levelOf(id))).toEqual([0, 1, 0, -1]);
    // Each id keeps the features of the grid it was created with (a later idOf does not replace them).
    const expected = new Float32Array(FEATURE_COUNT);
    for (const [id, grid] of [
      [0, a.grid],
      [1, b.grid],
      [2, b.grid],
    ] as const) {
      sokobanFeatures(grid, 6, 3, expected);
      expect(ids.featureData.subarray(id * FEATURE_COUNT, (id + 1) * FEATURE_COUNT)).toEqual(expected);
    }
  });

  it('computes no feature until asked, then those of the positions met before from their levels', () => {
    const level = parseLevel('#######\n#@ $ .#\n#     #\n#######');
    const other = parseLevel('#######\n# @$ .#\n#     #\n#######');
    // Two positions of each level: the start, and the player moved (key: player cell, then box cell).
    const positions = [
      { level: 0, key: String.fromCharCode(8, 10) },
      { level: 1, key: String.fromCharCode(9, 10) },
      { level: 0, key: String.fromCharCode(16, 10) },
      { level: 1, key: String.fromCharCode(17, 10) },
    ];
    const levels = [level, other];
    const lazy = new SokobanObservations();
    const eager = new SokobanObservations();
    eager.wantFeatures(levels);
    for (const [i, { level: l, key }] of positions.entries()) {
      const grid = positionGrid(levels[l]!, key);
      if (i === 2) {
        expect(lazy.featuresWanted).toBe(false);
        expect(lazy.featureData).toHaveLength(0);
        expect(lazy.sparseFeatures.rowStart[1]).toBe(0);
        lazy.wantFeatures(levels);
      }
      lazy.idOf(l, key, grid, 7, 4);
      eager.idOf(l, key, grid, 7, 4);
    }
    expect(lazy.featuresWanted).toBe(true);
    const rows = positions.length * FEATURE_COUNT;
    expect(lazy.featureData.subarray(0, rows)).toEqual(eager.featureData.subarray(0, rows));
    const expected = new Float32Array(FEATURE_COUNT);
    sokobanFeatures(level.grid, 7, 4, expected);
    expect(lazy.featureData.subarray(0, FEATURE_COUNT)).toEqual(expected);
    const sparse = (ids: SokobanObservations) => {
      const { rowStart, columns, values } = ids.sparseFeatures;
      const end = rowStart[positions.length]!;
      return [
        Array.from(rowStart.subarray(0, positions.length + 1)),
        columns.slice(0, end),
        values.slice(0, end),
      ];
    };
    expect(sparse(lazy)).toEqual(sparse(eager));
    // Asking again changes nothing; a level missing for a position met before is refused, nothing computed.
    lazy.wantFeatures([]);
    const late = new SokobanObservations();
    late.idOf(1, positions[1]!.key, positionGrid(other, positions[1]!.key), 7, 4);
    expect(() => late.wantFeatures([level])).toThrow(
      /levels must hold training level 1 \(of id 0\), got 1 levels/,
    );
    expect(late.featuresWanted).toBe(false);
  });

  /** Keys as SokobanEnv makes them (a few cells) and others: long ones, codes at and past 1023, 0. */
  const keyArbitrary = fc
    .array(
      fc.oneof(
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 1020, max: 1026 }),
        fc.integer({ min: 0, max: 0xffff }),
      ),
      {
        maxLength: 5,
      },
    )
    .map((codes) => String.fromCharCode(...codes));

  test.prop([
    fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), keyArbitrary, fc.boolean()), { maxLength: 200 }),
  ])('numbers (level, key) pairs as a map of their names would, whatever the keys', (calls) => {
    const ids = new SokobanObservations();
    const reference = new Map<string, number>();
    const grid = new Uint8Array(0);
    for (const [level, key, create] of calls) {
      const name = JSON.stringify([level, key]);
      if (create) {
        if (!reference.has(name)) reference.set(name, reference.size);
        expect(ids.idOf(level, key, grid, 0, 0)).toBe(reference.get(name));
      } else {
        expect(ids.find(level, key)).toBe(reference.get(name));
      }
    }
    expect(ids.count).toBe(reference.size);
  });

  test.prop([keyArbitrary, keyArbitrary])(
    'mapKey is one-to-one, and a small integer for short keys',
    (a, b) => {
      if (a !== b) expect(mapKey(a)).not.toBe(mapKey(b));
      const packed = mapKey(a);
      const short = a.length <= 3 && [...a].every((c) => c.charCodeAt(0) < 1023);
      expect(typeof packed).toBe(short ? 'number' : 'string');
      if (typeof packed === 'number') expect(packed).toBeLessThan(2 ** 30);
    },
  );

  it('mapKey keeps apart keys that differ by a trailing 0 or by length, up to the last packed code', () => {
    const keys = [
      '',
      '\0',
      '\0\0',
      '\0\0\0',
      '\u0001\u0002',
      '\u0001\u0002\0',
      '\u03fe\u03fe\u03fe',
      '\u03ff',
      '\0\u0001',
    ];
    const packed = keys.map(mapKey);
    expect(new Set(packed).size).toBe(keys.length);
    expect(mapKey('\u03fe\u03fe\u03fe')).toBe(2 ** 30 - 1);
    expect(mapKey('\u03ff')).toBe('\u03ff');
    expect(mapKey('abcd')).toBe('abcd');
  });
});
