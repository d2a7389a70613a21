export type { JsonValue } from './json-value.js';
export { PoolError, type PoolErrorCode, type PoolErrorDetails } from './pool-error.js';
export { ReplayPool } from './replay-pool.js';
export type { ReplayPoolOptions } from './replay-pool-options.js';
export type { SelectableTrajectories } from './selectable-trajectories.js';
export { SNAPSHOT_FORMAT_VERSION } from './snapshot-format.js';
export type { AgeSummary, Staleness } from './staleness.js';
export type { Trajectory } from './trajectory.js';
export type { TrajectoryInput } from './trajectory-input.js';
