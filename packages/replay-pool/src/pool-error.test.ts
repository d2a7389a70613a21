import { describe, expect, it } from 'vitest';
import { PoolError } from './pool-error.js';

describe('PoolError', () => {
  it('carries a stable code, the place and the offset, and names them in its message', () => {
    const error = new PoolError('SNAPSHOT_CORRUPT', 'body checksum 1 does not match 2', {
      offset: 32,
      place: 'body checksum',
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('PoolError');
    expect([error.code, error.offset, error.place, error.path]).toEqual([
      'SNAPSHOT_CORRUPT',
      32,
      'body checksum',
      undefined,
    ]);
    expect(error.message).toBe('SNAPSHOT_CORRUPT: body checksum 1 does not match 2 (body checksum, byte 32)');
  });

  it('has a plain message when there is no place', () => {
    expect(new PoolError('EMPTY_POOL', 'nothing held').message).toBe('EMPTY_POOL: nothing held');
  });

  it('withPath() adds the file and keeps everything else', () => {
    const error = new PoolError('SNAPSHOT_TRUNCATED', 'short', { offset: 7, place: 'header' }).withPath(
      '/p.snap',
    );
    expect([error.code, error.offset, error.place, error.path, error.reason]).toEqual([
      'SNAPSHOT_TRUNCATED',
      7,
      'header',
      '/p.snap',
      'short',
    ]);
    expect(error.message).toBe('SNAPSHOT_TRUNCATED: short (/p.snap, header, byte 7)');
  });
});
