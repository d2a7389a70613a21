import { describeValue } from '@ftw/internal';
import type { RedisPool } from './redis-pool.js';
import { RedisPoolError } from './redis-pool-error.js';

/**
 * When an actor picks up a newly published policy: at the start of each episode only, or before every
 * step (then one trajectory can span several versions, and its per-step versions v_t say which).
 *
 * @example
 * ```ts
 * const hotLoad: HotLoad = 'step';
 * ```
 */
export type HotLoad = 'episode' | 'step';

/**
 * How a {@link PolicyFollower} turns published bytes into the policy an actor acts with: a snapshot's
 * bytes into a policy, and a delta's bytes into the policy of the delta's version from the policy of the
 * version before. `delta` may change `policy` in place and return it.
 *
 * @example
 * ```ts
 * const loader: PolicyLoader<Float64Array> = {
 *   snapshot: (bytes) => new Float64Array(bytes.slice().buffer),
 *   delta: (theta, bytes) => applyRows(theta, bytes), // the learner's own delta encoding
 * };
 * ```
 */
export interface PolicyLoader<T> {
  /**
   * @param parameters - a snapshot's bytes
   * @param version - its version
   * @returns the policy
   */
  snapshot(parameters: Uint8Array, version: number): T;
  /**
   * @param policy - the policy of the version before the delta
   * @param delta - the delta's bytes
   * @param version - the version it makes
   * @returns the policy of that version
   */
  delta(policy: T, delta: Uint8Array, version: number): T;
}

/** The policy an actor acts with, and its version (record it as v_t). */
export interface FollowedPolicy<T> {
  /** Policy version, an integer in [0, 2^32 − 1]. */
  readonly version: number;
  /** The policy: the snapshot's bytes without a loader, the loader's value with one. */
  readonly parameters: T;
}

/** Without a loader: a snapshot's bytes as they are, and no deltas. */
const BYTES: PolicyLoader<Uint8Array> = {
  snapshot: (parameters) => parameters,
  delta: (_policy, _delta, version) => {
    throw new RedisPoolError(
      'NO_LOADER',
      `the learner published policy version ${version} as a delta: give PolicyFollower a loader that applies deltas`,
    );
  },
};

/**
 * An actor's view of the published policy. Call {@link PolicyFollower.beginEpisode} at the start of an
 * episode and {@link PolicyFollower.beforeStep} before each step, and record `version` for the step:
 * with `hotLoad: 'episode'` the policy changes only between episodes; with `'step'` it may change
 * between any two steps. A check costs one small read (a script that compares versions); when the version
 * changed, the same read brings what changed: the deltas after the version held (see
 * {@link RedisPool.publishPolicyDelta}), or the last snapshot and the deltas after it.
 *
 * Without a loader the policy is the snapshot's bytes, and a delta is refused (`NO_LOADER`). With one, the
 * loader decodes snapshots and applies deltas. When a loader throws, the follower forgets its policy, so
 * that the next check starts again from the snapshot.
 *
 * @example
 * ```ts
 * const follower = new PolicyFollower(pool, 'step');
 * let policy = await follower.beginEpisode();
 * for (let t = 0; !done; t++) {
 *   policy = await follower.beforeStep();
 *   versions.push(policy.version); // v_t
 *   // act with policy.parameters …
 * }
 * ```
 */
export class PolicyFollower<T = Uint8Array> {
  readonly #pool: RedisPool;
  readonly #hotLoad: HotLoad;
  readonly #loader: PolicyLoader<T>;
  #current: FollowedPolicy<T> | undefined;
  #loads = 0;

  /**
   * @param pool - the pool the learner publishes to
   * @param hotLoad - `'episode'` or `'step'`
   * @param loader - how to decode snapshots and apply deltas; without it, the policy is the snapshot's
   *   bytes (then `T` is `Uint8Array`)
   * @throws RangeError when `hotLoad` is neither; TypeError when `loader` lacks `snapshot` or `delta`
   */
  constructor(pool: RedisPool, hotLoad: HotLoad, loader: PolicyLoader<T> = BYTES as PolicyLoader<T>) {
    if (hotLoad !== 'episode' && hotLoad !== 'step') {
      throw new RangeError(`hotLoad must be 'episode' or 'step', got ${describeValue(hotLoad)}`);
    }
    if (typeof loader?.snapshot !== 'function' || typeof loader.delta !== 'function') {
      throw new TypeError(`loader must have snapshot and delta functions, got ${describeValue(loader)}`);
    }
    this.#pool = pool;
    this.#hotLoad = hotLoad;
    this.#loader = loader;
  }

  /** The policy in use, or `undefined` before the first episode. */
  get current(): FollowedPolicy<T> | undefined {
    return this.#current;
  }

  /** How many times a new version was loaded (version changes seen). */
  get loads(): number {
    return this.#loads;
  }

  /**
   * Loads the newest policy if it changed; call at the start of every episode.
   *
   * @returns the policy to act with
   * @throws RedisPoolError `NO_POLICY` when none was published yet; `NO_LOADER` when a delta arrives
   *   without a loader; `CONNECTION_LOST`; what the loader throws
   */
  beginEpisode(): Promise<FollowedPolicy<T>> {
    return this.#refresh();
  }

  /**
   * With `'step'`, loads the newest policy if it changed; with `'episode'`, returns the episode's
   * policy without any I/O.
   *
   * @returns the policy to act with at this step
   * @throws RedisPoolError `NO_POLICY` when called before any policy exists; as
   *   {@link PolicyFollower.beginEpisode} otherwise
   */
  async beforeStep(): Promise<FollowedPolicy<T>> {
    if (this.#hotLoad === 'step' || this.#current === undefined) return this.#refresh();
    return this.#current;
  }

  async #refresh(): Promise<FollowedPolicy<T>> {
    const held = this.#current;
    const changes = await this.#pool.readPolicyAfter(held?.version ?? null);
    if (changes === undefined) {
      throw new RedisPoolError('NO_POLICY', 'no policy has been published to this pool yet');
    }
    if (held !== undefined && changes.version === held.version) return held;
    this.#current = undefined;
    const { snapshot, deltas } = changes;
    let policy =
      snapshot === null ? held!.parameters : this.#loader.snapshot(snapshot.parameters, snapshot.version);
    for (const delta of deltas) policy = this.#loader.delta(policy, delta.bytes, delta.version);
    this.#current = { version: changes.version, parameters: policy };
    this.#loads++;
    return this.#current;
  }
}
