import { type BackendName, useBackend } from './backend.js';
import { ConvPolicy } from './conv-policy.js';
import { MlpPolicy } from './mlp-policy.js';
import type { NetworkPolicy } from './network-policy.js';
import { readRecord } from './network-policy.js';
import { TfjsPolicyError } from './tfjs-policy-error.js';

/** Options of {@link loadPolicy}. */
export interface LoadPolicyOptions {
  /**
   * TensorFlow.js backend to run on (see {@link useBackend}).
   * @defaultValue 'wasm'
   */
  readonly backend?: BackendName;
}

/**
 * Builds the policy a saved record describes (MLP or convolutional) and loads its weights.
 *
 * @param source - a saved line (a string) or its parsed record
 * @param options - the backend
 * @returns the policy, θ equal to the record's weights bit for bit
 * @throws TfjsPolicyError `INVALID_POLICY_FILE` (not JSON, not a record, a bad architecture field),
 *   `PARAMETER_COUNT_MISMATCH`, `NON_FINITE_WEIGHT`, each naming the field and the value
 * @example
 * ```ts
 * const line = JSON.stringify(policy.toJSON());
 * const copy = await loadPolicy(line); // same architecture, same θ
 * ```
 */
export async function loadPolicy(source: unknown, options: LoadPolicyOptions = {}): Promise<NetworkPolicy> {
  let record = source;
  if (typeof source === 'string') {
    try {
      record = JSON.parse(source);
    } catch (error) {
      throw new TfjsPolicyError(
        'INVALID_POLICY_FILE',
        'record',
        `a policy line must be JSON: ${(error as Error).message}`,
      );
    }
  }
  const { architecture } = readRecord(record);
  await useBackend(options.backend ?? 'wasm');
  const zero = () => 0.5;
  const policy =
    architecture.kind === 'mlp'
      ? new MlpPolicy({ ...architecture, random: zero })
      : new ConvPolicy({ ...architecture, random: zero });
  try {
    policy.load(record);
  } catch (error) {
    policy.dispose();
    throw error;
  }
  return policy;
}
