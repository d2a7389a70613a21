export {
  ACTIVATIONS,
  type Activation,
  type Architecture,
  type ConvArchitecture,
  type MlpArchitecture,
} from './architecture.js';
export { type BackendName, useBackend } from './backend.js';
export { convShapes } from './conv-network.js';
export { ConvPolicy, type ConvPolicyOptions, SOKOBAN_CHANNELS } from './conv-policy.js';
export { type BackendOption, createConvPolicy, createMlpPolicy } from './create-policy.js';
export { type LoadPolicyOptions, loadPolicy } from './load-policy.js';
export { mlpShapes } from './mlp-network.js';
export { MlpPolicy, type MlpPolicyOptions } from './mlp-policy.js';
export { NetworkPolicy, type ParameterShape, POLICY_FORMAT, type PolicyRecord } from './network-policy.js';
export { TfjsPolicyError, type TfjsPolicyErrorCode } from './tfjs-policy-error.js';
