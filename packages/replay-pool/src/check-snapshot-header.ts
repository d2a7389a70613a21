import { crc32 } from './crc32.js';
import { PoolError } from './pool-error.js';
import {
  BODY_CRC_OFFSET,
  BODY_LENGTH_OFFSET,
  FLAGS_OFFSET,
  HEADER_BYTES,
  HEADER_CRC_OFFSET,
  MAGIC,
  SNAPSHOT_FORMAT_VERSION,
  VERSION_OFFSET,
} from './snapshot-format.js';

const corrupt = (reason: string, offset: number, place: string): PoolError =>
  new PoolError('SNAPSHOT_CORRUPT', reason, { offset, place });

/**
 * Reads an unsigned 64-bit little-endian count that must fit a double exactly. Internal.
 *
 * @param view - the snapshot
 * @param offset - where the count starts
 * @param place - its name, for errors
 * @returns the count
 * @throws PoolError `SNAPSHOT_CORRUPT` when it exceeds 2^53 − 1
 */
export function getU64(view: DataView, offset: number, place: string): number {
  const high = view.getUint32(offset + 4, true);
  if (high >= 2 ** 21) throw corrupt('a count exceeds 2^53 - 1', offset, place);
  return high * 2 ** 32 + view.getUint32(offset, true);
}

/**
 * Verifies a snapshot's header in order: magic, format version, header CRC-32, flags, announced length
 * against the bytes present, body CRC-32. Internal.
 *
 * @param bytes - the whole snapshot
 * @param view - a DataView over the same bytes
 * @returns the offset one past the body, equal to `bytes.length`
 * @throws PoolError `SNAPSHOT_MAGIC`, `SNAPSHOT_VERSION`, `SNAPSHOT_TRUNCATED` or `SNAPSHOT_CORRUPT`
 */
export function checkSnapshotHeader(bytes: Uint8Array, view: DataView): number {
  for (let i = 0; i < MAGIC.length; i++) {
    if (i >= bytes.length) {
      throw new PoolError('SNAPSHOT_TRUNCATED', `${bytes.length} bytes end inside the header`, {
        offset: bytes.length,
        place: 'magic',
      });
    }
    if (bytes[i] !== MAGIC[i]) {
      throw new PoolError('SNAPSHOT_MAGIC', 'not a replay-pool snapshot (wrong magic bytes)', {
        offset: i,
        place: 'magic',
      });
    }
  }
  if (bytes.length < HEADER_BYTES) {
    throw new PoolError(
      'SNAPSHOT_TRUNCATED',
      `${bytes.length} bytes end inside the ${HEADER_BYTES}-byte header`,
      {
        offset: bytes.length,
        place: 'header',
      },
    );
  }
  const version = view.getUint32(VERSION_OFFSET, true);
  if (version !== SNAPSHOT_FORMAT_VERSION) {
    throw new PoolError(
      'SNAPSHOT_VERSION',
      `format version ${version} is not supported; this release reads version ${SNAPSHOT_FORMAT_VERSION}`,
      { offset: VERSION_OFFSET, place: 'format version' },
    );
  }
  const storedHeaderCrc = view.getUint32(HEADER_CRC_OFFSET, true);
  const headerCrc = crc32(bytes, 0, HEADER_CRC_OFFSET);
  if (storedHeaderCrc !== headerCrc) {
    throw corrupt(
      `header checksum ${storedHeaderCrc} does not match ${headerCrc}`,
      HEADER_CRC_OFFSET,
      'header checksum',
    );
  }
  if (view.getUint32(FLAGS_OFFSET, true) !== 0)
    throw corrupt('unknown header flags', FLAGS_OFFSET, 'header flags');
  const end = HEADER_BYTES + getU64(view, BODY_LENGTH_OFFSET, 'body length');
  if (bytes.length < end) {
    throw new PoolError(
      'SNAPSHOT_TRUNCATED',
      `the file has ${bytes.length} bytes, the header announces ${end}`,
      {
        offset: bytes.length,
        place: 'body',
      },
    );
  }
  if (bytes.length > end)
    throw corrupt(`${bytes.length - end} bytes follow the announced end`, end, 'trailing bytes');
  const storedBodyCrc = view.getUint32(BODY_CRC_OFFSET, true);
  const bodyCrc = crc32(bytes, HEADER_BYTES, end);
  if (storedBodyCrc !== bodyCrc) {
    throw corrupt(`body checksum ${storedBodyCrc} does not match ${bodyCrc}`, HEADER_BYTES, 'body checksum');
  }
  return end;
}
