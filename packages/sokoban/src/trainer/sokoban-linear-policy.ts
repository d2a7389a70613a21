import type { SparseFeatures } from '@ftw/sokoban';
import type { ObservationRows, Policy } from '@ftw/trainer';
import type { FeaturePolicy } from './sokoban-episode-env.js';

/** Where a linear policy reads the features of observation o: `data[o · featureCount …]`. */
export interface FeatureSource {
  /** The features of every known observation, row-major (may be replaced as observations are met). */
  readonly featureData: ArrayLike<number>;
  /**
   * The same features without their zeros, when the source keeps them so: the policy then reads only the
   * nonzero ones (Sokoban's are about a quarter), with the same results.
   */
  readonly sparseFeatures?: SparseFeatures | undefined;
}

/**
 * A linear softmax policy over an environment's features: z(o) = W φ(o), π(a | o) = softmax(z(o))_a, with
 * θ = W (actions × features, row-major), so ∂z_a/∂W_{a,f} = φ_f(o). Its size does not depend on how many
 * positions are met, and it acts on positions never trained on (held-out levels) through their features.
 * Its observations are the environment's ids (one number per row); it reads their features from the
 * environment.
 *
 * @example
 * ```ts
 * const policy = new SokobanLinearPolicy(4, 2, { featureData: Float32Array.of(1, 0.5) });
 * policy.parameters.set([1, 0, 0, 0, 0, 0, 0, 2]);
 * policy.logits(Int32Array.of(0), 1, new Float64Array(4)); // Float64Array [1, 0, 0, 1]
 * ```
 */
export class SokobanLinearPolicy implements FeaturePolicy, Policy {
  /** Actions (4 for Sokoban). */
  readonly numActions: number;
  /** One observation id per row. */
  readonly observationSize = 1;
  /** θ = W, `numActions` rows of `featureCount` weights, row-major; zero at first (the uniform policy). */
  readonly parameters: Float64Array;
  readonly #featureCount: number;
  readonly #source: FeatureSource;

  /**
   * @param numActions - actions
   * @param featureCount - features per observation
   * @param source - the features of the observation ids
   */
  constructor(numActions: number, featureCount: number, source: FeatureSource) {
    this.numActions = numActions;
    this.#featureCount = featureCount;
    this.#source = source;
    this.parameters = new Float64Array(numActions * featureCount);
  }

  /** Bytes of W. */
  get memoryBytes(): number {
    return this.parameters.byteLength;
  }

  /**
   * Writes W φ(o_r) for each id of the batch.
   *
   * @param observations - observation ids, one per row
   * @param rows - number of rows
   * @param out - receives 4 logits per row
   * @param parameters - evaluate at this W instead
   * @returns `out`
   */
  logits(
    observations: ObservationRows,
    rows: number,
    out: Float64Array,
    parameters?: Float64Array,
  ): Float64Array {
    const sparse = this.#source.sparseFeatures;
    const w = parameters ?? this.parameters;
    const A = this.numActions;
    for (let r = 0; r < rows; r++) {
      const observation = observations[r]!;
      if (sparse !== undefined) this.#sparseProduct(sparse, observation, w, out, r * A);
      else this.#product(this.#source.featureData, observation * this.#featureCount, w, out, r * A);
    }
    return out;
  }

  /**
   * W φ for a position given by its features rather than its id (one never met in training).
   *
   * @param features - compressed feature rows
   * @param row - the position's row in them
   * @param out - receives the logits
   */
  logitsOfFeatures(features: SparseFeatures, row: number, out: Float64Array): void {
    this.#sparseProduct(features, row, this.parameters, out, 0);
  }

  /**
   * Adds φ(o_r) g_rᵀ to ∂L/∂W for each row in order.
   *
   * @param observations - observation ids, one per row
   * @param rows - number of rows
   * @param logitGrad - g_r at `logitGrad[r · 4 .. r · 4 + 4)`
   * @param grad - ∂L/∂W, added to in place
   */
  backward(observations: ObservationRows, rows: number, logitGrad: Float64Array, grad: Float64Array): void {
    for (let r = 0; r < rows; r++) this.#backwardRow(observations[r]!, logitGrad, r * this.numActions, grad);
  }

  #backwardRow(observation: number, logitGrad: Float64Array, offset: number, grad: Float64Array): void {
    const sparse = this.#source.sparseFeatures;
    if (sparse !== undefined) {
      const { rowStart, columns, values } = sparse;
      const from = rowStart[observation]!;
      const to = rowStart[observation + 1]!;
      for (let a = 0; a < this.numActions; a++) {
        const g = logitGrad[offset + a]!;
        if (g === 0) continue;
        const row = a * this.#featureCount;
        for (let k = from; k < to; k++) grad[row + columns[k]!]! += g * values[k]!;
      }
      return;
    }
    const phi = this.#source.featureData;
    const F = this.#featureCount;
    const base = observation * F;
    for (let a = 0; a < this.numActions; a++) {
      const g = logitGrad[offset + a]!;
      if (g === 0) continue;
      const row = a * F;
      for (let f = 0; f < F; f++) grad[row + f]! += g * phi[base + f]!;
    }
  }

  /**
   * `#product` over the nonzero features only, in the same order: the same bits (see {@link SparseFeatures}).
   * For Sokoban's four actions the four sums run side by side in one pass over the features (each read
   * once), still each in increasing column order: a third less time for a linear seed.
   */
  #sparseProduct(
    sparse: SparseFeatures,
    observation: number,
    w: Float64Array,
    out: Float64Array,
    offset: number,
  ): void {
    const { rowStart, columns, values } = sparse;
    const F = this.#featureCount;
    const from = rowStart[observation]!;
    const to = rowStart[observation + 1]!;
    if (this.numActions === 4 && 4 * F <= w.length) {
      let z0 = 0;
      let z1 = 0;
      let z2 = 0;
      let z3 = 0;
      for (let k = from; k < to; k++) {
        const c = columns[k]!;
        const v = values[k]!;
        z0 += w[c]! * v;
        z1 += w[F + c]! * v;
        z2 += w[2 * F + c]! * v;
        z3 += w[3 * F + c]! * v;
      }
      out[offset] = z0;
      out[offset + 1] = z1;
      out[offset + 2] = z2;
      out[offset + 3] = z3;
      return;
    }
    for (let a = 0; a < this.numActions; a++) {
      const row = a * F;
      let z = 0;
      if (row + F <= w.length) for (let k = from; k < to; k++) z += w[row + columns[k]!]! * values[k]!;
      out[offset + a] = z;
    }
  }

  #product(phi: ArrayLike<number>, base: number, w: Float64Array, out: Float64Array, offset: number): void {
    const F = this.#featureCount;
    for (let a = 0; a < this.numActions; a++) {
      const row = a * F;
      let z = 0;
      if (row + F <= w.length) for (let f = 0; f < F; f++) z += w[row + f]! * phi[base + f]!;
      out[offset + a] = z;
    }
  }
}
