/**
 * The stable codes of {@link RedisPoolError}. Programs branch on these; the message is for people.
 *
 * - `SERVER_NOT_FOUND`: `redis-server` is not installed (or not at the path given).
 * - `SERVER_START`: `redis-server` exited or did not get ready in time.
 * - `CONNECTION_LOST`: the connection dropped and did not come back within `reconnectTimeoutMs`.
 * - `POOL_NOT_FOUND`: no pool of that name exists on the server (nobody opened it with a capacity).
 * - `CONFIG_MISMATCH`: the pool exists with another capacity, retention or rate limit.
 * - `RATE_LIMITED`: the rate limiter still refused inserts (or an update) when the wait timed out.
 * - `VERSION_NOT_NEWER`: a policy was published with a version not above the one already published.
 * - `NO_POLICY`: an actor asked for the policy before the learner published one, or a learner published a
 *   delta before any snapshot.
 * - `NO_LOADER`: a `PolicyFollower` without a loader met a policy delta it cannot apply.
 * - `RANGE_TRIMMED`: an id range asked for replay is no longer (entirely) in the stream.
 * - `CLUSTER_NODE`: a single-server URL (`redis://`) reaches a node of a Redis Cluster; the message gives
 *   the cluster URL (`redis+cluster://`) to use instead.
 * - `NOT_A_CLUSTER`: a cluster URL (`redis+cluster://`) reaches a server that is not in cluster mode.
 * - `NOT_REPLICATED`: a push reached the master but fewer replicas than `replicas` confirmed it within
 *   `replicaTimeoutMs`, so it is not acknowledged (a failover now could lose it; pushing again is safe).
 *
 * @example
 * ```ts
 * const code: RedisPoolErrorCode = 'RATE_LIMITED';
 * ```
 */
export type RedisPoolErrorCode =
  | 'SERVER_NOT_FOUND'
  | 'SERVER_START'
  | 'CONNECTION_LOST'
  | 'POOL_NOT_FOUND'
  | 'CONFIG_MISMATCH'
  | 'RATE_LIMITED'
  | 'VERSION_NOT_NEWER'
  | 'NO_POLICY'
  | 'NO_LOADER'
  | 'RANGE_TRIMMED'
  | 'CLUSTER_NODE'
  | 'NOT_A_CLUSTER'
  | 'NOT_REPLICATED';

/**
 * A domain error of `@ftw/redis-pool` with a stable {@link RedisPoolErrorCode}. Argument errors are
 * `RangeError`/`TypeError` instead; a corrupt trajectory is a `PoolError` of `@ftw/replay-pool` (and a
 * mirror skips and counts it rather than throw).
 *
 * @example
 * ```ts
 * try {
 *   await pool.publishPolicy(3, parameters);
 * } catch (error) {
 *   if (error instanceof RedisPoolError && error.code === 'VERSION_NOT_NEWER') console.log(error.message);
 *   // VERSION_NOT_NEWER: policy version 3 is not above the published version 5
 * }
 * ```
 */
export class RedisPoolError extends Error {
  /** Stable machine-readable code. */
  readonly code: RedisPoolErrorCode;

  /**
   * @param code - the stable code
   * @param message - what went wrong, for people
   * @param options - the underlying error, when there is one
   */
  constructor(code: RedisPoolErrorCode, message: string, options?: { cause?: unknown }) {
    super(`${code}: ${message}`, options);
    this.name = 'RedisPoolError';
    this.code = code;
  }
}
