export { empiricalDistribution } from './empirical-distribution.js';
export { forwardKlProjection } from './forward-kl-projection.js';
export type { FtwLossInput, FtwLossOut, FtwLossResult, KlDirection, ReferencePolicy } from './ftw-loss.js';
export { ftwLoss } from './ftw-loss.js';
export type { FtwObjectiveOptions, FtwObjectiveRows } from './ftw-objective.js';
export { FtwObjective } from './ftw-objective.js';
export type { GrpoAdvantagesOptions } from './grpo-advantages.js';
export { grpoAdvantages } from './grpo-advantages.js';
export type {
  ImportanceWeightsInput,
  ImportanceWeightsOptions,
  ImportanceWeightsOut,
  ImportanceWeightsResult,
} from './importance-weights.js';
export { importanceWeights } from './importance-weights.js';
export type { KlEstimates, KlEstimatesOut, KlEstimatorsInput } from './kl-estimators.js';
export { klEstimators } from './kl-estimators.js';
export type { LogProbGradInput } from './log-prob-grad-to-logits.js';
export { logProbGradToLogits } from './log-prob-grad-to-logits.js';
export { logSoftmax } from './log-softmax.js';
export { MAX_MAGNITUDE } from './max-magnitude.js';
export type { ObjectiveErrorCode } from './objective-error.js';
export { ObjectiveError } from './objective-error.js';
export type { PolicyGradientInput, PolicyGradientOut, PolicyGradientResult } from './policy-gradient-loss.js';
export { policyGradientLoss } from './policy-gradient-loss.js';
export type { PolicyShift } from './policy-shift.js';
export { policyShift } from './policy-shift.js';
export { PolicyShiftTracker } from './policy-shift-tracker.js';
export type { PpoClipInput, PpoClipOut, PpoClipResult } from './ppo-clip-loss.js';
export { ppoClipLoss } from './ppo-clip-loss.js';
export type { ReinforceInput } from './reinforce-loss.js';
export { reinforceLoss } from './reinforce-loss.js';
export type { TrajectoryWeightsOptions, WeightNormalization } from './trajectory-weights.js';
export { trajectoryWeights } from './trajectory-weights.js';
export { trpoBound } from './trpo-bound.js';
export type { Logits } from './types.js';
