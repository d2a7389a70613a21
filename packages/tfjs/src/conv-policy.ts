import * as tf from '@tensorflow/tfjs';
import { type Activation, type ConvArchitecture, checkConv } from './architecture.js';
import { initialWeights } from './initial-weights.js';
import { activate } from './mlp-policy.js';
import { NetworkPolicy, type ParameterShape } from './network-policy.js';

/** The channels of a Sokoban grid, in the order of the observation row. */
export const SOKOBAN_CHANNELS = ['wall', 'floor', 'target', 'box', 'player'] as const;

/** Options of {@link ConvPolicy}. */
export interface ConvPolicyOptions {
  /** Grid rows. */
  readonly height: number;
  /** Grid columns. */
  readonly width: number;
  /** Actions (logits); 4 for Sokoban's up, down, left, right. */
  readonly numActions: number;
  /**
   * Planes per cell.
   * @defaultValue 5 (wall, floor, target, box, player)
   */
  readonly channels?: number;
  /**
   * Filters of each convolution.
   * @defaultValue [16, 16]
   */
  readonly filters?: readonly number[];
  /**
   * Side of the square kernels, odd.
   * @defaultValue 3
   */
  readonly kernelSize?: number;
  /**
   * Widths of the dense layers after the convolutions.
   * @defaultValue [64]
   */
  readonly hiddenSizes?: readonly number[];
  /**
   * Nonlinearity after each convolution and hidden layer.
   * @defaultValue 'relu'
   */
  readonly activation?: Activation;
  /** Uniform on [0, 1), for the initial weights. */
  readonly random: () => number;
}

/** The weight tensors: each kernel `[k, k, in, out]` and its bias, then each dense W (`[in, out]`) and b. */
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
 * A small convolutional policy for a Sokoban grid. An observation row holds `channels × height × width`
 * numbers, channel-major then row-major: cell (y, x) of channel c at `c·H·W + y·W + x`, 1 where the cell
 * has the feature and 0 elsewhere, the channels in the order of {@link SOKOBAN_CHANNELS} (wall, floor,
 * target, box, player; a box on a target sets both). The network: convolutions of `kernelSize` ('same'
 * padding, stride 1, then the activation; computed as one matrix product over the cells' patches), flattened in (y, x, filter) order, dense hidden layers, logits.
 *
 * @example
 * ```ts
 * const policy = new ConvPolicy({ height: 8, width: 8, numActions: 4, random });
 * policy.observationSize; // 5 · 8 · 8 = 320
 * ```
 */
export class ConvPolicy extends NetworkPolicy {
  readonly #architecture: ConvArchitecture;

  /**
   * @param options - the architecture and the randomness of the initial weights
   * @throws RangeError naming the option, when a size is not an integer ≥ 1, the kernel even or the
   *   activation unknown
   */
  constructor(options: ConvPolicyOptions) {
    const architecture = checkConv(options as unknown as Record<string, unknown>);
    if (typeof options.random !== 'function') {
      throw new TypeError(`random must be a function () => number, got ${typeof options.random}`);
    }
    const shapes = convShapes(architecture);
    const inputSize = architecture.channels * architecture.height * architecture.width;
    super(architecture.numActions, inputSize, shapes, initialWeights(shapes, options.random));
    this.#architecture = architecture;
  }

  /** The architecture, as saved. */
  get architecture(): ConvArchitecture {
    return this.#architecture;
  }

  protected forward(x: tf.Tensor2D, weights: readonly tf.Tensor[]): tf.Tensor2D {
    const { channels, height, width, filters, kernelSize, activation } = this.#architecture;
    const rows = x.shape[0];
    // Channel-major rows become NHWC: a cell's channels sit together, one row of the patch matrix.
    let h: tf.Tensor = tf.transpose(tf.reshape(x, [rows, channels, height, width]), [0, 2, 3, 1]);
    let planes = channels;
    for (let l = 0; l < filters.length; l++) {
      const kernel = tf.reshape(weights[2 * l]!, [kernelSize * kernelSize * planes, filters[l]!]);
      const conv = tf.matMul(patches(h as tf.Tensor4D, kernelSize), kernel);
      planes = filters[l]!;
      h = tf.reshape(activate(tf.add(conv, weights[2 * l + 1]!), activation), [rows, height, width, planes]);
    }
    h = tf.reshape(h, [rows, height * width * filters.at(-1)!]);
    const dense = (weights.length - 2 * filters.length) / 2;
    for (let l = 0; l < dense; l++) {
      const w = weights[2 * filters.length + 2 * l] as tf.Tensor2D;
      h = tf.add(tf.matMul(h as tf.Tensor2D, w), weights[2 * filters.length + 2 * l + 1]!);
      if (l < dense - 1) h = activate(h, activation);
    }
    return h as tf.Tensor2D;
  }
}
