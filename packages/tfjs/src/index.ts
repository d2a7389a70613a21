export {
  ACTIVATIONS,
  type Activation,
  type Architecture,
  type ConvArchitecture,
  type MlpArchitecture,
} from './architecture.js';
export { type BackendName, useBackend } from './backend.js';
export { ConvPolicy, type ConvPolicyOptions, convShapes, SOKOBAN_CHANNELS } from './conv-policy.js';
export { type BackendOption, createConvPolicy, createMlpPolicy } from './create-policy.js';
export { type LoadPolicyOptions, loadPolicy } from './load-policy.js';
export { MlpPolicy, type MlpPolicyOptions, mlpShapes } from './mlp-policy.js';
export { NetworkPolicy, type ParameterShape, POLICY_FORMAT, type PolicyRecord } from './network-policy.js';
export { TfjsPolicyError, type TfjsPolicyErrorCode } from './tfjs-policy-error.js';
