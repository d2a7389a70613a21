/**
 * The runner's training loop as a module, for the benchmark (`bench/index.mjs` builds it from source with
 * `scripts/build-from-source.mjs`). Not a public API: the runner is an application and this entry may
 * change with it.
 */
export { KeyedPolicyReader } from './async/keyed-policy.js';
export { ParameterSnapshots } from './async/parameter-snapshots.js';
export { PolicyPublisher } from './async/policy-publisher.js';
export { COMPARE_SCENARIOS } from './config/compare-scenarios.js';
export { REPRODUCE_CONFIG } from './config/reproduce-config.js';
export { seededStreams } from './random/seeded-streams.js';
export { ndjson } from './run/ndjson.js';
export { ActionDistribution } from './train/action-distribution.js';
export { createEnvironment } from './train/create-environment.js';
export { configSelector, FtwUpdater } from './train/ftw-updater.js';
export { createOptimizer } from './train/optimizer.js';
export { PolicyShiftMeter } from './train/policy-shift-meter.js';
export { stepsBlocksOnly } from './train/policy-step.js';
export { TabularPolicy } from './train/tabular-policy.js';
export { trainSeed } from './train/train-seed.js';
