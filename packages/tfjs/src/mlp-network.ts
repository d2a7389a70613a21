import * as tf from '@tensorflow/tfjs';
import type { Activation, MlpArchitecture } from './architecture.js';
import type { ParameterShape } from './network-policy.js';

/**
 * The weight tensors of an MLP, layer by layer: W_l (`[in, out]`) then b_l.
 * @param a - the architecture
 * @returns the shapes, in the order they sit in θ
 * @example
 * ```ts
 * mlpShapes({ kind: 'mlp', inputSize: 4, hiddenSizes: [8], numActions: 2, activation: 'relu' });
 * // [{ name: 'weight0', shape: [4, 8] }, { name: 'bias0', shape: [8] }, { name: 'weight1', shape: [8, 2] }, { name: 'bias1', shape: [2] }]
 * ```
 */
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

/** Dense layers h ← φ(h W + b), the last without φ, from `weights[from]` on (W, b pairs). */
export function denseLayers(
  x: tf.Tensor2D,
  weights: readonly tf.Tensor[],
  from: number,
  activation: Activation,
): tf.Tensor2D {
  let h: tf.Tensor2D = x;
  const layers = (weights.length - from) / 2;
  for (let l = 0; l < layers; l++) {
    h = tf.add(tf.matMul(h, weights[from + 2 * l] as tf.Tensor2D), weights[from + 2 * l + 1]!);
    if (l < layers - 1) h = activate(h, activation) as tf.Tensor2D;
  }
  return h;
}

/** The MLP's logits of a batch. */
export function mlpForward(a: MlpArchitecture, x: tf.Tensor2D, weights: readonly tf.Tensor[]): tf.Tensor2D {
  return denseLayers(x, weights, 0, a.activation);
}
