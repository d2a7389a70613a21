import { readFileSync } from 'node:fs';
import { describeValue } from '@ftw/internal';
import { decodeSnapshot } from './decode-snapshot.js';
import { PoolError } from './pool-error.js';
import type { PoolState } from './pool-state.js';

/**
 * Reads and verifies a snapshot file, attaching the path to any {@link PoolError}. Internal.
 *
 * @param path - the snapshot file
 * @returns the verified pool state
 * @throws TypeError for a path that is not a non-empty string; PoolError for a bad snapshot; the `fs`
 *   error when the file cannot be read
 */
export function readSnapshotFile(path: string): PoolState {
  if (typeof path !== 'string' || path === '') {
    throw new TypeError(`path must be a non-empty string, got ${describeValue(path)}`);
  }
  try {
    return decodeSnapshot(readFileSync(path));
  } catch (error) {
    throw error instanceof PoolError ? error.withPath(path) : error;
  }
}
