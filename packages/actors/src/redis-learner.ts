import { type EntryRange, PoolMirror, RedisPool } from '@ftw/redis-pool';
import type { DecodedTrajectory, ReplayPool, TrajectoryInput } from '@ftw/replay-pool';
import type { Episode, Policy, Updater, UpdateStats } from '@ftw/trainer';
import { ActorsLostError } from './actors-lost-error.js';
import { BehaviourCheck, type BehaviourCheckResult } from './behaviour-check.js';
import { type PolicyCodec, PolicyPublisher, type PublishedBytes } from './policy-publisher.js';
import type { ServerOutage } from './run-faults.js';
import { describeArchitecture, writeRunNotes } from './run-notes.js';
import { ServerWatch } from './server-watch.js';

/** What {@link RedisLearner.open} needs. */
export interface RedisLearnerOptions {
  /** The pool's name (its keys share the hash tag `{name}`). */
  readonly name: string;
  /** The run's id, left in the pool's notes; a pool of another run is refused. */
  readonly runId: string;
  /** The application's name of the policy's kind (see `PolicyArchitecture`). */
  readonly kind: string;
  /** The learner's policy: θ is published after every update. */
  readonly policy: Policy;
  /** Trajectories the pool (and its mirror) hold, N. */
  readonly capacity: number;
  /** Episodes per update: the rate limiter grants one update per `rollouts` inserts (tolerance 1). */
  readonly rollouts: number;
  /** Stream entries kept beyond the pool, so that recent updates replay. @defaultValue 0 */
  readonly retain?: number;
  /** Skip trajectories older than this many versions. @defaultValue none */
  readonly maxVersionLag?: number | undefined;
  /**
   * What the mirror holds of each pushed trajectory (e.g. names numbered into observation ids), or null to
   * skip it as malformed. @defaultValue the trajectory as pushed
   */
  readonly prepare?: (t: DecodedTrajectory) => TrajectoryInput | null;
  /** How θ goes out. @defaultValue `thetaCodec()` */
  readonly codec?: PolicyCodec;
  /** Seconds without a new episode after which {@link RedisLearner.collect} fails. @defaultValue 600 */
  readonly waitSeconds?: number;
  /**
   * Resume a learner that stopped (a crash, a kill) from its checkpoint: the mirror's range when the
   * checkpoint was taken (`mirror.range()`), with `policy` holding the checkpoint's θ. The mirror is
   * restored to that range (`PoolMirror.restore`), so episodes consumed before are not new again and those
   * pushed since are read once; θ is published at once, whole, as the version after the newest one on the
   * server (the versions the stopped learner published after its checkpoint stay as they were: trajectories
   * recorded them). Absent: a fresh learner, which publishes version 0.
   */
  readonly resume?: { readonly range: EntryRange } | undefined;
}

/**
 * The episode at a position of a pool (copies), as the updaters and the behaviour check read it.
 *
 * @param pool - a mirror's pool, its trajectories with observations
 * @param position - 0 = oldest
 * @returns the episode
 * @example
 * ```ts
 * const newest = episodeAt(mirror.pool, mirror.pool.size - 1);
 * ```
 */
export function episodeAt(pool: ReplayPool, position: number): Episode {
  const t = pool.at(position);
  return {
    length: t.actions.length,
    observations: Float64Array.from(t.observations ?? new Float64Array(t.actions.length)),
    actions: Int32Array.from(t.actions),
    logProbs: Float64Array.from(t.logProbs),
    versions: Uint32Array.from(t.versions),
    return: t.return,
  };
}

/**
 * The learner of a run over Redis, for any policy: it owns the pool (with Reverb's sample-to-insert rate
 * limiter, one update per `rollouts` inserts, so actors run at most about one iteration ahead), an
 * incremental {@link PoolMirror} of it (selection runs on the local copy), the {@link PolicyPublisher} of
 * θ, the run notes that keep other runs' and other architectures' actors out, and the
 * {@link BehaviourCheck}. Each iteration: {@link RedisLearner.collect} the new episodes, update with any
 * `@ftw/trainer` updater (FTW selecting from `mirror.pool`, or a baseline on the fresh episodes), then
 * {@link RedisLearner.publish}; {@link RedisLearner.step} does all three.
 *
 * @example
 * ```ts
 * const learner = await RedisLearner.open(url, { name: 'run-7', runId: 'run-7', kind: 'linear', policy, capacity: 128, rollouts: 4 });
 * const updater = new FtwUpdater(ftwOptions, policy, createOptimizer('adam', 0.05), select, learner.mirror.pool);
 * for (let i = 0; i < 100; i++) await learner.step(updater);
 * await learner.close();
 * ```
 */
export class RedisLearner {
  /** The pool (notes, rate limiter, publication). */
  readonly pool: RedisPool;
  /** The local mirror of the pool's newest N trajectories. */
  readonly mirror: PoolMirror;
  /** Re-scoring of arrived steps taken with the current version. */
  readonly check: BehaviourCheck;
  readonly #policy: Policy;
  readonly #publisher: PolicyPublisher;
  readonly #waitMs: number;
  readonly #rollouts: number;
  readonly #name: string;
  readonly #watch: ServerWatch;
  #version = 0;
  #started = 0;
  #waited = 0;
  #arrived = 0;

  private constructor(pool: RedisPool, mirror: PoolMirror, options: RedisLearnerOptions) {
    this.pool = pool;
    this.mirror = mirror;
    this.#policy = options.policy;
    this.check = new BehaviourCheck(options.policy);
    this.#publisher = new PolicyPublisher(pool, options.codec);
    this.#waitMs = (options.waitSeconds ?? 600) * 1000;
    this.#rollouts = options.rollouts;
    this.#name = options.name;
    this.#watch = new ServerWatch(() => pool.counters());
  }

  /**
   * Opens the pool and its mirror, leaves the run notes and publishes version 0.
   *
   * @param url - the Redis server
   * @param options - see {@link RedisLearnerOptions}
   * @returns the learner
   * @throws RangeError for a bad `rollouts`, `capacity` or `waitSeconds`; ActorsError `RUN_MISMATCH` when
   *   the pool belongs to another run; RedisPoolError (`RANGE_TRIMMED` when `resume.range` is no longer in
   *   the stream, `CONNECTION_LOST`, …)
   */
  static async open(url: string, options: RedisLearnerOptions): Promise<RedisLearner> {
    const { rollouts, waitSeconds } = options;
    if (!Number.isInteger(rollouts) || rollouts < 1) {
      throw new RangeError(`options.rollouts must be an integer >= 1, got ${String(rollouts)}`);
    }
    if (waitSeconds !== undefined && !(waitSeconds > 0)) {
      throw new RangeError(`options.waitSeconds must be > 0, got ${String(waitSeconds)}`);
    }
    const r = 1 / rollouts;
    const pool = await RedisPool.open(url, {
      name: options.name,
      capacity: options.capacity,
      retain: options.retain ?? 0,
      rateLimit: { updatesPerInsert: r, minSize: rollouts, tolerance: Math.max(1, r) },
    });
    let mirror: PoolMirror | undefined;
    try {
      await writeRunNotes(pool, options.runId, describeArchitecture(options.kind, options.policy));
      mirror = await PoolMirror.open(url, {
        name: options.name,
        maxVersionLag: options.maxVersionLag ?? undefined,
        ...(options.prepare === undefined ? {} : { prepare: options.prepare }),
      });
      const learner = new RedisLearner(pool, mirror, options);
      if (options.resume !== undefined) {
        await mirror.restore(options.resume.range);
        const published = await pool.readPolicyVersion();
        learner.#version = published === undefined ? 0 : published + 1;
      }
      await learner.#publisher.publish(learner.#version, options.policy.parameters);
      learner.#watch.start();
      return learner;
    } catch (error) {
      await Promise.all([pool.close(), mirror?.close()]);
      throw error;
    }
  }

  /**
   * The current policy version: the number of updates published (after a resume, versions go on after the
   * newest one published before it).
   */
  get version(): number {
    return this.#version;
  }

  /** What was published so far. */
  get published(): PublishedBytes {
    return this.#publisher.published;
  }

  /** The behaviour check's result so far. */
  get behaviourCheck(): BehaviourCheckResult {
    return this.check.result;
  }

  /**
   * The stretches in which the server answered none of the learner's heartbeats (a `ServerWatch` on the
   * pool's connection, from `open` to `close`); the learner waits them out while its connections' reconnect
   * timeout (10 s by default) lasts.
   */
  get outages(): readonly ServerOutage[] {
    return this.#watch.outages;
  }

  /** `performance.now()` when the first episode arrived (0 before): throughput's clock starts there. */
  get startedAt(): number {
    return this.#started;
  }

  /**
   * Milliseconds spent in {@link RedisLearner.collect} since the first episode arrived: waiting for the
   * actors' episodes and for the rate limiter's grant. Over the time since `startedAt`, the share of the
   * learner's time it waited: near 1, the actors bound the run's throughput; near 0, the learner does.
   */
  get waitedMs(): number {
    return this.#waited;
  }

  /**
   * Waits for at least `count` new episodes in the mirror, then takes an update from the rate limiter,
   * and scores again the arrived steps of the current version (the behaviour check).
   *
   * @param count - episodes to wait for @defaultValue `rollouts`
   * @param abort - rejects to stop waiting (e.g. an actor process exited)
   * @returns the new episodes (copies), oldest first
   * @throws ActorsLostError when no episode arrives for `waitSeconds`; what `abort` rejects with;
   *   RedisPoolError `CONNECTION_LOST`
   */
  async collect(count = this.#rollouts, abort?: Promise<never>): Promise<Episode[]> {
    const race = <T>(p: Promise<T>): Promise<T> => (abort === undefined ? p : Promise.race([p, abort]));
    const called = performance.now();
    const fresh: Episode[] = [];
    if (this.#arrived === 0) this.#arrived = Date.now();
    while (fresh.length < count) {
      const { added } = await race(this.mirror.sync({ blockMs: 1000 }));
      if (added > 0) {
        this.#arrived = Date.now();
        if (this.#started === 0) this.#started = performance.now();
      } else if (Date.now() - this.#arrived > this.#waitMs) {
        throw new ActorsLostError(
          `no episode arrived in pool ${this.#name} for ${this.#waitMs / 1000} s: no actor is pushing to it`,
        );
      }
      const size = this.mirror.pool.size;
      for (let p = size - added; p < size; p++) fresh.push(episodeAt(this.mirror.pool, p));
    }
    await race(this.pool.acquireUpdate(600_000));
    this.#waited += performance.now() - Math.max(called, this.#started);
    for (const e of fresh) this.check.add(e, this.#version);
    return fresh;
  }

  /**
   * Publishes θ as the next version (call after an update that changed the policy).
   *
   * @param moved - the blocks the update moved, when known (a codec may use them)
   * @returns the new version
   * @throws what the pool and the codec throw
   */
  async publish(moved: ArrayLike<number> | null = null): Promise<number> {
    await this.#publisher.publish(this.#version + 1, this.#policy.parameters, moved);
    return ++this.#version;
  }

  /**
   * One iteration: {@link RedisLearner.collect}, `updater.update`, and {@link RedisLearner.publish} when the
   * policy changed.
   *
   * @param updater - any `@ftw/trainer` updater of this learner's policy
   * @param abort - as for `collect`
   * @returns the episodes and the update's statistics (null without an update)
   */
  async step(
    updater: Updater,
    abort?: Promise<never>,
  ): Promise<{ readonly episodes: Episode[]; readonly stats: UpdateStats | null }> {
    const episodes = await this.collect(this.#rollouts, abort);
    const stats = updater.update(episodes, this.#version);
    if (stats !== null) await this.publish(stats.moved ?? null);
    return { episodes, stats };
  }

  /** Closes the pool and the mirror (call however the run ended: open clients keep a process alive). */
  async close(): Promise<void> {
    this.#watch.stop();
    await Promise.all([this.pool.close(), this.mirror.close()]);
  }
}
