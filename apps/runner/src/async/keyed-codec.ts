import type { PolicyCodec } from '@ftw/actors';
import { KeyedPolicyWriter, type PositionNames } from './keyed-policy.js';

/**
 * How a tabular policy over named Sokoban positions goes out through `@ftw/actors`' `PolicyPublisher`:
 * snapshots in {@link KeyedPolicyWriter.encode}'s layout (θ and every name), deltas of the rows an update
 * moved and the names added ({@link KeyedPolicyWriter.delta}); no delta when the update may have moved
 * any row (Adam's). Actors read it with a `KeyedPolicyReader`.
 *
 * @param names - the learner's names, read at each version (their count may grow)
 * @param width - values per row of θ (the actions)
 * @returns the codec
 * @example
 * ```ts
 * const publisher = new PolicyPublisher(pool, keyedCodec(names, 4));
 * ```
 */
export function keyedCodec(names: PositionNames, width: number): PolicyCodec {
  const writer = new KeyedPolicyWriter();
  return {
    snapshot: (theta) => writer.encode(theta, names),
    delta: (theta, moved) => (moved === null ? null : writer.delta(theta, names, moved, width)),
  };
}
