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
});
