/**
 * The runner's training loop as a module, for the benchmark (`bench/index.mjs` builds it from source with
 * `scripts/build-from-source.mjs`). Not a public API: the runner is an application and this entry may
 * change with it.
 */

export { KeyedPolicyReader, keyedCodec, PolicyPublisher } from '@ftw/actors';
export {
  ActionDistribution,
  createOptimizer,
  eliteSelector,
  FtwUpdater,
  ParameterSnapshots,
  PolicyShiftMeter,
  stepsBlocksOnly,
  TabularPolicy,
} from '@ftw/trainer';
export { COMPARE_SCENARIOS } from './config/compare-scenarios.js';
export { REPRODUCE_CONFIG } from './config/reproduce-config.js';
export { seededStreams } from './random/seeded-streams.js';
export { ndjson } from './run/ndjson.js';
export { createEnvironment } from './train/create-environment.js';
export { trainSeed } from './train/train-seed.js';
