export type { ActionCode } from './action.js';
export { ACTION_NAMES, Action } from './action.js';
export type { LevelCacheOutcome } from './cached-level-split.js';
export { cachedLevelSplit } from './cached-level-split.js';
export type { BatchLogits, EncodedSokobanEnvOptions, SokobanEncoding } from './encoded-sokoban-env.js';
export { EncodedSokobanEnv } from './encoded-sokoban-env.js';
export type { FormatOptions } from './format-level.js';
export { formatLevel } from './format-level.js';
export { formatLevels } from './format-levels.js';
export type { GeneratedLevel, GenerateLevelOptions } from './generate-level.js';
export { generateLevel } from './generate-level.js';
export { GRID_CHANNELS, gridChannels } from './grid-channels.js';
export type { Level } from './level.js';
export { levelKey } from './level-key.js';
export type { LevelSplit, LevelSplitOptions } from './level-split.js';
export { levelSplit } from './level-split.js';
export type { LevelSetting, ResolvedLevelSetting, StreamLevel } from './level-stream.js';
export { LevelStream } from './level-stream.js';
export { parseActions } from './parse-actions.js';
export { parseLevel } from './parse-level.js';
export type { ParsedLevel, ParseOptions } from './parse-levels.js';
export { parseLevels } from './parse-levels.js';
export { PositionFeatures } from './position-features.js';
export { positionGrid } from './position-grid.js';
export type { UniformRandom } from './seeded-uniform.js';
export { seededUniform } from './seeded-uniform.js';
export type {
  SokobanEnvOptions,
  SokobanInfo,
  SokobanObservation,
  SokobanResetOptions,
  SokobanResetResult,
  SokobanStepResult,
} from './sokoban-env.js';
export { SokobanEnv } from './sokoban-env.js';
export type { SokobanErrorCode } from './sokoban-error.js';
export { SokobanError } from './sokoban-error.js';
export { SOKOBAN_FEATURE_COUNT, sokobanFeatures } from './sokoban-features.js';
export type { SokobanWarning } from './sokoban-warning.js';
export type { SolveLimits, SolveResult } from './solve.js';
export { solve } from './solve.js';
export type { GrowingRows, SparseFeatures } from './sparse-features.js';
export { appendRow, growingRows } from './sparse-features.js';
export type { TileCode } from './tile.js';
export { Tile } from './tile.js';
export type { Vocabulary } from './vocabulary.js';
export { TILE_CHARACTERS } from './vocabulary.js';
export type { SuccessInterval } from './wilson-interval.js';
export { wilsonInterval, Z_95 } from './wilson-interval.js';
