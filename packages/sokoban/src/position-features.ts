import type { SokobanObservation } from './sokoban-env.js';
import { SOKOBAN_FEATURE_COUNT as FEATURE_COUNT, sokobanFeatures } from './sokoban-features.js';
import { appendRow, type GrowingRows, growingRows, type SparseFeatures } from './sparse-features.js';

const float64 = (length: number): Float64Array => new Float64Array(length);

/**
 * The features ({@link sokobanFeatures}, as doubles) of the positions met while playing one set of levels,
 * computed on a position's first visit and kept without their zeros, by level and key: greedy evaluation
 * comes back to the same positions at every iteration, and a key names a position within its level only.
 *
 * @example
 * ```ts
 * const features = new PositionFeatures();
 * const { observation } = env.reset({ options: { level } });
 * const row = features.of(0, observation); // 0: computed now
 * features.of(0, observation); // 0 again, from the cache
 * policy.logitsOfFeatures(features.sparse, row, logits);
 * ```
 */
export class PositionFeatures {
  readonly #byLevel: (Map<string, number> | undefined)[] = [];
  readonly #dense = new Float64Array(FEATURE_COUNT);
  readonly #rows: GrowingRows<Float64Array> = growingRows(float64);
  #count = 0;

  /** The features of every row {@link PositionFeatures.of} handed out, without their zeros. */
  get sparse(): SparseFeatures {
    return this.#rows;
  }

  /**
   * @param level - the level's index in its set
   * @param key - a position's key
   * @returns its row in {@link PositionFeatures.sparse}, or undefined when it was never met
   */
  rowOf(level: number, key: string): number | undefined {
    return this.#byLevel[level]?.get(key);
  }

  /**
   * @param level - the level's index in its set
   * @param observation - the position (its grid is read only on the first visit)
   * @returns the position's row in {@link PositionFeatures.sparse}
   */
  of(level: number, observation: SokobanObservation): number {
    let byKey = this.#byLevel[level];
    if (byKey === undefined) this.#byLevel[level] = byKey = new Map();
    let row = byKey.get(observation.key);
    if (row === undefined) {
      row = this.#count++;
      sokobanFeatures(observation.grid, observation.width, observation.height, this.#dense);
      appendRow(this.#rows, row, this.#dense, 0, float64);
      byKey.set(observation.key, row);
    }
    return row;
  }
}
