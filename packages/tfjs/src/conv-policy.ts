import { type Activation, type ConvArchitecture, checkConv } from './architecture.js';
import { NetworkPolicy } from './network-policy.js';

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
    super(architecture, options.random);
    this.#architecture = architecture;
  }

  /** The architecture, as saved. */
  override get architecture(): ConvArchitecture {
    return this.#architecture;
  }
}
