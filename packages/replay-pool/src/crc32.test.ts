import { crc32 as zlibCrc32 } from 'node:zlib';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { crc32 } from './crc32.js';

const ascii = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('crc32', () => {
  // Check values of CRC-32/ISO-HDLC from the CRC catalogue (reveng) and RFC 1952 implementations.
  it.each([
    ['', 0x0000_0000],
    ['a', 0xe8b7_be43],
    ['abc', 0x3524_41c2],
    ['123456789', 0xcbf4_3926],
    ['The quick brown fox jumps over the lazy dog', 0x414f_a339],
  ])('gives the published check value for %j', (text, expected) => {
    expect(crc32(ascii(text))).toBe(expected);
  });

  it('gives the published value for 32 zero bytes and for 32 0xFF bytes (iSCSI test patterns)', () => {
    expect(crc32(new Uint8Array(32))).toBe(0x190a_55ad);
    expect(crc32(new Uint8Array(32).fill(0xff))).toBe(0xff6c_ab0b);
  });

  test.prop([fc.uint8Array({ maxLength: 300 })])('agrees with zlib on arbitrary bytes', (bytes) => {
    expect(crc32(bytes)).toBe(zlibCrc32(bytes));
  });

  test.prop([fc.uint8Array({ maxLength: 100 }), fc.nat(), fc.nat()])(
    'checksums exactly the range [start, end)',
    (bytes, a, b) => {
      const start = Math.min(a, b) % (bytes.length + 1);
      const end = start + (Math.max(a, b) % (bytes.length - start + 1));
      expect(crc32(bytes, start, end)).toBe(zlibCrc32(bytes.subarray(start, end)));
    },
  );

  test.prop([
    fc.uint8Array({ minLength: 1, maxLength: 64 }),
    fc.nat(),
    fc.integer({ min: 1, max: 0xffff_ffff }),
  ])('detects every error burst of at most 32 bits', (bytes, at, pattern) => {
    // A burst of <= 32 bits starting at a bit offset: the XOR pattern spans at most 5 bytes.
    const flipped = bytes.slice();
    const bit = at % (bytes.length * 8);
    const span = BigInt(pattern) << BigInt(bit % 8);
    for (let k = 0; k < 5 && Math.floor(bit / 8) + k < bytes.length; k++) {
      flipped[Math.floor(bit / 8) + k]! ^= Number((span >> BigInt(8 * k)) & 0xffn);
    }
    fc.pre(flipped.some((x, i) => x !== bytes[i]));
    expect(crc32(flipped)).not.toBe(crc32(bytes));
  });
});
