import type { SokobanObservation } from '@ftw/sokoban';
import { FEATURE_COUNT, sokobanFeatures } from './sokoban-features.js';

/**
 * The features ({@link sokobanFeatures}, as doubles) of the positions met while playing one set of levels,
 * computed on a position's first visit and kept by level and key: greedy evaluation comes back to the
 * same positions at every iteration, and a key names a position within its level only.
 *
 * @example
 * ```ts
 * const features = new PositionFeatures();
 * const { observation } = env.reset({ options: { level } });
 * features.of(0, observation) === features.of(0, observation); // true: computed once
 * ```
 */
export class PositionFeatures {
  readonly #byLevel: (Map<string, Float64Array> | undefined)[] = [];

  /**
   * @param level - the level's index in its set
   * @param observation - the position (its grid is read only on the first visit)
   * @returns its {@link FEATURE_COUNT} features; the same array at every visit, not to be written
   */
  of(level: number, observation: SokobanObservation): Float64Array {
    let byKey = this.#byLevel[level];
    if (byKey === undefined) this.#byLevel[level] = byKey = new Map();
    let features = byKey.get(observation.key);
    if (features === undefined) {
      features = new Float64Array(FEATURE_COUNT);
      sokobanFeatures(observation.grid, observation.width, observation.height, features);
      byKey.set(observation.key, features);
    }
    return features;
  }
}
