import * as tf from '@tensorflow/tfjs';
// Registers the `wasm` backend (XNNPACK kernels, SIMD); its .wasm files ship inside the npm package.
import '@tensorflow/tfjs-backend-wasm';

/** TensorFlow.js backends the policies run on: `wasm` (fast), `cpu` (pure JavaScript, the fallback). */
export type BackendName = 'wasm' | 'cpu';

/**
 * Selects TensorFlow.js's global backend: `wasm`, falling back to `cpu` when the WebAssembly module
 * cannot be initialised (no WebAssembly, a missing .wasm file), or `cpu` when asked. Every policy of this
 * package runs on the backend current when it computes; the factories call this first.
 *
 * @param name - `wasm` or `cpu`
 * @returns the backend now in use
 * @throws RangeError when `name` is neither
 * @example
 * ```ts
 * await useBackend('wasm'); // 'wasm' (or 'cpu' where WebAssembly cannot start)
 * ```
 */
export async function useBackend(name: BackendName = 'wasm'): Promise<BackendName> {
  if (name !== 'wasm' && name !== 'cpu') {
    throw new RangeError(`backend must be 'wasm' or 'cpu', got ${String(name)}`);
  }
  if (tf.getBackend() === name) return name;
  if (name === 'wasm') {
    try {
      if (await tf.setBackend('wasm')) return 'wasm';
    } catch {
      // setBackend rejects or returns false when the module cannot be loaded: fall back below.
    }
  }
  if (!(await tf.setBackend('cpu'))) throw new Error('the cpu backend of TensorFlow.js did not start');
  return 'cpu';
}
