import * as tf from '@tensorflow/tfjs';
import { type Activation, checkMlp, type MlpArchitecture } from './architecture.js';
import { initialWeights } from './initial-weights.js';
import { NetworkPolicy, type ParameterShape } from './network-policy.js';

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

/** The weight tensors of an MLP, layer by layer: W_l (`[in, out]`) then b_l. */
export function mlpShapes(a: MlpArchitecture): ParameterShape[] {
  const sizes = [a.inputSize, ...a.hiddenSizes, a.numActions];
  return sizes.slice(1).flatMap((out, l) => [
    { name: `weight${l}`, shape: [sizes[l]!, out] },
    { name: `bias${l}`, shape: [out] },
  ]);
}

/** Applies an activation by name. */
export function activate(x: tf.Tensor, activation: Activation): tf.Tensor {
  return activation === 'relu' ? tf.relu(x) : tf.tanh(x);
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
    if (typeof options.random !== 'function') {
      throw new TypeError(`random must be a function () => number, got ${typeof options.random}`);
    }
    const shapes = mlpShapes(architecture);
    super(architecture.numActions, architecture.inputSize, shapes, initialWeights(shapes, options.random));
    this.#architecture = architecture;
  }

  /** The architecture, as saved. */
  get architecture(): MlpArchitecture {
    return this.#architecture;
  }

  protected forward(x: tf.Tensor2D, weights: readonly tf.Tensor[]): tf.Tensor2D {
    let h: tf.Tensor = x;
    const layers = weights.length / 2;
    for (let l = 0; l < layers; l++) {
      h = tf.add(tf.matMul(h as tf.Tensor2D, weights[2 * l] as tf.Tensor2D), weights[2 * l + 1]!);
      if (l < layers - 1) h = activate(h, this.#architecture.activation);
    }
    return h as tf.Tensor2D;
  }
}
