import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { fc, test } from '@fast-check/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { expectStored, trajectoryInput } from '../test/arbitraries.js';
import { PoolError } from './pool-error.js';
import { ReplayPool } from './replay-pool.js';
import type { TrajectoryInput } from './trajectory-input.js';

const dir = mkdtempSync(join(tmpdir(), 'replay-pool-snapshot-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshPath = (): string => join(dir, `pool-${files++}.snap`);

const example: TrajectoryInput = {
  actions: [3, 0],
  logProbs: [-0, -1.25],
  versions: [6, 7],
  return: -0,
  observations: [0.5, -2, 1e-300, 4],
  metadata: { task: 'maze', seed: 7 },
};

function examplePool(): ReplayPool {
  const pool = new ReplayPool({ capacity: 4, maxVersionLag: 3 });
  pool.push({ actions: [1], logProbs: [-0.5], versions: 5, return: 1 });
  pool.push(example);
  return pool;
}

/** Recomputes the body length and both checksums, as a writer of a crafted file would. */
function resign(bytes: Uint8Array): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  view.setUint32(16, bytes.length - 32, true);
  view.setUint32(24, zlibCrc32(bytes.subarray(32)), true);
  view.setUint32(28, zlibCrc32(bytes.subarray(0, 28)), true);
  return bytes;
}

function poolErrorOf(run: () => unknown): PoolError {
  try {
    run();
  } catch (error) {
    if (error instanceof PoolError) return error;
    throw error;
  }
  throw new Error('expected a PoolError, but the call succeeded');
}

describe('ReplayPool snapshots', () => {
  test.prop([
    fc.integer({ min: 1, max: 8 }),
    fc.option(fc.integer({ min: 0, max: 2 ** 32 - 1 }), { nil: undefined }),
    fc.array(trajectoryInput({ maxVersion: 2 ** 32 - 1 }), { maxLength: 14 }),
  ])('round-trip bit for bit through bytes and files', (capacity, maxVersionLag, inputs) => {
    const pool = new ReplayPool({ capacity, maxVersionLag });
    for (const input of inputs) pool.push(input);
    const bytes = pool.toBytes();
    const copy = ReplayPool.fromBytes(bytes);
    expect(copy.toBytes()).toEqual(bytes);
    expect([copy.capacity, copy.maxVersionLag, copy.size, copy.pushedCount, copy.evictedCount]).toEqual([
      capacity,
      maxVersionLag,
      pool.size,
      inputs.length,
      pool.evictedCount,
    ]);
    const first = inputs.length - copy.size;
    [...copy].forEach((t, position) => {
      expectStored(t, inputs[first + position]!, first + position);
    });
    expect(copy.returns()).toEqual(pool.returns());
    const path = freshPath();
    pool.save(path);
    expect(new Uint8Array(readFileSync(path))).toEqual(bytes);
    expect(ReplayPool.load(path).toBytes()).toEqual(bytes);
  });

  it('lays out the header as documented', () => {
    const bytes = examplePool().toBytes();
    const view = new DataView(bytes.buffer);
    expect(Array.from(bytes.subarray(0, 8))).toEqual([0x89, 0x46, 0x54, 0x57, 0x50, 0x4f, 0x4f, 0x4c]);
    expect(view.getUint32(8, true)).toBe(1);
    expect(view.getUint32(12, true)).toBe(0);
    expect(view.getUint32(16, true) + 2 ** 32 * view.getUint32(20, true)).toBe(bytes.length - 32);
    expect(view.getUint32(24, true)).toBe(zlibCrc32(bytes.subarray(32)));
    expect(view.getUint32(28, true)).toBe(zlibCrc32(bytes.subarray(0, 28)));
    // Body prefix: capacity 4, lag flag 1, lag 3, size 2, pushed 2, evicted 0.
    expect([0, 4, 8, 12, 16, 24].map((o) => view.getUint32(32 + o, true))).toEqual([4, 1, 3, 2, 2, 0]);
    // Second record starts after the first (28-byte prefix, no metadata, 16 bytes of one step).
    const second = 64 + 28 + 16;
    expect(view.getUint32(second, true)).toBe(1);
    expect(Object.is(view.getFloat64(second + 16, true), -0)).toBe(true);
    const metadataLength = view.getUint32(second + 24, true);
    expect(new TextDecoder().decode(bytes.subarray(second + 28, second + 28 + metadataLength))).toBe(
      '{"task":"maze","seed":7}',
    );
    expect(bytes.length).toBe(second + 28 + metadataLength + 2 * 16 + 4 * 8);
  });

  it('saves an empty pool and reads it back', () => {
    const path = freshPath();
    new ReplayPool({ capacity: 5 }).save(path);
    const pool = ReplayPool.load(path);
    expect([pool.size, pool.capacity, pool.maxVersionLag, pool.pushedCount]).toEqual([0, 5, undefined, 0]);
  });

  it('reports SNAPSHOT_TRUNCATED, with the offset where bytes end, for every proper prefix', () => {
    const bytes = examplePool().toBytes();
    for (let length = 0; length < bytes.length; length++) {
      const error = poolErrorOf(() => ReplayPool.fromBytes(bytes.slice(0, length)));
      expect([error.code, error.offset]).toEqual(['SNAPSHOT_TRUNCATED', length]);
    }
  });

  it('detects every single-bit flip', () => {
    const bytes = examplePool().toBytes();
    for (let bit = 0; bit < bytes.length * 8; bit++) {
      const flipped = bytes.slice();
      flipped[bit >> 3]! ^= 1 << (bit & 7);
      const error = poolErrorOf(() => ReplayPool.fromBytes(flipped));
      expect(['SNAPSHOT_MAGIC', 'SNAPSHOT_VERSION', 'SNAPSHOT_CORRUPT']).toContain(error.code);
    }
  });

  test.prop([fc.nat(), fc.integer({ min: 1, max: 0xffff_ffff })])(
    'detects every error burst of up to 32 bits',
    (at, pattern) => {
      // CRC-32 detects all bursts <= 32 bits in the header and in the body; no false-alarm probability.
      const bytes = examplePool().toBytes();
      const bit = at % (bytes.length * 8);
      const span = BigInt(pattern) << BigInt(bit & 7);
      const original = bytes.slice();
      for (let k = 0; k < 5 && (bit >> 3) + k < bytes.length; k++) {
        bytes[(bit >> 3) + k]! ^= Number((span >> BigInt(8 * k)) & 0xffn);
      }
      // Near the end the whole pattern can fall past the last byte, leaving the bytes unchanged.
      fc.pre(bytes.some((x, i) => x !== original[i]));
      expect(() => ReplayPool.fromBytes(bytes)).toThrow(PoolError);
    },
  );

  it('names the place of header failures', () => {
    const bytes = examplePool().toBytes();
    const notMagic = bytes.slice();
    notMagic[3] = 0x58;
    expect(poolErrorOf(() => ReplayPool.fromBytes(notMagic))).toMatchObject({
      code: 'SNAPSHOT_MAGIC',
      offset: 3,
    });
    const future = bytes.slice();
    new DataView(future.buffer).setUint32(8, 2, true);
    expect(poolErrorOf(() => ReplayPool.fromBytes(resign(future)))).toMatchObject({
      code: 'SNAPSHOT_VERSION',
      offset: 8,
      place: 'format version',
    });
    const flagged = bytes.slice();
    new DataView(flagged.buffer).setUint32(12, 1, true);
    expect(poolErrorOf(() => ReplayPool.fromBytes(resign(flagged)))).toMatchObject({ place: 'header flags' });
    const badHeader = bytes.slice();
    badHeader[17]! ^= 1;
    expect(poolErrorOf(() => ReplayPool.fromBytes(badHeader))).toMatchObject({
      code: 'SNAPSHOT_CORRUPT',
      offset: 28,
      place: 'header checksum',
    });
    const badBody = bytes.slice();
    badBody[100]! ^= 4;
    expect(poolErrorOf(() => ReplayPool.fromBytes(badBody))).toMatchObject({
      code: 'SNAPSHOT_CORRUPT',
      offset: 32,
      place: 'body checksum',
    });
    const longer = new Uint8Array(bytes.length + 3);
    longer.set(bytes);
    expect(poolErrorOf(() => ReplayPool.fromBytes(longer))).toMatchObject({
      code: 'SNAPSHOT_CORRUPT',
      offset: bytes.length,
      place: 'trailing bytes',
    });
  });

  // Files whose checksums are right but whose fields are not (a buggy or hostile writer).
  const second = 64 + 28 + 16;
  const metadataAt = second + 28;
  const columnsAt = metadataAt + '{"task":"maze","seed":7}'.length;
  const crafted: [
    string,
    (view: DataView, bytes: Uint8Array) => Uint8Array | undefined,
    number | 'end',
    string,
  ][] = [
    ['capacity 0', (v) => void v.setUint32(32, 0, true), 32, 'capacity'],
    ['a lag flag of 2', (v) => void v.setUint32(36, 2, true), 36, 'maxVersionLag'],
    ['a lag without its flag', (v) => void v.setUint32(36, 0, true), 36, 'maxVersionLag'],
    ['size above capacity', (v) => void v.setUint32(44, 5, true), 44, 'size'],
    ['inconsistent counters', (v) => void v.setUint32(48, 3, true), 48, 'counters'],
    ['a count above 2^53', (v) => void v.setUint32(52, 2 ** 21, true), 48, 'pushedCount'],
    ['a wrong sequence', (v) => void v.setUint32(second, 5, true), second, 'trajectory 1 sequence'],
    ['zero steps', (v) => void v.setUint32(second + 8, 0, true), second + 8, 'trajectory 1 length'],
    [
      'a NaN return',
      (v) => void v.setFloat64(second + 16, Number.NaN, true),
      second + 16,
      'trajectory 1 return',
    ],
    [
      'metadata longer than the body',
      (v) => void v.setUint32(second + 24, 9999, true),
      metadataAt,
      'trajectory 1 metadata',
    ],
    [
      'invalid UTF-8 metadata',
      (_, b) => void (b[metadataAt + 2] = 0xff),
      metadataAt,
      'trajectory 1 metadata',
    ],
    ['metadata that is not JSON', (_, b) => void (b[metadataAt] = 0x7d), metadataAt, 'trajectory 1 metadata'],
    [
      'non-canonical JSON metadata',
      (_, b) => void (b[metadataAt + 1] = 0x20),
      metadataAt,
      'trajectory 1 metadata',
    ],
    ['a negative action', (v) => void v.setInt32(columnsAt, -3, true), columnsAt, 'trajectory 1 actions[0]'],
    [
      'a positive log-probability',
      (v) => void v.setFloat64(columnsAt + 16, 0.5, true),
      columnsAt + 16,
      'trajectory 1 logProbs[1]',
    ],
    [
      'a NaN log-probability',
      (v) => void v.setFloat64(columnsAt + 8, Number.NaN, true),
      columnsAt + 8,
      'trajectory 1 logProbs[0]',
    ],
    [
      'a -Infinity log-probability',
      (v) => void v.setFloat64(columnsAt + 8, Number.NEGATIVE_INFINITY, true),
      columnsAt + 8,
      'trajectory 1 logProbs[0]',
    ],
    [
      'an infinite observation',
      (v) => void v.setFloat64(columnsAt + 48, Number.POSITIVE_INFINITY, true),
      columnsAt + 48,
      'trajectory 1 observations[2]',
    ],
    [
      'columns past the end',
      (v) => void v.setUint32(second + 12, 3, true),
      columnsAt,
      'trajectory 1 columns',
    ],
    [
      'a record past the end',
      (v) => {
        v.setUint32(44, 3, true); // size 3 (capacity is 4) ...
        v.setUint32(48, 3, true); // ... and pushed 3, so the counters agree but only 2 records follow
        return undefined;
      },
      'end',
      'trajectory 2',
    ],
    ['unread bytes after the records', (_, b) => Uint8Array.from([...b, 0, 0]), 'end', 'body end'],
  ];

  it.each(crafted)(
    'reports SNAPSHOT_CORRUPT at the right place for %s, even with valid checksums',
    (_, edit, offset, place) => {
      const original = examplePool().toBytes();
      const bytes = original.slice();
      const edited = edit(new DataView(bytes.buffer), bytes) ?? bytes;
      const error = poolErrorOf(() => ReplayPool.fromBytes(resign(edited)));
      expect(error.code).toBe('SNAPSHOT_CORRUPT');
      expect(error.place).toBe(place);
      expect(error.offset).toBe(offset === 'end' ? original.length : offset);
    },
  );

  it('restore() replaces everything only when the whole file verifies', () => {
    const path = freshPath();
    const saved = examplePool();
    saved.save(path);
    const pool = new ReplayPool({ capacity: 2 });
    pool.push({ actions: [0], logProbs: [-1], versions: 0, return: 9 });
    const before = pool.toBytes();

    const good = readFileSync(path);
    for (const [bytes, code] of [
      [good.subarray(0, good.length - 1), 'SNAPSHOT_TRUNCATED'],
      [
        Buffer.concat([good.subarray(0, 40), Buffer.from([good[40]! ^ 1]), good.subarray(41)]),
        'SNAPSHOT_CORRUPT',
      ],
      [Buffer.from('not a snapshot'), 'SNAPSHOT_MAGIC'],
    ] as const) {
      const bad = freshPath();
      writeFileSync(bad, bytes);
      const error = poolErrorOf(() => pool.restore(bad));
      expect([error.code, error.path]).toEqual([code, bad]);
      expect(error.message).toContain(bad);
      expect(pool.toBytes()).toEqual(before);
      expect(() => pool.restoreBytes(new Uint8Array(bytes))).toThrow(PoolError);
      expect(pool.toBytes()).toEqual(before);
    }

    pool.restore(path);
    expect(pool.toBytes()).toEqual(saved.toBytes());
    expect([pool.capacity, pool.maxVersionLag, pool.size]).toEqual([4, 3, 2]);
    expect(pool.push({ actions: [0], logProbs: [-1], versions: 8, return: 0 })).toBe(2);
  });

  it('save() replaces an existing file and leaves no temporary file behind', () => {
    const sub = join(dir, 'replace');
    mkdirSync(sub);
    const path = join(sub, 'pool.snap');
    writeFileSync(path, 'old contents');
    examplePool().save(path);
    expect(readdirSync(sub)).toEqual(['pool.snap']);
    expect(ReplayPool.load(path).size).toBe(2);
  });

  it('save() into a missing directory throws the fs error and writes nothing', () => {
    const path = join(dir, 'missing', 'pool.snap');
    expect(() => examplePool().save(path)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    expect(existsSync(join(dir, 'missing'))).toBe(false);
  });

  it('refuses bad paths and non-byte inputs', () => {
    const pool = examplePool();
    expect(() => pool.save('')).toThrow(new TypeError('path must be a non-empty string, got ""'));
    expect(() => ReplayPool.load(3 as never)).toThrow(TypeError);
    expect(() => pool.restore(undefined as never)).toThrow(TypeError);
    expect(() => ReplayPool.fromBytes([1, 2] as never)).toThrow(
      new TypeError('bytes must be a Uint8Array, got an array of length 2'),
    );
    expect(() => pool.restoreBytes('x' as never)).toThrow(TypeError);
    expect(() => ReplayPool.load(join(dir, 'absent.snap'))).toThrow(
      expect.objectContaining({ code: 'ENOENT' }),
    );
    expect(pool.size).toBe(2);
  });
});
