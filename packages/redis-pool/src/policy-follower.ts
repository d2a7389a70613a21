import { setImmediate as yieldToIo } from 'node:timers/promises';
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

/** Options of a {@link PolicyFollower}. */
export interface PolicyFollowerOptions<T> {
  /**
   * How to decode snapshots and apply deltas; without it, the policy is the snapshot's bytes (then `T` is
   * `Uint8Array`) and a delta is refused (`NO_LOADER`).
   */
  readonly loader?: PolicyLoader<T>;
  /**
   * Learn of new versions from the pool's announcements ({@link RedisPool.watchPolicyVersion}, on a
   * connection of the follower's own) instead of asking the server at every check: a check then costs a
   * turn of the event loop, and a read only when a version newer than the one held was announced.
   * @defaultValue false
   */
  readonly notify?: boolean;
}

/**
 * An actor's view of the published policy. Call {@link PolicyFollower.beginEpisode} at the start of an
 * episode and {@link PolicyFollower.beforeStep} before each step, and record `version` for the step:
 * with `hotLoad: 'episode'` the policy changes only between episodes; with `'step'` it may change
 * between any two steps.
 *
 * A check asks the server what changed since the version held (one small script); when the version
 * changed, the same read brings the deltas after it (see {@link RedisPool.publishPolicyDelta}), or the last
 * snapshot and the deltas after it. With `notify`, the follower instead listens to the versions the pool
 * announces: a check yields to the event loop once, so that announcements that arrived are taken in, and
 * reads only when one is newer than the version held. Announcements that may have been lost are made up
 * for: from any sign of trouble on the listening connection (an error, a reconnection, its closing) until
 * the next announcement, every check reads. A version published just before a check may be seen one check later than by asking (the
 * announcement is on its way), as it may when asking (the publication is).
 *
 * Without a loader the policy is the snapshot's bytes, and a delta is refused (`NO_LOADER`). With one, the
 * loader decodes snapshots and applies deltas. When a loader throws, the follower forgets its policy, so
 * that the next check starts again from the snapshot.
 *
 * @example
 * ```ts
 * const follower = new PolicyFollower(pool, 'step', { notify: true });
 * let policy = await follower.beginEpisode();
 * for (let t = 0; !done; t++) {
 *   policy = await follower.beforeStep();
 *   versions.push(policy.version); // v_t
 *   // act with policy.parameters …
 * }
 * await follower.close();
 * ```
 */
export class PolicyFollower<T = Uint8Array> {
  readonly #pool: RedisPool;
  readonly #hotLoad: HotLoad;
  readonly #loader: PolicyLoader<T>;
  #notify: boolean;
  #current: FollowedPolicy<T> | undefined;
  #loads = 0;
  #reads = 0;
  /** With `notify`: the watch, once asked for; the newest version announced or read. */
  #watch: Promise<{ close(): Promise<void> }> | undefined;
  #announced = -1;
  /** With `notify`: whether every version published since the last read was announced to us. */
  #heard = false;

  /**
   * @param pool - the pool the learner publishes to
   * @param hotLoad - `'episode'` or `'step'`
   * @param options - a loader, and whether to listen to announcements (see {@link PolicyFollowerOptions})
   * @throws RangeError when `hotLoad` is neither; TypeError when a loader lacks `snapshot` or `delta`, or
   *   `notify` is not a boolean
   */
  constructor(pool: RedisPool, hotLoad: HotLoad, options: PolicyFollowerOptions<T> = {}) {
    if (hotLoad !== 'episode' && hotLoad !== 'step') {
      throw new RangeError(`hotLoad must be 'episode' or 'step', got ${describeValue(hotLoad)}`);
    }
    const loader = options.loader ?? (BYTES as PolicyLoader<T>);
    if (typeof loader?.snapshot !== 'function' || typeof loader.delta !== 'function') {
      throw new TypeError(
        `options.loader must have snapshot and delta functions, got ${describeValue(loader)}`,
      );
    }
    const notify = options.notify ?? false;
    if (typeof notify !== 'boolean') {
      throw new TypeError(`options.notify must be a boolean, got ${describeValue(notify)}`);
    }
    this.#pool = pool;
    this.#hotLoad = hotLoad;
    this.#loader = loader;
    this.#notify = notify;
  }

  /** The policy in use, or `undefined` before the first episode. */
  get current(): FollowedPolicy<T> | undefined {
    return this.#current;
  }

  /** How many times a new version was loaded (version changes seen). */
  get loads(): number {
    return this.#loads;
  }

  /** How many times the follower asked the server what changed (one script call each). */
  get reads(): number {
    return this.#reads;
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

  /**
   * Stops listening to announcements (with `notify`): later checks ask the server, as without `notify`.
   * Closing the pool stops the listening too.
   */
  async close(): Promise<void> {
    const watch = this.#watch;
    this.#notify = false;
    this.#watch = undefined;
    this.#heard = false;
    if (watch !== undefined) await (await watch.catch(() => undefined))?.close();
  }

  async #refresh(): Promise<FollowedPolicy<T>> {
    const held = this.#current;
    if (this.#notify) {
      await this.#listen();
      await yieldToIo();
      if (held !== undefined && this.#heard && this.#announced <= held.version) return held;
    }
    this.#reads++;
    const changes = await this.#pool.readPolicyAfter(held?.version ?? null);
    if (changes === undefined) {
      throw new RedisPoolError('NO_POLICY', 'no policy has been published to this pool yet');
    }
    this.#announced = Math.max(this.#announced, changes.version);
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

  /** Subscribes once; a failed subscription is asked for again at the next check. */
  async #listen(): Promise<void> {
    if (this.#watch === undefined) {
      const watch = this.#pool.watchPolicyVersion(
        (version) => {
          this.#announced = Math.max(this.#announced, version);
          this.#heard = true;
        },
        () => {
          this.#heard = false;
        },
      );
      this.#watch = watch;
      watch.then(
        () => {
          if (this.#watch === watch) this.#heard = true;
        },
        () => {
          if (this.#watch === watch) this.#watch = undefined;
        },
      );
    }
    await this.#watch;
  }
}
