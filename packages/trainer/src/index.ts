export { ActionDistribution } from './action-distribution.js';
export {
  type BaselineOptions,
  BaselineUpdater,
  checkBaselineOptions,
} from './baseline-updater.js';
export type { Environment, EnvironmentStep, Evaluation } from './environment.js';
export type { Episode } from './episode.js';
export {
  type CollectedBatch,
  checkAlike,
  checkFits,
  EpisodeCollector,
  MAX_EPISODE_STEPS,
} from './episode-collector.js';
export { ExpectedSelection } from './expected-selection.js';
export {
  checkFtwOptions,
  checkFtwSelectionOptions,
  type EliteChoice,
  type EliteSelector,
  eliteSelector,
  type FtwOptions,
  type FtwSelectionOptions,
  FtwUpdater,
} from './ftw-updater.js';
export { LinearPolicy } from './linear-policy.js';
export {
  type LengthAt,
  MinibatchSampler,
  type MinibatchSamplerOptions,
  TIE_RULES,
  type TieRule,
} from './minibatch-sampler.js';
export { createOptimizer, type Optimizer, type OptimizerState } from './optimizer.js';
export { ParameterSnapshots } from './parameter-snapshots.js';
export type { Observation, ObservationRows, Policy } from './policy.js';
export { PolicyShiftMeter } from './policy-shift-meter.js';
export { PolicyStep, stepsBlocksOnly } from './policy-step.js';
export { checkTaskEnvironment, type ProbeResult, probeTasks } from './probe-tasks.js';
export { ProbedTasks, type ProbeOptions, type ProbeRound } from './probed-tasks.js';
export {
  SimulatedActors,
  type SimulatedActorsOptions,
  type SimulatedBatch,
} from './simulated-actors.js';
export { TabularPolicy } from './tabular-policy.js';
export type { TaskEnvironment } from './task-environment.js';
export { type OrderedReturns, orderByLength, orderTies } from './tie-order.js';
export {
  DEFAULT_FTW_OPTIONS,
  type IterationMetrics,
  type TrainOptions,
  type TrainResult,
  train,
} from './train.js';
export { TrainerError, type TrainerErrorCode } from './trainer-error.js';
export {
  type TrajectoryWeights,
  trajectoryImportanceWeights,
  type WeightedTrajectory,
} from './trajectory-importance-weights.js';
export {
  type MutableUpdateStats,
  movedBy,
  statsWithoutSelection,
  type Updater,
  type UpdaterState,
  type UpdateStats,
} from './updater.js';
export { type VersionSpread, versionSpread } from './version-spread.js';
export { type IsWeighting, type SelectionWeights, weightedSelector } from './weighted-selector.js';
