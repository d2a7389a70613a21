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

/**
 * Dense layers h ← φ(h W + b), the last without φ, from `weights[from]` on (W, b pairs).
 * @param record - when given, receives each layer's input, for {@link denseBackward}
 */
export function denseLayers(
  x: tf.Tensor2D,
  weights: readonly tf.Tensor[],
  from: number,
  activation: Activation,
  record?: tf.Tensor[],
): tf.Tensor2D {
  let h: tf.Tensor2D = x;
  const layers = (weights.length - from) / 2;
  for (let l = 0; l < layers; l++) {
    record?.push(h);
    h = tf.add(tf.matMul(h, weights[from + 2 * l] as tf.Tensor2D), weights[from + 2 * l + 1]!);
    if (l < layers - 1) h = activate(h, activation) as tf.Tensor2D;
  }
  return h;
}

/**
 * φ'(pre) from φ's output y: step(y) for relu (y > 0 exactly when pre > 0), 1 − y² for tanh, the
 * factors tfjs's own gradients of `relu` and `tanh` multiply by.
 */
export function activationGrad(dy: tf.Tensor, y: tf.Tensor, activation: Activation): tf.Tensor {
  return activation === 'relu' ? tf.mul(dy, tf.step(y)) : tf.mul(dy, tf.sub(1, tf.square(y)));
}

/**
 * Back-propagates ∂L/∂logits through the dense layers of {@link denseLayers} from the inputs it
 * recorded, without running them again: the gradient of each W (hᵀ d) and b (Σ_rows d) into `grads` at
 * the weights' indices, the same products tfjs's gradients of `matMul` and `add` take.
 * @param record - each layer's input, as `denseLayers` recorded them (`record[l]` is φ of layer l − 1)
 * @param needInput - whether to compute ∂L/∂x (a layer below needs it)
 * @returns ∂L/∂x, the gradient of the first layer's input, or null without `needInput`
 */
export function denseBackward(
  dz: tf.Tensor2D,
  weights: readonly tf.Tensor[],
  from: number,
  activation: Activation,
  record: readonly tf.Tensor[],
  grads: tf.Tensor[],
  needInput: boolean,
): tf.Tensor2D | null {
  const layers = (weights.length - from) / 2;
  let d = dz;
  for (let l = layers - 1; ; l--) {
    const input = record[l] as tf.Tensor2D;
    grads[from + 2 * l] = tf.matMul(input, d, true, false);
    grads[from + 2 * l + 1] = tf.sum(d, 0);
    if (l === 0 && !needInput) return null;
    const dx: tf.Tensor2D = tf.matMul(d, weights[from + 2 * l] as tf.Tensor2D, false, true);
    if (l === 0) return dx;
    d = activationGrad(dx, input, activation) as tf.Tensor2D;
  }
}

/**
 * The MLP's logits of a batch.
 * @param record - when given, receives what {@link mlpBackward} needs
 */
export function mlpForward(
  a: MlpArchitecture,
  x: tf.Tensor2D,
  weights: readonly tf.Tensor[],
  record?: tf.Tensor[],
): tf.Tensor2D {
  return denseLayers(x, weights, 0, a.activation, record);
}

/**
 * The gradients of the MLP's weights, in their order, for ∂L/∂logits `dz`, from a forward pass's record
 * (see {@link mlpForward}).
 */
export function mlpBackward(
  a: MlpArchitecture,
  dz: tf.Tensor2D,
  weights: readonly tf.Tensor[],
  record: readonly tf.Tensor[],
): tf.Tensor[] {
  const grads: tf.Tensor[] = new Array(weights.length);
  denseBackward(dz, weights, 0, a.activation, record, grads, false);
  return grads;
}
