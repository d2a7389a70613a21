/**
 * The stable codes of {@link PoolError}. Programs branch on these; the message is for people.
 *
 * - `EMPTY_POOL`: an operation that summarises the pool (staleness) was asked of an empty pool.
 * - `POOL_MODIFIED`: the pool was pushed to or restored while an iterator over it was in use.
 * - `SNAPSHOT_MAGIC`: the bytes do not start with the snapshot magic; this is not a pool snapshot.
 * - `SNAPSHOT_VERSION`: a snapshot of a format version this release cannot read.
 * - `SNAPSHOT_TRUNCATED`: the file ends before the length its header announces (an interrupted copy).
 * - `SNAPSHOT_CORRUPT`: a checksum mismatch, trailing bytes, or a field that fails verification.
 *
 * @example
 * ```ts
 * const code: PoolErrorCode = 'SNAPSHOT_TRUNCATED';
 * ```
 */
export type PoolErrorCode =
  | 'EMPTY_POOL'
  | 'POOL_MODIFIED'
  | 'SNAPSHOT_MAGIC'
  | 'SNAPSHOT_VERSION'
  | 'SNAPSHOT_TRUNCATED'
  | 'SNAPSHOT_CORRUPT';

/**
 * Where a {@link PoolError} happened, when it concerns bytes of a snapshot.
 *
 * @example
 * ```ts
 * new PoolError('SNAPSHOT_CORRUPT', 'bad', { offset: 32, place: 'body checksum' }).message;
 * // 'SNAPSHOT_CORRUPT: bad (body checksum, byte 32)'
 * ```
 */
export interface PoolErrorDetails {
  /** Byte offset in the snapshot at which verification failed. */
  readonly offset?: number | undefined;
  /** Human-readable place of the failure, such as `header checksum` or `trajectory 3 logProbs[7]`. */
  readonly place?: string | undefined;
  /** File the snapshot was read from, when it came from a file. */
  readonly path?: string | undefined;
}

/**
 * A domain error of `@ftw/replay-pool`, with a stable {@link PoolErrorCode} and, for snapshots, the byte
 * offset and place where verification failed. Argument errors are `RangeError`/`TypeError` instead.
 *
 * @example
 * ```ts
 * try {
 *   ReplayPool.fromBytes(new Uint8Array(3));
 * } catch (error) {
 *   if (error instanceof PoolError) console.log(error.code, error.offset);
 *   // SNAPSHOT_MAGIC 0
 * }
 * ```
 */
export class PoolError extends Error {
  /** Stable machine-readable code. */
  readonly code: PoolErrorCode;
  /** Byte offset of the failure in a snapshot, or `undefined` when not about bytes. */
  readonly offset: number | undefined;
  /** Place of the failure in a snapshot (a field or section name), or `undefined`. */
  readonly place: string | undefined;
  /** Path of the snapshot file, or `undefined`. */
  readonly path: string | undefined;
  /** The message without code and place, as passed to the constructor. */
  readonly reason: string;

  /**
   * @param code - the stable code
   * @param message - what went wrong, for people
   * @param details - offset, place and path of a snapshot failure
   */
  constructor(code: PoolErrorCode, message: string, details: PoolErrorDetails = {}) {
    const where = [
      details.path,
      details.place,
      details.offset === undefined ? undefined : `byte ${details.offset}`,
    ].filter((part) => part !== undefined);
    super(where.length === 0 ? `${code}: ${message}` : `${code}: ${message} (${where.join(', ')})`);
    this.name = 'PoolError';
    this.code = code;
    this.offset = details.offset;
    this.place = details.place;
    this.path = details.path;
    this.reason = message;
  }

  /**
   * The same error with the file path attached, for errors raised while decoding bytes read from a file.
   *
   * @param path - the file the bytes came from
   * @returns a new `PoolError` with `path` set
   */
  withPath(path: string): PoolError {
    return new PoolError(this.code, this.reason, { offset: this.offset, place: this.place, path });
  }
}
