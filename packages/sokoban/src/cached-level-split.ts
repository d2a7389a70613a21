import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type LevelSplit, type LevelSplitOptions, levelSplit } from './level-split.js';
import { formatLevelSplit, parseLevelSplit } from './level-split-file.js';
import { resolveLevelSetting } from './level-stream.js';
import { checkInteger, checkObject, checkSeed } from './validate.js';

/** What {@link cachedLevelSplit} did with the cache file. */
export interface LevelCacheOutcome {
  /** The cache file. */
  readonly path: string;
  /**
   * `read`: a valid file was read. `written`: there was none; the split was generated and written.
   * `rewritten`: the file failed a check (`reason`) and was replaced by a freshly generated split.
   */
  readonly status: 'read' | 'written' | 'rewritten';
  /** Why the file was not trusted (with `rewritten`). */
  readonly reason?: string;
}

/**
 * {@link levelSplit} through a cache file: generate once, then read it back on later calls. The file is
 * named by the setting, seed and sizes (`sokoban-<w>x<h>x<boxes>-moves-<min>-<max|any>-seed-<seed>-held-<n>-train-<n>.levels`)
 * under `cacheDir` (created when missing) and written atomically (a temporary file renamed over it). A
 * file is trusted only when it passes every check of the reader: its SHA-256 line, its header against
 * the request, every level well formed, every solution replayed to solved with the recorded length, all
 * keys distinct. A truncated, edited or foreign file is regenerated and replaced, never used. The split
 * read back equals the generated one.
 *
 * @param options - as for {@link levelSplit}
 * @param cacheDir - the directory of cache files
 * @returns the split and what happened to the file
 * @throws as {@link levelSplit}; the file system's errors when the directory cannot be created or written
 *
 * @example
 * ```ts
 * const options = { width: 6, height: 6, boxes: 1, seed: 0, training: 10_000, heldOut: 500 };
 * console.log(cachedLevelSplit(options, '.cache/levels').cache.status); // written (about 1 s)
 * console.log(cachedLevelSplit(options, '.cache/levels').cache.status); // read
 * ```
 */
export function cachedLevelSplit(
  options: LevelSplitOptions,
  cacheDir: string,
): { split: LevelSplit; cache: LevelCacheOutcome } {
  checkObject(options, 'options');
  if (typeof cacheDir !== 'string' || cacheDir === '') {
    throw new TypeError(`cacheDir must be a non-empty string, got ${JSON.stringify(cacheDir)}`);
  }
  const setting = resolveLevelSetting(options);
  const expected = {
    setting,
    seed: checkSeed(options.seed, 'options.seed'),
    heldOut: checkInteger(options.heldOut, 'options.heldOut', 0, 10_000_000),
    training: checkInteger(options.training, 'options.training', 0, 10_000_000),
  };
  const { width, height, boxes, minMoves, maxMoves } = setting;
  const name = `sokoban-${width}x${height}x${boxes}-moves-${minMoves}-${maxMoves ?? 'any'}-seed-${expected.seed}-held-${expected.heldOut}-train-${expected.training}.levels`;
  const path = join(cacheDir, name);
  let reason: string | undefined;
  let text: string | undefined;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (text !== undefined) {
    try {
      return { split: parseLevelSplit(text, expected), cache: { path, status: 'read' } };
    } catch (error) {
      reason = (error as Error).message;
    }
  }
  const split = levelSplit(options);
  mkdirSync(cacheDir, { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, formatLevelSplit(split));
  renameSync(temporary, path);
  return {
    split,
    cache: reason === undefined ? { path, status: 'written' } : { path, status: 'rewritten', reason },
  };
}
