import type { Level } from '@ftw/sokoban';
import {
  appendRow,
  SOKOBAN_FEATURE_COUNT as FEATURE_COUNT,
  type GrowingRows,
  growingRows,
  positionGrid,
  type SparseFeatures,
  sokobanFeatures,
} from '@ftw/sokoban';

const float32 = (length: number): Float32Array => new Float32Array(length);

/**
 * What a position's key is looked up by: a key of at most 3 cells (the player and up to 2 boxes) below
 * 1023 as one integer, Σ_i (code_i + 1) · 1024^i, below 2^30; any other key as itself. The integer is
 * one-to-one (its base-1024 digits are the codes + 1, never 0, so the length shows too), and a number is
 * never equal to a string, so the two kinds share a map. Why: V8 finds a small integer in a large `Map`
 * several times faster than a string just built (about 0.1–0.3 µs against 0.9 µs in a probe of 100 maps
 * of 1,500 keys).
 *
 * @param key - the position's key
 * @returns its map key
 */
export function mapKey(key: string): number | string {
  if (key.length > 3) return key;
  let packed = 0;
  for (let i = key.length - 1; i >= 0; i--) {
    const code = key.charCodeAt(i);
    if (code >= 1023) return key;
    packed = packed * 1024 + code + 1;
  }
  return packed;
}

/**
 * The observation ids of Sokoban training positions and their features: ids number the (training level,
 * position) pairs densely in order of discovery, and each id's {@link FEATURE_COUNT} egocentric features
 * are kept (4 bytes each) for a linear policy, once one asks for them ({@link SokobanObservations.wantFeatures}):
 * a tabular policy never reads them, and they take about 15 times its own bytes per position.
 *
 * One registry may be shared by several `SokobanEpisodeEnv`s of the same level set (same `levelSeed`,
 * so training level i is the same level in each): the simulated actors of one asynchronous run hand the
 * learner ids from one numbering, so a position reached by two actors has one id, and the policy's
 * features of an id are the same whichever actor met it first. With actors stepping in a fixed order
 * the numbering is as reproducible as the run.
 *
 * @example
 * ```ts
 * const { grid } = parseLevel('######\n#@ $.#\n######');
 * const ids = new SokobanObservations();
 * ids.wantFeatures([]); // features from now on (no position met yet, so no level needed)
 * ids.idOf(0, 'a', grid, 6, 3); // 0 (new)
 * ids.idOf(1, 'a', grid, 6, 3); // 1 (same position key, another level)
 * ids.idOf(0, 'a', grid, 6, 3); // 0 (known)
 * ids.count; // 2
 * ids.nameOf(1); // '1|a'
 * ids.featureData[FEATURE_COUNT - 1]; // 1 (id 0's bias feature)
 * ```
 */
export class SokobanObservations {
  /** Per training level, its positions' ids by {@link mapKey} of their keys (no name built per step). */
  readonly #ids: (Map<number | string, number> | undefined)[] = [];
  readonly #names: string[] = [];
  /** The training level of each id. */
  readonly #levels: number[] = [];
  /** Whether features are computed (see `wantFeatures`); until then the arrays below stay empty. */
  #featuresWanted = false;
  #features = new Float32Array(0);
  // The same features without their zeros (see SparseFeatures); one object, its arrays replaced as they
  // grow, so that a policy reading it per row allocates nothing.
  readonly #sparse: GrowingRows<Float32Array> = growingRows(float32);

  /** Ids handed out so far (ids are 0 … count − 1). */
  get count(): number {
    return this.#names.length;
  }

  /** Whether the features of the ids are computed (see {@link SokobanObservations.wantFeatures}). */
  get featuresWanted(): boolean {
    return this.#featuresWanted;
  }

  /**
   * Computes the features of every id from now on: of each new id from the grid `idOf` is given, and now,
   * of the ids handed out before, from their boards rebuilt from their training levels and keys
   * ({@link positionGrid}, tile for tile the board `SokobanEnv` showed). Nothing happens once they are on.
   *
   * @param levels - the training levels of the registry's level set (index = the level of `idOf`)
   * @throws RangeError when an id's level is not in `levels`; no feature is computed then
   */
  wantFeatures(levels: readonly Level[]): void {
    if (this.#featuresWanted) return;
    for (let id = 0; id < this.count; id++) {
      if (levels[this.#levels[id]!] === undefined) {
        throw new RangeError(
          `levels must hold training level ${this.#levels[id]} (of id ${id}), got ${levels.length} levels`,
        );
      }
    }
    this.#featuresWanted = true;
    for (let id = 0; id < this.count; id++) {
      const level = levels[this.#levels[id]!]!;
      const name = this.#names[id]!;
      const grid = positionGrid(level, name.slice(name.indexOf('|') + 1));
      this.#addFeatures(id, grid, level.width, level.height);
    }
  }

  /**
   * The features of every id, {@link FEATURE_COUNT} per id, row-major (replaced when it grows); empty
   * until features are wanted.
   */
  get featureData(): Float32Array {
    return this.#features;
  }

  /**
   * The features of every id without their zeros, as compressed rows (see {@link SparseFeatures}): one
   * object for the registry's life, whose arrays are replaced when they grow; no row until features are
   * wanted.
   */
  get sparseFeatures(): SparseFeatures {
    return this.#sparse;
  }

  /** Bytes held for features (both forms). */
  get featureBytes(): number {
    const { rowStart, columns, values } = this.#sparse;
    return this.#features.byteLength + rowStart.byteLength + columns.byteLength + values.byteLength;
  }

  /**
   * @param id - an id handed out (0 … count − 1)
   * @returns its position's name, `<level>|<key>`: the training level's index and the position's key
   * @throws RangeError when no position has this id
   */
  nameOf(id: number): string {
    const name = this.#names[id];
    if (name === undefined) {
      throw new RangeError(`id must be an id handed out (0 … ${this.count - 1}), got ${String(id)}`);
    }
    return name;
  }

  /**
   * @param id - an id handed out (0 … count − 1)
   * @returns the index of the training level its position belongs to, or −1 for an id not handed out
   */
  levelOf(id: number): number {
    return this.#levels[id] ?? -1;
  }

  /**
   * @param level - the training level's index
   * @param key - the position's key (`SokobanEnv`'s observation key)
   * @returns the id of a known position, or undefined (never creates one)
   */
  find(level: number, key: string): number | undefined {
    return this.#ids[level]?.get(mapKey(key));
  }

  /**
   * The id of a training position, created (with its features, when wanted) when first met.
   *
   * @param level - the training level's index
   * @param key - the position's key
   * @param grid - the position's grid, for its features
   * @param width - grid width
   * @param height - grid height
   * @returns the id
   */
  idOf(level: number, key: string, grid: Uint8Array, width: number, height: number): number {
    let ids = this.#ids[level];
    if (ids === undefined) this.#ids[level] = ids = new Map();
    const packed = mapKey(key);
    const known = ids.get(packed);
    if (known !== undefined) return known;
    const id = this.#names.length;
    ids.set(packed, id);
    this.#names.push(`${level}|${key}`);
    this.#levels.push(level);
    if (this.#featuresWanted) this.#addFeatures(id, grid, width, height);
    return id;
  }

  /** Computes the features of `id` (the next row) from its board. */
  #addFeatures(id: number, grid: Uint8Array, width: number, height: number): void {
    if ((id + 1) * FEATURE_COUNT > this.#features.length) {
      const grown = new Float32Array(Math.max(64 * FEATURE_COUNT, 2 * this.#features.length));
      grown.set(this.#features);
      this.#features = grown;
    }
    sokobanFeatures(grid, width, height, this.#features, id * FEATURE_COUNT);
    appendRow(this.#sparse, id, this.#features, id * FEATURE_COUNT, float32);
  }
}
