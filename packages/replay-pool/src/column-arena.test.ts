import { describe, expect, it } from 'vitest';
import { ColumnArena } from './column-arena.js';
import { ReplayPool } from './replay-pool.js';

describe('ColumnArena', () => {
  it('hands out consecutive 8-aligned blocks of one slab, and a new slab when one is full', () => {
    const arena = new ColumnArena();
    const first = arena.reserve(64);
    arena.commit();
    const second = arena.reserve(24);
    arena.commit();
    expect(second.buffer).toBe(first.buffer);
    expect([first.offset, second.offset]).toEqual([0, 64]);
    let last = second;
    for (let k = 0; k < 10_000 && last.buffer === first.buffer; k++) {
      last = arena.reserve(32_000);
      arena.commit();
    }
    expect(last.buffer).not.toBe(first.buffer);
    expect(last.offset).toBe(0);
  });

  it('starts with a 4 KiB slab and doubles each next one up to 256 KiB, and fits a block larger than the next size', () => {
    const arena = new ColumnArena();
    const sizes: number[] = [];
    let buffer: ArrayBuffer | undefined;
    for (let k = 0; k < 200_000 && sizes.length < 9; k++) {
      const block = arena.reserve(8);
      arena.commit();
      if (block.buffer !== buffer) {
        buffer = block.buffer;
        sizes.push(buffer.byteLength);
      }
    }
    expect(sizes).toEqual([4096, 8192, 16384, 32768, 65536, 131072, 262144, 262144, 262144]);
    const fresh = new ColumnArena();
    fresh.reserve(8);
    fresh.commit();
    const big = fresh.reserve(20_000);
    expect([big.buffer.byteLength, big.offset]).toEqual([32768, 0]);
  });

  it('reuses a block that was reserved but not committed', () => {
    const arena = new ColumnArena();
    const refused = arena.reserve(40);
    const next = arena.reserve(40);
    expect([next.buffer, next.offset]).toEqual([refused.buffer, refused.offset]);
  });

  it('gives large blocks their own buffer and leaves the slab as it was', () => {
    const arena = new ColumnArena();
    const small = arena.reserve(8);
    arena.commit();
    const large = arena.reserve(1 << 20);
    arena.commit();
    expect([large.buffer.byteLength, large.offset]).toEqual([1 << 20, 0]);
    const after = arena.reserve(8);
    expect([after.buffer, after.offset]).toEqual([small.buffer, 8]);
  });

  it('never lets two stored trajectories share bytes, across slabs and large blocks', () => {
    const pool = new ReplayPool({ capacity: 3000 });
    const lengthOf = (k: number) => (k % 97 === 0 ? 5000 : 1 + (k % 37));
    const input = (k: number) => {
      const steps = lengthOf(k);
      return {
        actions: Array.from({ length: steps }, (_, t) => (k + t) % 1000),
        logProbs: Array.from({ length: steps }, (_, t) => -(k + t) / 1e4),
        versions: Array.from({ length: steps }, (_, t) => k + t),
        return: k,
        ...(k % 3 === 0 ? { observations: Array.from({ length: 2 * steps }, (_, i) => k * 1e3 + i) } : {}),
      };
    };
    for (let k = 0; k < 3000; k++) {
      pool.push(input(k));
      // A push refused halfway through copying (its last version is bad) has written into a reserved
      // block; the next push reuses that block and nothing stored may change.
      if (k % 50 === 0) {
        const bad = input(k);
        expect(() => pool.push({ ...bad, versions: [...bad.versions.slice(0, -1), -1] })).toThrow(RangeError);
      }
    }
    for (const t of pool) {
      const expected = input(t.sequence);
      expect(Array.from(t.actions)).toEqual(expected.actions);
      expect(Array.from(t.logProbs)).toEqual(expected.logProbs);
      expect(Array.from(t.versions)).toEqual(expected.versions);
      expect(t.observations === undefined ? undefined : Array.from(t.observations)).toEqual(
        expected.observations,
      );
    }
  });
});
