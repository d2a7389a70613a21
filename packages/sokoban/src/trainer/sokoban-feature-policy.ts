import type { SparseFeatures } from '@ftw/sokoban';
import { SOKOBAN_FEATURE_COUNT as FEATURE_COUNT } from '@ftw/sokoban';
import { LinearPolicy } from '@ftw/trainer';
import type { FeaturePolicy } from './sokoban-episode-env.js';

/**
 * The linear Sokoban policy on features themselves, for processes that share no position numbering (the
 * actors and learner of a run over Redis): `@ftw/trainer`'s {@link LinearPolicy} with
 * {@link FEATURE_COUNT} features per observation (θ = W, 4 × F row-major, as `SokobanLinearPolicy`'s), plus
 * `logitsOfFeatures` so that `SokobanEpisodeEnv.evaluate` plays levels with it.
 *
 * @example
 * ```ts
 * const policy = new SokobanFeaturePolicy();
 * policy.observationSize; // 84
 * ```
 */
export class SokobanFeaturePolicy extends LinearPolicy implements FeaturePolicy {
  /** Four actions, {@link FEATURE_COUNT} features per observation, θ = 0 (the uniform policy). */
  constructor() {
    super(4, FEATURE_COUNT);
  }

  /**
   * z_a = Σ_k W[a, c_k] v_k over the row's nonzero features, in increasing column order.
   *
   * @param features - compressed feature rows
   * @param row - the position's row
   * @param out - receives the 4 logits
   */
  logitsOfFeatures(features: SparseFeatures, row: number, out: Float64Array): void {
    const { rowStart, columns, values } = features;
    const w = this.parameters;
    for (let a = 0; a < 4; a++) {
      let z = 0;
      for (let k = rowStart[row]!; k < rowStart[row + 1]!; k++)
        z += w[a * FEATURE_COUNT + columns[k]!]! * values[k]!;
      out[a] = z;
    }
  }
}
