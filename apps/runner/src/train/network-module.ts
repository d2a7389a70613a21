/** `@ftw/tfjs`, loaded on demand: TensorFlow.js takes about half a second to import, and only mlp/cnn runs need it. */
export type NetworkModule = typeof import('@ftw/tfjs');

let loaded: NetworkModule | undefined;

/**
 * Loads `@ftw/tfjs` and starts its `wasm` backend (falling back to `cpu`), once per thread, so that
 * {@link createPolicy} can then build networks synchronously.
 *
 * @returns the module
 * @example
 * ```ts
 * if (isNetworkPolicy(config.policy)) await loadNetworks();
 * ```
 */
export async function loadNetworks(): Promise<NetworkModule> {
  loaded ??= await import('@ftw/tfjs');
  await loaded.useBackend('wasm');
  return loaded;
}

/**
 * @returns `@ftw/tfjs`, loaded by {@link loadNetworks}
 * @throws Error when it was not loaded (a bug of the caller)
 */
export function networks(): NetworkModule {
  if (loaded === undefined) throw new Error('internal: loadNetworks() must run before a network is built');
  return loaded;
}

/**
 * @param policy - a configuration's `policy`
 * @returns whether it is a network (mlp or cnn)
 */
export const isNetworkPolicy = (policy: string | undefined): policy is 'mlp' | 'cnn' =>
  policy === 'mlp' || policy === 'cnn';
