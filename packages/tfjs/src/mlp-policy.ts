import { type Activation, checkMlp, type MlpArchitecture } from './architecture.js';
import { NetworkPolicy } from './network-policy.js';

/** Options of {@link MlpPolicy}. */
export interface MlpPolicyOptions {
  /** Features per observation (the network's input size). */
  readonly inputSize: number;
  /** Actions (logits). */
  readonly numActions: number;
  /**
   * Widths of the hidden layers; `[]` is a linear policy with a bias.
   * @defaultValue []
   */
  readonly hiddenSizes?: readonly number[];
  /**
   * Nonlinearity after each hidden layer.
   * @defaultValue 'relu'
   */
  readonly activation?: Activation;
  /** Uniform on [0, 1), for the initial weights. */
  readonly random: () => number;
}

/**
 * A multilayer perceptron policy on feature rows: h_0 = x, h_l = φ(h_{l−1} W_l + b_l) for the hidden
 * layers, z = h_{L−1} W_L + b_L, π = softmax(z). θ is every W_l (row-major `[in, out]`) and b_l, layer by
 * layer. It implements `@ftw/trainer`'s `Policy`: give it to `train()` with any optimiser.
 *
 * @example
 * ```ts
 * await useBackend('wasm');
 * const policy = new MlpPolicy({ inputSize: 4, numActions: 2, hiddenSizes: [32], random });
 * policy.parameters.length; // 4·32 + 32 + 32·2 + 2 = 226
 * policy.logits(Float64Array.of(1, 0, 0, 1), 1, new Float64Array(2)); // two logits near 0
 * ```
 */
export class MlpPolicy extends NetworkPolicy {
  readonly #architecture: MlpArchitecture;

  /**
   * @param options - the architecture and the randomness of the initial weights
   * @throws RangeError naming the option, when a size is not an integer ≥ 1 or the activation unknown
   */
  constructor(options: MlpPolicyOptions) {
    const architecture = checkMlp(options as unknown as Record<string, unknown>);
    super(architecture, options.random);
    this.#architecture = architecture;
  }

  /** The architecture, as saved. */
  override get architecture(): MlpArchitecture {
    return this.#architecture;
  }
}
