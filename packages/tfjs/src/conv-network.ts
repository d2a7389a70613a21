import * as tf from '@tensorflow/tfjs';
import type { ConvArchitecture } from './architecture.js';
import { activate, activationGrad, denseBackward, denseLayers } from './mlp-network.js';
import type { ParameterShape } from './network-policy.js';

/**
 * The weight tensors of a convolutional policy: each kernel `[k, k, in, out]` and its bias, then each
 * dense W (`[in, out]`) and b.
 * @param a - the architecture
 * @returns the shapes, in the order they sit in θ
 * @example
 * ```ts
 * convShapes({ kind: 'conv', channels: 5, height: 8, width: 8, filters: [16], kernelSize: 3, hiddenSizes: [], numActions: 4, activation: 'relu' });
 * // [{ name: 'kernel0', shape: [3, 3, 5, 16] }, { name: 'biasConv0', shape: [16] }, { name: 'weight0', shape: [1024, 4] }, { name: 'bias0', shape: [4] }]
 * ```
 */
export function convShapes(a: ConvArchitecture): ParameterShape[] {
  const planes = [a.channels, ...a.filters];
  const convs = a.filters.flatMap((out, l) => [
    { name: `kernel${l}`, shape: [a.kernelSize, a.kernelSize, planes[l]!, out] },
    { name: `biasConv${l}`, shape: [out] },
  ]);
  const sizes = [a.height * a.width * a.filters.at(-1)!, ...a.hiddenSizes, a.numActions];
  const dense = sizes.slice(1).flatMap((out, l) => [
    { name: `weight${l}`, shape: [sizes[l]!, out] },
    { name: `bias${l}`, shape: [out] },
  ]);
  return [...convs, ...dense];
}

/**
 * The k × k neighbourhoods of every cell ('same' zero padding) as rows: `[n·H·W, k·k·C]`, the window
 * offset (dy, dx) outer and the channel inner, the order of a `[k, k, C, out]` kernel flattened. A
 * convolution is then one matrix product; it is built from pad, slice and concat because the wasm backend
 * has no kernel for the filter gradient of `conv2d` (Conv2DBackpropFilter), while these three and their
 * gradients run everywhere.
 */
function patches(x: tf.Tensor4D, k: number): tf.Tensor2D {
  const [n, height, width, channels] = x.shape;
  const half = (k - 1) / 2;
  const padded = tf.pad(x, [
    [0, 0],
    [half, half],
    [half, half],
    [0, 0],
  ]);
  const windows: tf.Tensor4D[] = [];
  for (let dy = 0; dy < k; dy++) {
    for (let dx = 0; dx < k; dx++)
      windows.push(tf.slice(padded, [0, dy, dx, 0], [n, height, width, channels]));
  }
  return tf.reshape(tf.concat(windows, 3), [n * height * width, k * k * channels]);
}

/**
 * The convolutional policy's logits of a batch.
 * @param record - when given, receives what {@link convBackward} needs: each convolution's patch matrix
 *   and output, then the dense layers' inputs
 */
export function convForward(
  a: ConvArchitecture,
  x: tf.Tensor2D,
  weights: readonly tf.Tensor[],
  record?: tf.Tensor[],
): tf.Tensor2D {
  const { channels, height, width, filters, kernelSize, activation } = a;
  const rows = x.shape[0];
  // Channel-major rows become NHWC: a cell's channels sit together, one row of the patch matrix.
  let h: tf.Tensor = tf.transpose(tf.reshape(x, [rows, channels, height, width]), [0, 2, 3, 1]);
  let planes = channels;
  for (let l = 0; l < filters.length; l++) {
    const kernel = tf.reshape(weights[2 * l]!, [kernelSize * kernelSize * planes, filters[l]!]);
    const p = patches(h as tf.Tensor4D, kernelSize);
    const y = activate(tf.add(tf.matMul(p, kernel), weights[2 * l + 1]!), activation);
    record?.push(p, y);
    planes = filters[l]!;
    h = tf.reshape(y, [rows, height, width, planes]);
  }
  const flat = tf.reshape(h, [rows, height * width * filters.at(-1)!]) as tf.Tensor2D;
  return denseLayers(flat, weights, 2 * filters.length, activation, record);
}

/**
 * The gradients of the convolutional policy's weights, in their order, for ∂L/∂logits `dz`, from a
 * forward pass's record (see {@link convForward}) without running the matrix products again: the dense
 * layers by {@link denseBackward}, each convolution's kernel as the product of its patch matrix, and the
 * gradient of a convolution's input as a transposed convolution (`tf.conv2dTranspose`).
 */
export function convBackward(
  a: ConvArchitecture,
  dz: tf.Tensor2D,
  weights: readonly tf.Tensor[],
  record: readonly tf.Tensor[],
): tf.Tensor[] {
  const { height, width, filters, activation } = a;
  const rows = dz.shape[0];
  const convs = filters.length;
  const grads: tf.Tensor[] = new Array(weights.length);
  const dFlat = denseBackward(dz, weights, 2 * convs, activation, record.slice(2 * convs), grads, true)!;
  let d: tf.Tensor2D = tf.reshape(dFlat, [rows * height * width, filters.at(-1)!]);
  for (let l = convs - 1; l >= 0; l--) {
    const p = record[2 * l] as tf.Tensor2D;
    const dPre = activationGrad(d, record[2 * l + 1]!, activation) as tf.Tensor2D;
    grads[2 * l] = tf.reshape(tf.matMul(p, dPre, true, false), weights[2 * l]!.shape);
    grads[2 * l + 1] = tf.sum(dPre, 0);
    if (l === 0) break;
    const planes = filters[l - 1]!;
    // ∂L/∂h of the convolution's input: the transposed convolution of dPre by the kernel, whose
    // [k, k, planes, filters] layout is tfjs's filter layout; one kernel in place of the gradient of the
    // patch extraction (a split into k² slices and k² pads, the costliest part of the backward pass).
    const dh = tf.conv2dTranspose(
      tf.reshape(dPre, [rows, height, width, filters[l]!]) as tf.Tensor4D,
      weights[2 * l] as tf.Tensor4D,
      [rows, height, width, planes],
      1,
      'same',
    );
    d = tf.reshape(dh, [rows * height * width, planes]);
  }
  return grads;
}
