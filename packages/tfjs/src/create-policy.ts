import { type BackendName, useBackend } from './backend.js';
import { ConvPolicy, type ConvPolicyOptions } from './conv-policy.js';
import { MlpPolicy, type MlpPolicyOptions } from './mlp-policy.js';

/** The backend option of the factories. */
export interface BackendOption {
  /**
   * TensorFlow.js backend: `wasm`, falling back to `cpu` where WebAssembly cannot start, or `cpu`.
   * @defaultValue 'wasm'
   */
  readonly backend?: BackendName;
}

/**
 * Selects the backend, then builds an {@link MlpPolicy}.
 * @param options - the MLP's options and `backend`
 * @returns the policy
 * @throws RangeError naming the option, as the constructor
 * @example
 * ```ts
 * const policy = await createMlpPolicy({ inputSize: 6, numActions: 2, hiddenSizes: [16], random });
 * ```
 */
export async function createMlpPolicy(options: MlpPolicyOptions & BackendOption): Promise<MlpPolicy> {
  await useBackend(options.backend ?? 'wasm');
  return new MlpPolicy(options);
}

/**
 * Selects the backend, then builds a {@link ConvPolicy}.
 * @param options - the network's options and `backend`
 * @returns the policy
 * @throws RangeError naming the option, as the constructor
 * @example
 * ```ts
 * const policy = await createConvPolicy({ height: 8, width: 8, numActions: 4, random });
 * ```
 */
export async function createConvPolicy(options: ConvPolicyOptions & BackendOption): Promise<ConvPolicy> {
  await useBackend(options.backend ?? 'wasm');
  return new ConvPolicy(options);
}
