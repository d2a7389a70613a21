import { describeValue } from '@ftw/internal';
import type { PublishedPolicy, RedisPool } from './redis-pool.js';
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
 * An actor's view of the published policy. Call {@link PolicyFollower.beginEpisode} at the start of an
 * episode and {@link PolicyFollower.beforeStep} before each step, and record `version` for the step:
 * with `hotLoad: 'episode'` the policy changes only between episodes; with `'step'` it may change
 * between any two steps. A check costs one small read (`HGET version`); parameters are fetched only
 * when the version changed.
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
export class PolicyFollower {
  readonly #pool: RedisPool;
  readonly #hotLoad: HotLoad;
  #current: PublishedPolicy | undefined;
  #loads = 0;

  /**
   * @param pool - the pool the learner publishes to
   * @param hotLoad - `'episode'` or `'step'`
   * @throws RangeError when `hotLoad` is neither
   */
  constructor(pool: RedisPool, hotLoad: HotLoad) {
    if (hotLoad !== 'episode' && hotLoad !== 'step') {
      throw new RangeError(`hotLoad must be 'episode' or 'step', got ${describeValue(hotLoad)}`);
    }
    this.#pool = pool;
    this.#hotLoad = hotLoad;
  }

  /** The policy in use, or `undefined` before the first episode. */
  get current(): PublishedPolicy | undefined {
    return this.#current;
  }

  /** How many times parameters were loaded (version changes seen). */
  get loads(): number {
    return this.#loads;
  }

  /**
   * Loads the newest policy if it changed; call at the start of every episode.
   *
   * @returns the policy to act with
   * @throws RedisPoolError `NO_POLICY` when none was published yet; `CONNECTION_LOST`
   */
  beginEpisode(): Promise<PublishedPolicy> {
    return this.#refresh();
  }

  /**
   * With `'step'`, loads the newest policy if it changed; with `'episode'`, returns the episode's
   * policy without any I/O.
   *
   * @returns the policy to act with at this step
   * @throws RedisPoolError `NO_POLICY` when called before any policy exists; `CONNECTION_LOST`
   */
  async beforeStep(): Promise<PublishedPolicy> {
    if (this.#hotLoad === 'step' || this.#current === undefined) return this.#refresh();
    return this.#current;
  }

  async #refresh(): Promise<PublishedPolicy> {
    const version = await this.#pool.readPolicyVersion();
    if (version === undefined) {
      throw new RedisPoolError('NO_POLICY', 'no policy has been published to this pool yet');
    }
    if (this.#current?.version !== version) {
      const policy = await this.#pool.readPolicy();
      if (policy === undefined)
        throw new RedisPoolError('NO_POLICY', 'no policy has been published to this pool yet');
      this.#current = policy;
      this.#loads++;
    }
    return this.#current;
  }
}
