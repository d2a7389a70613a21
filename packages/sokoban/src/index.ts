export type { ActionCode } from './action.js';
export { ACTION_NAMES, Action } from './action.js';
export type { LevelCacheOutcome } from './cached-level-split.js';
export { cachedLevelSplit } from './cached-level-split.js';
export type { FormatOptions } from './format-level.js';
export { formatLevel } from './format-level.js';
export { formatLevels } from './format-levels.js';
export type { GeneratedLevel, GenerateLevelOptions } from './generate-level.js';
export { generateLevel } from './generate-level.js';
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
export type { SokobanWarning } from './sokoban-warning.js';
export type { SolveLimits, SolveResult } from './solve.js';
export { solve } from './solve.js';
export type { TileCode } from './tile.js';
export { Tile } from './tile.js';
export type { Vocabulary } from './vocabulary.js';
export { TILE_CHARACTERS } from './vocabulary.js';
export type { SuccessInterval } from './wilson-interval.js';
export { wilsonInterval, Z_95 } from './wilson-interval.js';
