import { UsageError } from '../cli/usage-error.js';
import { readInteger } from './read-value.js';

/** A (C, K) pair: minibatch size and elites kept. */
export interface BatchKeepPair {
  /** Minibatch size C. */
  readonly batchSize: number;
  /** Elites kept per minibatch K. */
  readonly keep: number;
}

/**
 * Reads a list of (C, K) pairs written `C:K,C:K,…`, each with 1 ≤ K ≤ C ≤ n.
 *
 * @param value - e.g. `'4:1,5:3'`
 * @param label - how the user named it
 * @param n - the pool size N the pairs must fit in
 * @returns the pairs in the given order
 * @throws {@link UsageError} when a pair is malformed, out of range or repeated
 * @example
 * ```ts
 * readPairs('4:1,5:3', '--pairs', 128); // [{ batchSize: 4, keep: 1 }, { batchSize: 5, keep: 3 }]
 * ```
 */
export function readPairs(value: unknown, label: string, n: number): BatchKeepPair[] {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new UsageError(`${label} must be a list of C:K pairs like 4:1,5:3, got ${JSON.stringify(value)}`);
  }
  const pairs = value.split(',').map((item, i) => {
    const parts = item.split(':');
    if (parts.length !== 2) {
      throw new UsageError(
        `${label}[${i}] must be C:K with 1 <= K <= C <= N = ${n}, got ${JSON.stringify(item)}`,
      );
    }
    const batchSize = readInteger(parts[0], `${label}[${i}] C`, { min: 1, max: n });
    const keep = readInteger(parts[1], `${label}[${i}] K`, { min: 1, max: batchSize });
    return { batchSize, keep };
  });
  const keys = pairs.map((p) => `${p.batchSize}:${p.keep}`);
  if (new Set(keys).size !== keys.length)
    throw new UsageError(`${label} must not repeat a pair, got ${value}`);
  return pairs;
}
