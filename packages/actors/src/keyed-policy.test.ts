import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeKeyedPolicy, KeyedPolicyReader, KeyedPolicyWriter } from './keyed-policy.js';

const namesOf = (list: readonly string[]) => ({ count: list.length, nameOf: (id: number) => list[id]! });

/** The documented layout, field by field: u32 N, u32 P, P f64, then per name a u16 length and u16 units. */
function layout(parameters: readonly number[], names: readonly string[]): number[] {
  const bytes: number[] = [];
  const push = (size: number, write: (view: DataView) => void) => {
    const view = new DataView(new ArrayBuffer(size));
    write(view);
    bytes.push(...new Uint8Array(view.buffer));
  };
  push(4, (v) => v.setUint32(0, names.length, true));
  push(4, (v) => v.setUint32(0, parameters.length, true));
  for (const x of parameters) push(8, (v) => v.setFloat64(0, x, true));
  for (const n of names) {
    push(2, (v) => v.setUint16(0, n.length, true));
    for (let i = 0; i < n.length; i++) push(2, (v) => v.setUint16(0, n.charCodeAt(i), true));
  }
  return bytes;
}

/** Names as actors make them: a level, '|', then cells as UTF-16 units (any unit, control ones included). */
const name = fc
  .tuple(fc.nat({ max: 99 }), fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 1, maxLength: 4 }))
  .map(([level, cells]) => `${level}|${String.fromCharCode(...cells)}`);

describe('encodeKeyedPolicy and KeyedPolicyReader', () => {
  it('give back θ bit for bit and each name its row, over versions that append names', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(name, { maxLength: 40 }),
        fc.array(fc.double({ noNaN: true }), { maxLength: 30 }),
        fc.array(fc.double({ noNaN: true }), { maxLength: 30 }),
        fc.nat(),
        (names, first, second, cut) => {
          const reader = new KeyedPolicyReader();
          const known = names.length === 0 ? 0 : cut % (names.length + 1);
          const a = reader.load(encodeKeyedPolicy(Float64Array.from(first), namesOf(names.slice(0, known))));
          expect(Array.from(a)).toEqual(first);
          for (const [id, n] of names.entries()) expect(reader.rowOf(n)).toBe(id < known ? id : undefined);
          const b = reader.load(encodeKeyedPolicy(Float64Array.from(second), namesOf(names)));
          expect(Array.from(b)).toEqual(second);
          for (const [id, n] of names.entries()) expect(reader.rowOf(n)).toBe(id);
          expect(reader.rowOf('no such position')).toBeUndefined();
        },
      ),
    );
  });

  it('writes version after version the layout, reading each name once', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(name, { maxLength: 60 }),
        fc.array(fc.tuple(fc.nat(), fc.array(fc.double(), { maxLength: 24 })), {
          minLength: 1,
          maxLength: 6,
        }),
        (names, versions) => {
          const writer = new KeyedPolicyWriter();
          const reader = new KeyedPolicyReader();
          let known = 0;
          const reads: number[] = [];
          for (const [grow, theta] of versions) {
            known = Math.min(names.length, known + (grow % 12));
            const bytes = writer.encode(Float64Array.from(theta), {
              count: known,
              nameOf: (id) => {
                reads.push(id);
                return names[id]!;
              },
            });
            expect(Array.from(bytes)).toEqual(layout(theta, names.slice(0, known)));
            expect(
              Array.from(encodeKeyedPolicy(Float64Array.from(theta), namesOf(names.slice(0, known)))),
            ).toEqual(Array.from(bytes));
            expect(Array.from(reader.load(bytes)).map(String)).toEqual(theta.map(String));
          }
          // Each name read once, in order.
          expect(reads).toEqual(Array.from({ length: known }, (_, id) => id));
        },
      ),
    );
  });

  it('refuses names that fall or a name too long, and keeps nothing of that call', () => {
    const writer = new KeyedPolicyWriter();
    writer.encode(Float64Array.of(1), namesOf(['0|a', '0|b']));
    expect(() => writer.encode(Float64Array.of(1), namesOf(['0|a']))).toThrow(
      'names.count must not fall (names are only appended): 2 before, got 1',
    );
    expect(() => writer.encode(Float64Array.of(1), namesOf(['0|a', '0|b', 'x'.repeat(70_000)]))).toThrow(
      'name 2 must have at most 65535 code units, got 70000',
    );
    expect(() => writer.encode(Float64Array.of(1), { count: 2.5, nameOf: () => '' })).toThrow(
      'names.count must be an integer >= 0, got 2.5',
    );
    const next = ['0|a', '0|b', '1|c'];
    expect(Array.from(writer.encode(Float64Array.of(2, 3), namesOf(next)))).toEqual(layout([2, 3], next));
  });

  it('lays the bytes out as documented', () => {
    const bytes = encodeKeyedPolicy(Float64Array.of(1.5), namesOf(['0|\t', '12|ab']));
    const view = new DataView(bytes.buffer);
    expect(bytes.length).toBe(8 + 8 + (2 + 2 * 3) + (2 + 2 * 5));
    expect([view.getUint32(0, true), view.getUint32(4, true), view.getFloat64(8, true)]).toEqual([2, 1, 1.5]);
    expect([view.getUint16(16, true), view.getUint16(18, true), view.getUint16(22, true)]).toEqual([
      3,
      '0'.charCodeAt(0),
      9,
    ]);
    expect(view.getUint16(24, true)).toBe(5);
  });

  it('reads bytes at any offset of their buffer', () => {
    const bytes = encodeKeyedPolicy(Float64Array.of(-0.25, 3), namesOf(['1|x']));
    const shifted = new Uint8Array(bytes.length + 3);
    shifted.set(bytes, 3);
    const reader = new KeyedPolicyReader();
    expect(Array.from(reader.load(shifted.subarray(3)))).toEqual([-0.25, 3]);
    expect(reader.rowOf('1|x')).toBe(0);
  });

  it('refuses what no learner publishes, naming what is wrong', () => {
    expect(() => encodeKeyedPolicy(new Float64Array(0), { count: -1, nameOf: () => '' })).toThrow(
      'names.count must be an integer >= 0, got -1',
    );
    expect(() => encodeKeyedPolicy(new Float64Array(0), namesOf(['x'.repeat(70_000)]))).toThrow(
      'name 0 must have at most 65535 code units, got 70000',
    );
    const reader = new KeyedPolicyReader();
    expect(() => reader.load(new Uint8Array(7))).toThrow('a keyed policy has at least 8 bytes, got 7');
    const full = encodeKeyedPolicy(Float64Array.of(1, 2), namesOf(['0|a', '0|b']));
    expect(() => reader.load(full.subarray(0, 20))).toThrow(
      'a keyed policy of 2 parameters has at least 24 bytes, got 20',
    );
    expect(() => reader.load(full.subarray(0, full.length - 1))).toThrow('a keyed policy ends inside name 1');
    expect(() => reader.load(encodeKeyedPolicy(new Float64Array(0), namesOf(['0|a', '0|a'])))).toThrow(
      'a keyed policy names "0|a" twice',
    );
    // Nothing failed half-way: the same reader reads a whole policy as a new one would.
    expect(Array.from(reader.load(full))).toEqual([1, 2]);
    expect([reader.rowOf('0|a'), reader.rowOf('0|b')]).toEqual([0, 1]);
    const fresh = new KeyedPolicyReader();
    fresh.load(full);
    expect(() => fresh.load(encodeKeyedPolicy(Float64Array.of(1, 2), namesOf(['0|a'])))).toThrow(
      'a keyed policy names 1 positions, fewer than the 2 before',
    );
  });

  it('a reader that applies each delta holds, at every version, what a fresh reader loads from its snapshot', () => {
    // Versions either snapshots or deltas; between versions θ grows by rows of 0, some rows move (those
    // listed), and names are appended. Compared bit for bit (toEqual tells -0 from 0).
    const width = fc.integer({ min: 1, max: 4 });
    const version = fc.record({
      snapshot: fc.boolean(),
      grow: fc.nat({ max: 3 }),
      moves: fc.array(fc.tuple(fc.nat(), fc.array(fc.double(), { minLength: 4, maxLength: 4 })), {
        maxLength: 4,
      }),
      names: fc.nat({ max: 5 }),
    });
    fc.assert(
      fc.property(
        width,
        fc.uniqueArray(name, { maxLength: 40 }),
        fc.array(version, { minLength: 1, maxLength: 8 }),
        (W, names, versions) => {
          const writer = new KeyedPolicyWriter();
          const follower = new KeyedPolicyReader();
          let theta: Float64Array = new Float64Array(0);
          let held: Float64Array = new Float64Array(0);
          let known = 0;
          for (const [k, v] of versions.entries()) {
            const grown = new Float64Array(theta.length + W * v.grow);
            grown.set(theta);
            theta = grown;
            const rows = theta.length / W;
            const moved = new Set<number>();
            if (rows > 0) {
              for (const [row, values] of v.moves) {
                moved.add(row % rows);
                for (let a = 0; a < W; a++) theta[(row % rows) * W + a] = values[a]!;
              }
            }
            known = Math.min(names.length, known + v.names);
            const list = namesOf(names.slice(0, known));
            if (k === 0 || v.snapshot) held = follower.load(writer.encode(theta, list));
            else held = follower.apply(held, writer.delta(theta, list, [...moved], W));
            const fresh = new KeyedPolicyReader();
            expect(Array.from(held)).toEqual(Array.from(fresh.load(encodeKeyedPolicy(theta, list))));
            for (const [id, n] of names.entries()) {
              expect(follower.rowOf(n)).toBe(id < known ? id : undefined);
            }
          }
        },
      ),
    );
  });

  it('lays a delta out as documented, and costs the rows listed and the names added', () => {
    const writer = new KeyedPolicyWriter();
    writer.encode(new Float64Array(4), namesOf(['0|a']));
    const theta = Float64Array.of(0, 0, 0.5, -0.5, 0, 0);
    const bytes = writer.delta(theta, namesOf(['0|a', '1|bc']), Int32Array.of(1), 2);
    const expected: number[] = [];
    const push = (size: number, write: (view: DataView) => void) => {
      const view = new DataView(new ArrayBuffer(size));
      write(view);
      expected.push(...new Uint8Array(view.buffer));
    };
    for (const x of [2, 6, 2, 1, 1]) push(4, (v) => v.setUint32(0, x, true));
    for (const x of [0.5, -0.5]) push(8, (v) => v.setFloat64(0, x, true));
    push(2, (v) => v.setUint16(0, 4, true));
    for (const c of '1|bc') push(2, (v) => v.setUint16(0, c.charCodeAt(0), true));
    expect(Array.from(bytes)).toEqual(expected);
    // No row moved and no name added: the header alone, whatever the size of θ.
    expect(writer.delta(new Float64Array(2000), namesOf(['0|a', '1|bc']), [], 2).length).toBe(16);
  });

  it('refuses a delta that no learner writes, naming what is wrong, and changes nothing then', () => {
    const writer = new KeyedPolicyWriter();
    writer.encode(Float64Array.of(1, 2), namesOf(['0|a']));
    expect(() => writer.delta(Float64Array.of(1, 2, 3), namesOf(['0|a']), [], 2)).toThrow(
      'width must be an integer >= 1 dividing the 3 parameters, got 2',
    );
    expect(() => writer.delta(Float64Array.of(1, 2), namesOf(['0|a']), [0], 0)).toThrow(/got 0$/);
    expect(() => writer.delta(Float64Array.of(1, 2), namesOf(['0|a']), [0, 1], 2)).toThrow(
      'rows[1] must be a row id in [0, 1), got 1',
    );
    expect(() => writer.delta(Float64Array.of(1, 2), namesOf(['0|a', '0|b']), [-1], 2)).toThrow(
      'rows[0] must be a row id in [0, 1), got -1',
    );
    // The refused calls kept no name: the next delta still brings '0|b'.
    const reader = new KeyedPolicyReader();
    const theta = reader.load(encodeKeyedPolicy(Float64Array.of(1, 2), namesOf(['0|a'])));
    const delta = writer.delta(Float64Array.of(1, 2, 3, 4), namesOf(['0|a', '0|b']), [1], 2);
    const refused = (bytes: Uint8Array, message: string, from = theta) => {
      const before = Array.from(from);
      expect(() => reader.apply(from, bytes)).toThrow(message);
      expect(Array.from(from)).toEqual(before);
      expect(reader.rowOf('0|b')).toBeUndefined();
    };
    refused(delta.subarray(0, 15), 'a keyed policy delta has at least 16 bytes, got 15');
    refused(delta.subarray(0, 30), 'a keyed policy delta of 1 rows of 2 has at least 36 bytes, got 30');
    refused(delta.subarray(0, delta.length - 1), 'a keyed policy ends inside name 1');
    const longer = new Uint8Array(delta.length + 2);
    longer.set(delta);
    refused(longer, 'a keyed policy delta has 2 bytes after its last name');
    const edit = (offset: number, value: number) => {
      const copy = delta.slice();
      new DataView(copy.buffer).setUint32(offset, value, true);
      return copy;
    };
    refused(edit(16, 2), 'a keyed policy delta writes row 2, outside its 2 rows');
    refused(edit(8, 3), 'a keyed policy delta has rows of 3 values, not dividing its 4 parameters');
    refused(edit(8, 0), 'a keyed policy delta has rows of 0 values, not dividing its 4 parameters');
    refused(delta, 'a keyed policy delta has 4 parameters, fewer than the 6 before', new Float64Array(6));
    const bigger = new KeyedPolicyReader();
    bigger.load(encodeKeyedPolicy(new Float64Array(0), namesOf(['x', 'y', 'z'])));
    expect(() => bigger.apply(new Float64Array(0), delta)).toThrow(
      'a keyed policy delta names 2 positions, fewer than the 3 before',
    );
    const twice = new KeyedPolicyWriter();
    twice.encode(new Float64Array(0), namesOf(['0|a']));
    expect(() =>
      reader.apply(theta, twice.delta(Float64Array.of(1, 2), namesOf(['0|a', '0|a']), [], 2)),
    ).toThrow('a keyed policy names "0|a" twice');
    // And the whole delta still applies: θ grows (a new array), row 1 written, '0|b' numbered 1.
    const next = reader.apply(theta, delta);
    expect([next === theta, Array.from(next), reader.rowOf('0|b')]).toEqual([false, [1, 2, 3, 4], 1]);
    // Same size: written in place.
    const same = reader.apply(
      next,
      writer.delta(Float64Array.of(5, 6, 3, 4), namesOf(['0|a', '0|b']), [0], 2),
    );
    expect([same === next, Array.from(next)]).toEqual([true, [5, 6, 3, 4]]);
  });
});
