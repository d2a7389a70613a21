import type { RedisPool } from '@ftw/redis-pool';
import { encodeTheta, encodeThetaDelta } from './theta-codec.js';

/** Where a {@link PolicyPublisher} publishes: a pool's two ways of publishing a policy. */
export type PolicySink = Pick<RedisPool, 'publishPolicy' | 'publishPolicyDelta'>;

/**
 * How a {@link PolicyPublisher} turns θ into bytes. A codec keeps what it needs of the versions it encoded
 * (the last θ, names met so far): each call is for the next version, and exactly one of the two is called
 * per version unless `delta` returns bytes that the publisher then drops for `snapshot` (too large).
 */
export interface PolicyCodec {
  /**
   * @param theta - θ of the version
   * @returns the whole policy as bytes
   */
  snapshot(theta: Float64Array): Uint8Array;
  /**
   * @param theta - θ of the version
   * @param moved - the blocks the update moved, when the caller knows them, else null
   * @returns the change since the version encoded before, or null when this codec cannot express it
   */
  delta(theta: Float64Array, moved: ArrayLike<number> | null): Uint8Array | null;
}

/**
 * The default codec: θ whole ({@link encodeTheta}) or as the entries that changed since the version before
 * ({@link encodeThetaDelta}, found by comparing with a copy of the last θ: O(P) per version, whatever the
 * update said it moved). Any policy whose θ is a `Float64Array` fits it; actors read it with
 * {@link thetaLoader}.
 *
 * @returns a fresh codec (it holds the last θ)
 * @example
 * ```ts
 * const publisher = new PolicyPublisher(pool, thetaCodec());
 * ```
 */
export function thetaCodec(): PolicyCodec {
  let last: Float64Array | null = null;
  return {
    snapshot(theta) {
      last = Float64Array.from(theta);
      return encodeTheta(theta);
    },
    delta(theta) {
      if (last === null) return null;
      const bytes = encodeThetaDelta(last, theta);
      last = Float64Array.from(theta);
      return bytes;
    },
  };
}

/** What a {@link PolicyPublisher} has published so far. */
export interface PublishedBytes {
  /** Snapshots published. */
  readonly snapshots: number;
  /** Deltas published. */
  readonly deltas: number;
  /** Bytes of every snapshot and delta published. */
  readonly bytes: number;
}

/**
 * Publishes a learner's policy, version after version, so that a version costs what its update moved: as
 * a delta whenever the codec gives one and the deltas since the last snapshot, this one included, add up
 * to at most that snapshot's bytes; as a snapshot otherwise (the first version, an update that moved most
 * of θ, or once the deltas have grown to a snapshot's size). The server then holds at most about twice a
 * snapshot, an actor that joins late loads at most that much, and snapshots cost at most as many bytes as
 * the deltas in between. Each version is atomic on the server (`RedisPool.publishPolicy` /
 * `publishPolicyDelta` are single Lua scripts), so an actor never reads half a version.
 *
 * @example
 * ```ts
 * const publisher = new PolicyPublisher(pool); // thetaCodec()
 * await publisher.publish(0, policy.parameters); // 'snapshot'
 * await publisher.publish(1, policy.parameters); // 'delta' when few entries moved
 * ```
 */
export class PolicyPublisher {
  readonly #pool: PolicySink;
  readonly #codec: PolicyCodec;
  /** Bytes of the last snapshot, and of the deltas published since. */
  #snapshotBytes = 0;
  #deltaBytes = 0;
  #snapshots = 0;
  #deltas = 0;
  #bytes = 0;

  /**
   * @param pool - the pool to publish to
   * @param codec - how θ becomes bytes
   *   @defaultValue `thetaCodec()`
   */
  constructor(pool: PolicySink, codec: PolicyCodec = thetaCodec()) {
    this.#pool = pool;
    this.#codec = codec;
  }

  /** What was published so far. */
  get published(): PublishedBytes {
    return { snapshots: this.#snapshots, deltas: this.#deltas, bytes: this.#bytes };
  }

  /**
   * Publishes one version.
   *
   * @param version - the version, above the last one published
   * @param theta - θ
   * @param moved - the blocks that moved since the last version, when known (a codec may use them), else
   *   null
   * @returns how it went out
   * @throws what the pool throws (`VERSION_NOT_NEWER`, `CONNECTION_LOST`) and what the codec throws
   */
  async publish(
    version: number,
    theta: Float64Array,
    moved: ArrayLike<number> | null = null,
  ): Promise<'snapshot' | 'delta'> {
    if (this.#snapshotBytes > 0) {
      const delta = this.#codec.delta(theta, moved);
      if (delta !== null && this.#deltaBytes + delta.length <= this.#snapshotBytes) {
        await this.#pool.publishPolicyDelta(version, delta);
        this.#deltaBytes += delta.length;
        this.#deltas++;
        this.#bytes += delta.length;
        return 'delta';
      }
    }
    const bytes = this.#codec.snapshot(theta);
    await this.#pool.publishPolicy(version, bytes);
    this.#snapshotBytes = bytes.length;
    this.#deltaBytes = 0;
    this.#snapshots++;
    this.#bytes += bytes.length;
    return 'snapshot';
  }
}
