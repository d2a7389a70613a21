import {
  type LevelSetting,
  LevelStream,
  type ResolvedLevelSetting,
  type StreamLevel,
} from './level-stream.js';
import { SokobanError } from './sokoban-error.js';
import { checkInteger, checkObject } from './validate.js';

/** Options of {@link levelSplit}: a setting, a seed and the two sizes. */
export interface LevelSplitOptions extends LevelSetting {
  /** Seed of the stream (any safe integer). */
  readonly seed: number;
  /** Training levels (0 to 10^7). */
  readonly training: number;
  /** Held-out levels (0 to 10^7). */
  readonly heldOut: number;
  /**
   * Consecutive draws that repeat a known level after which the setting is declared exhausted
   * (`LEVELS_EXHAUSTED`) instead of drawing for ever.
   * @defaultValue 1000
   */
  readonly maxRepeats?: number | undefined;
}

/** A training set and a held-out set of distinct levels that share no canonical key. */
export interface LevelSplit {
  /** The setting, resolved. */
  readonly setting: ResolvedLevelSetting;
  /** The stream's seed. */
  readonly seed: number;
  /** The held-out levels: the first distinct levels of the stream. */
  readonly heldOut: readonly StreamLevel[];
  /** The training levels: the next distinct levels whose keys are not held out. */
  readonly training: readonly StreamLevel[];
  /** Levels drawn from the stream (repeats included): the index where fresh levels would continue. */
  readonly drawn: number;
}

/**
 * Splits the seeded stream of a setting ({@link LevelStream}) into a held-out set and a training set that
 * provably never overlap: the held-out set takes the first `heldOut` distinct levels, then the training
 * set the next `training` distinct levels whose {@link levelKey} is not held out. Distinct means distinct
 * canonical keys (walls, targets, boxes and the player's reachable region), so a level that differs from
 * a held-out one only in where the player starts inside its region is never trained on. The held-out set
 * comes first so that it does not depend on the training size: every training size of one seed is
 * measured on the same held-out levels.
 *
 * @param options - setting, `seed`, `training`, `heldOut` and `maxRepeats`
 * @returns the two sets, each level with its optimal solution and key
 * @throws TypeError/RangeError naming the option and the value; SokobanError `GENERATION_FAILED` when the
 *   generator finds no level of the setting, `LEVELS_EXHAUSTED` when `maxRepeats` draws in a row repeat a
 *   known level (the setting has fewer distinct levels than asked for)
 *
 * @example
 * ```ts
 * const split = levelSplit({ width: 6, height: 6, boxes: 1, seed: 0, training: 1000, heldOut: 100 });
 * console.log(split.training.length, split.heldOut.length, split.drawn);
 * // 1000 100 1100
 * ```
 */
export function levelSplit(options: LevelSplitOptions): LevelSplit {
  checkObject(options, 'options');
  const training = checkInteger(options.training, 'options.training', 0, 10_000_000);
  const heldOut = checkInteger(options.heldOut, 'options.heldOut', 0, 10_000_000);
  const maxRepeats = checkInteger(options.maxRepeats ?? 1000, 'options.maxRepeats', 1, 1_000_000_000);
  const stream = new LevelStream(options, options.seed);
  const seen = new Set<string>();
  const take = (count: number): StreamLevel[] => {
    const levels: StreamLevel[] = [];
    for (let repeats = 0; levels.length < count; ) {
      const level = stream.next();
      if (seen.has(level.key)) {
        if (++repeats >= maxRepeats) throw exhausted(stream, seen.size, maxRepeats);
        continue;
      }
      repeats = 0;
      seen.add(level.key);
      levels.push(level);
    }
    return levels;
  };
  const held = take(heldOut);
  const trained = take(training);
  return {
    setting: stream.setting,
    seed: stream.seed,
    heldOut: held,
    training: trained,
    drawn: stream.drawn,
  };
}

function exhausted(stream: LevelStream, distinct: number, maxRepeats: number): SokobanError {
  const { width, height, boxes } = stream.setting;
  return new SokobanError(
    'LEVELS_EXHAUSTED',
    `only ${distinct} distinct ${width}×${height} levels with ${boxes} box${boxes === 1 ? '' : 'es'} found in ${stream.drawn} draws (the last ${maxRepeats} all repeats); ask for fewer levels or a larger setting`,
  );
}
