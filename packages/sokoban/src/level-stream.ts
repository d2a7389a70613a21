import { generateLevel } from './generate-level.js';
import type { Level } from './level.js';
import { levelKey } from './level-key.js';
import { seededUniform, type UniformRandom } from './seeded-uniform.js';
import { checkInteger, checkObject, checkSeed } from './validate.js';

/**
 * What a stream of levels draws: the interior size, the boxes and the range of optimal solution lengths
 * (the options of {@link generateLevel} that define the distribution; its search tunables keep their
 * defaults).
 */
export interface LevelSetting {
  /**
   * Interior columns (3 to 100); the level is `width + 2` wide.
   * @defaultValue 6
   */
  readonly width?: number | undefined;
  /**
   * Interior rows (3 to 100).
   * @defaultValue 6
   */
  readonly height?: number | undefined;
  /**
   * Boxes per level (1 to 10).
   * @defaultValue 1
   */
  readonly boxes?: number | undefined;
  /**
   * Fewest moves of a level's optimal solution.
   * @defaultValue 1
   */
  readonly minMoves?: number | undefined;
  /**
   * Most moves of a level's optimal solution; `null` or `Infinity` for no bound.
   * @defaultValue null
   */
  readonly maxMoves?: number | null | undefined;
}

/** A {@link LevelSetting} with every field resolved (`maxMoves` null for no bound). */
export interface ResolvedLevelSetting {
  readonly width: number;
  readonly height: number;
  readonly boxes: number;
  readonly minMoves: number;
  readonly maxMoves: number | null;
}

/** A level of a {@link LevelStream}, with its certificate and canonical key. */
export interface StreamLevel {
  /** Position in the stream, from 0. */
  readonly index: number;
  /** The level, walls included. */
  readonly level: Level;
  /** Moves of an optimal solution (certified by the optimal solver). */
  readonly moves: number;
  /** Pushes of that solution. */
  readonly pushes: number;
  /** The solution in LURD notation (capitals are pushes). */
  readonly path: string;
  /** The level's canonical key ({@link levelKey}). */
  readonly key: string;
}

/**
 * Validates a setting once, naming `setting.<field>` in errors. Internal to the package's level sets.
 *
 * @param setting - the setting
 * @returns it resolved
 * @throws TypeError/RangeError naming the field and the value
 */
export function resolveLevelSetting(setting: LevelSetting): ResolvedLevelSetting {
  checkObject(setting, 'setting');
  const width = checkInteger(setting.width ?? 6, 'setting.width', 3, 100);
  const height = checkInteger(setting.height ?? 6, 'setting.height', 3, 100);
  const boxes = checkInteger(setting.boxes ?? 1, 'setting.boxes', 1, 10);
  const minMoves = checkInteger(setting.minMoves ?? 1, 'setting.minMoves', 1, 1_000_000);
  const raw = setting.maxMoves ?? null;
  const maxMoves =
    raw === null || raw === Number.POSITIVE_INFINITY
      ? null
      : checkInteger(raw, 'setting.maxMoves', minMoves, 1_000_000);
  return { width, height, boxes, minMoves, maxMoves };
}

/**
 * A seeded, reproducible, endless stream of generated levels of one setting, each certified solvable with
 * its optimal solution: level i is the i-th {@link generateLevel} call on one `seededUniform(seed)`
 * stream, so the same setting and seed give the same sequence on every machine, bit for bit. Levels may
 * repeat (small settings have few distinct levels); {@link levelSplit} removes repeats by key.
 *
 * @example
 * ```ts
 * const stream = new LevelStream({ width: 6, height: 6, boxes: 1 }, 0);
 * const first = stream.next();
 * console.log(first.index, first.moves, first.path, stream.drawn);
 * // 0 10 rrrDDDDrdL 1
 * ```
 */
export class LevelStream {
  /** The setting, resolved. */
  readonly setting: ResolvedLevelSetting;
  /** The seed. */
  readonly seed: number;
  readonly #options: { width: number; height: number; boxes: number; minMoves: number; maxMoves: number };
  readonly #uniform: UniformRandom;
  #drawn = 0;

  /**
   * @param setting - size, boxes and difficulty range
   * @param seed - any safe integer
   * @throws TypeError/RangeError naming the setting field or `seed` and the value received
   */
  constructor(setting: LevelSetting, seed: number) {
    this.setting = resolveLevelSetting(setting);
    this.seed = checkSeed(seed, 'seed');
    const { width, height, boxes, minMoves, maxMoves } = this.setting;
    this.#options = { width, height, boxes, minMoves, maxMoves: maxMoves ?? Number.POSITIVE_INFINITY };
    this.#uniform = seededUniform(this.seed);
  }

  /** Levels drawn so far (the index of the next one). */
  get drawn(): number {
    return this.#drawn;
  }

  /**
   * @returns the next level of the stream
   * @throws SokobanError `GENERATION_FAILED` when the generator finds no level of the setting (say, more
   *   boxes than a room of that size holds, or a difficulty range no room meets)
   */
  next(): StreamLevel {
    const generated = generateLevel(this.#options, this.#uniform);
    const index = this.#drawn++;
    const { level, moves, pushes, path } = generated;
    return { index, level, moves, pushes, path, key: levelKey(level) };
  }
}
