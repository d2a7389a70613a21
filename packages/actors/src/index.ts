export { ActorCrew, type ActorProcess, type CrewMessage } from './actor-crew.js';
export { ActorsError, type ActorsErrorCode } from './actors-error.js';
export { BehaviourCheck, type BehaviourCheckResult } from './behaviour-check.js';
export { keyedCodec, keyedLoader } from './keyed-codec.js';
export { encodeKeyedPolicy, KeyedPolicyReader, KeyedPolicyWriter, type RowNames } from './keyed-policy.js';
export {
  type PolicyCodec,
  PolicyPublisher,
  type PolicySink,
  type PublishedBytes,
  thetaCodec,
} from './policy-publisher.js';
export { ActorsLostError, episodeAt, RedisLearner, type RedisLearnerOptions } from './redis-learner.js';
export { type ActorOptions, type ActorSummary, runActor, STEP_NAMES } from './run-actor.js';
export {
  checkRunNotes,
  describeArchitecture,
  type PolicyArchitecture,
  RUN_NOTES,
  writeRunNotes,
} from './run-notes.js';
export { applyThetaDelta, decodeTheta, encodeTheta, encodeThetaDelta, thetaLoader } from './theta-codec.js';
export { versionedLogProbs } from './versioned-log-probs.js';
