export {
  type FollowedPolicy,
  type HotLoad,
  PolicyFollower,
  type PolicyFollowerOptions,
  type PolicyLoader,
} from './policy-follower.js';
export { type EntryRange, PoolMirror, type PoolMirrorOptions, type SyncResult } from './pool-mirror.js';
export type { RateLimit } from './rate-limit.js';
export { redactUrl } from './redact-url.js';
export type { ConnectionOptions } from './redis-connection.js';
export {
  type PolicyChanges,
  type PolicyDelta,
  type PoolCounters,
  type PublishedPolicy,
  type PushOptions,
  type PushResult,
  RedisPool,
  type RedisPoolOptions,
} from './redis-pool.js';
export { RedisPoolError, type RedisPoolErrorCode } from './redis-pool-error.js';
export { type RedisServer, type RedisServerOptions, startRedisServer } from './start-redis-server.js';
