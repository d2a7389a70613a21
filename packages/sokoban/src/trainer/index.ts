export { encodedSokobanEnvs } from './encoded-sokoban-envs.js';
export type { LevelSet, LevelSetOptions } from './level-set.js';
export { LEVEL_STREAMS_KEPT, levelSet } from './level-set.js';
export type { FeaturePolicy, SokobanEpisodeEnvOptions } from './sokoban-episode-env.js';
export { SOKOBAN_SCORE_LABEL, SokobanEpisodeEnv } from './sokoban-episode-env.js';
export { SokobanFeaturePolicy } from './sokoban-feature-policy.js';
export type { FeatureSource } from './sokoban-linear-policy.js';
export { SokobanLinearPolicy } from './sokoban-linear-policy.js';
export { mapKey, SokobanObservations } from './sokoban-observations.js';
