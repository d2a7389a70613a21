import type { PolicyLoader } from '@ftw/redis-pool';
import { type KeyedPolicyReader, KeyedPolicyWriter, type RowNames } from './keyed-policy.js';
import type { PolicyCodec, PolicyPublisher } from './policy-publisher.js';

/**
 * How a keyed tabular policy (rows named by state) goes out through a {@link PolicyPublisher}:
 * snapshots in {@link KeyedPolicyWriter.encode}'s layout (θ and every name), deltas of the rows an update
 * moved and the names added ({@link KeyedPolicyWriter.delta}); no delta when the update may have moved
 * any row (Adam's). Actors read it with {@link keyedLoader}.
 *
 * @param names - the learner's names, read at each version (their count may grow)
 * @param width - values per row of θ (the actions)
 * @returns the codec
 * @example
 * ```ts
 * const publisher = new PolicyPublisher(pool, keyedCodec(names, 4));
 * ```
 */
export function keyedCodec(names: RowNames, width: number): PolicyCodec {
  const writer = new KeyedPolicyWriter();
  return {
    snapshot: (theta) => writer.encode(theta, names),
    delta: (theta, moved) => (moved === null ? null : writer.delta(theta, names, moved, width)),
  };
}

/**
 * The `PolicyFollower` loader of {@link keyedCodec}'s versions: snapshots and deltas through `reader`, which
 * keeps the map from names to the learner's rows (`reader.rowOf(name)`: the row to act with).
 *
 * @param reader - the actor's reader
 * @returns the loader
 * @example
 * ```ts
 * const reader = new KeyedPolicyReader();
 * runActor({ …, loader: keyedLoader(reader), input: (o, theta) => reader.rowOf(nameOf(o)) ?? theta.length / A });
 * ```
 */
export function keyedLoader(reader: KeyedPolicyReader): PolicyLoader<Float64Array> {
  return { snapshot: (bytes) => reader.load(bytes), delta: (theta, bytes) => reader.apply(theta, bytes) };
}
