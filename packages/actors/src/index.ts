export {
  ActorCrew,
  type ActorCrewOptions,
  type ActorProcess,
  CREW_READY,
  type CrewMessage,
  DEFAULT_ACTOR_RESTARTS,
} from './actor-crew.js';
export { ActorsError, type ActorsErrorCode } from './actors-error.js';
export { ActorsLostError } from './actors-lost-error.js';
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
export { episodeAt, RedisLearner, type RedisLearnerOptions } from './redis-learner.js';
export { type ActorOptions, type ActorSummary, runActor, STEP_NAMES } from './run-actor.js';
export {
  type ActorExit,
  describeFault,
  type LearnerRestart,
  type RunFault,
  type ServerOutage,
} from './run-faults.js';
export {
  checkRunNotes,
  describeArchitecture,
  type PolicyArchitecture,
  RUN_NOTES,
  writeRunNotes,
} from './run-notes.js';
export { ServerWatch, type ServerWatchOptions } from './server-watch.js';
export { applyThetaDelta, decodeTheta, encodeTheta, encodeThetaDelta, thetaLoader } from './theta-codec.js';
export { versionedLogProbs } from './versioned-log-probs.js';
