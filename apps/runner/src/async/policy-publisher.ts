import type { RedisPool } from '@ftw/redis-pool';
import { KeyedPolicyWriter, type PositionNames } from './keyed-policy.js';

/** Where a {@link PolicyPublisher} publishes: a pool's two ways of publishing a policy. */
export type PolicySink = Pick<RedisPool, 'publishPolicy' | 'publishPolicyDelta'>;

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
 * Publishes the learner's policy of a Redis run, version after version, so that a version costs what its
 * update moved. A tabular policy over named positions (`names` given) goes out as a
 * {@link KeyedPolicyWriter} delta, the rows the update moved and the names added, whenever the update
 * lists its moved rows; as a snapshot (θ and every name) for the first version, after an update that
 * may have moved any row (Adam, say), and whenever the deltas since the last snapshot would add up to
 * more than that snapshot's bytes. The server then holds at most about twice a snapshot, an actor that
 * joins late loads at most that much, and the snapshots cost at most as many bytes as the deltas in
 * between. Any other policy (`names` null: a bandit's table, a linear policy's weights) goes out whole,
 * as θ's bytes.
 *
 * @example
 * ```ts
 * const publisher = new PolicyPublisher(pool, env.numActions);
 * await publisher.publish(0, policy.parameters, names, null); // 'snapshot'
 * await publisher.publish(1, policy.parameters, names, stats.moved); // 'delta'
 * ```
 */
export class PolicyPublisher {
  readonly #pool: PolicySink;
  readonly #width: number;
  readonly #writer = new KeyedPolicyWriter();
  /** Bytes of the last snapshot, and of the deltas published since; 0 before the first snapshot. */
  #snapshotBytes = 0;
  #deltaBytes = 0;
  #snapshots = 0;
  #deltas = 0;
  #bytes = 0;

  /**
   * @param pool - the pool to publish to
   * @param width - the policy's actions: values per row of θ
   */
  constructor(pool: PolicySink, width: number) {
    this.#pool = pool;
    this.#width = width;
  }

  /** What was published so far. */
  get published(): PublishedBytes {
    return { snapshots: this.#snapshots, deltas: this.#deltas, bytes: this.#bytes };
  }

  /**
   * Publishes one version.
   *
   * @param version - the version, above the last one published
   * @param parameters - θ
   * @param names - the name of each row (positions), or null for a policy published as θ's bytes
   * @param moved - the rows that moved since the last version published (each once), or null when any
   *   may have
   * @returns how it went out
   * @throws what the pool throws (`VERSION_NOT_NEWER`, `CONNECTION_LOST`); RangeError for names or rows
   *   that {@link KeyedPolicyWriter} refuses
   */
  async publish(
    version: number,
    parameters: Float64Array,
    names: PositionNames | null,
    moved: ArrayLike<number> | null,
  ): Promise<'snapshot' | 'delta'> {
    if (names !== null && moved !== null && this.#snapshotBytes > 0) {
      const delta = this.#writer.delta(parameters, names, moved, this.#width);
      if (this.#deltaBytes + delta.length <= this.#snapshotBytes) {
        await this.#pool.publishPolicyDelta(version, delta);
        this.#deltaBytes += delta.length;
        this.#deltas++;
        this.#bytes += delta.length;
        return 'delta';
      }
    }
    const bytes =
      names === null
        ? new Uint8Array(Float64Array.from(parameters).buffer)
        : this.#writer.encode(parameters, names);
    await this.#pool.publishPolicy(version, bytes);
    this.#snapshotBytes = names === null ? 0 : bytes.length;
    this.#deltaBytes = 0;
    this.#snapshots++;
    this.#bytes += bytes.length;
    return 'snapshot';
  }
}
