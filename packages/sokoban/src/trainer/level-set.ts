import { cachedLevelSplit, type Level, LevelStream, levelSplit } from '@ftw/sokoban';

/** Which levels a Sokoban training run plays: the generator's setting, how many levels and their seed. */
export interface LevelSetOptions {
  /** Interior width and height of every level (walls are added around). */
  readonly size: number;
  /** Boxes per level. */
  readonly boxes: number;
  /** Training levels. */
  readonly levels: number;
  /** Held-out levels, never trained on. */
  readonly heldOut: number;
  /** Seed of the level set (the same for every run seed, so seeds differ only in training). */
  readonly levelSeed: number;
  /** Most moves of a level's optimal solution (the generator's difficulty range is 1 … maxMoves). */
  readonly maxMoves: number;
  /**
   * `split`: {@link levelSplit}, the held-out levels first and the training levels distinct and disjoint
   * from them by level key; absent: the training levels, then the held-out ones, of one stream (repeats
   * possible).
   */
  readonly levelSet?: 'split';
  /** With `levelSet: 'split'`: the directory where the generated levels are cached ({@link cachedLevelSplit}). */
  readonly levelCache?: string;
}

/** The training levels and the held-out levels of one configuration. */
export interface LevelSet {
  /** The levels trained on. */
  readonly training: readonly Level[];
  /** The levels never trained on, disjoint from the training ones with `levelSet: 'split'`. */
  readonly heldOut: readonly Level[];
  /** Moves of the longest optimal solution among them (the generator certifies each level's). */
  readonly longestSolution: number;
}

/** One (size, boxes, maxMoves, levelSeed): its stream, what it gave so far and each level's optimal moves. */
type Drawn = { readonly stream: LevelStream; readonly levels: Level[]; readonly moves: number[] };

/** Streams kept per process by {@link levelSet}; the least recently used is dropped beyond this many. */
export const LEVEL_STREAMS_KEPT = 8;

const streams = new Map<string, Drawn>();
const splits = new Map<string, LevelSet>();

/** Puts a map's entry last (most recently used) and drops the least recently used beyond the limit. */
function keep<T>(map: Map<string, T>, key: string, value: T): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > LEVEL_STREAMS_KEPT) map.delete(map.keys().next().value!);
}

/**
 * The level set of a Sokoban configuration, generated once per process and shared by every environment
 * of that configuration (each seed of a run, each simulated actor of an asynchronous run, an evaluation).
 *
 * Method: the levels are `@ftw/sokoban`'s `LevelStream` (`generateLevel` drawing one level after another from `seededUniform(levelSeed)`):
 * the `levels` training levels first, then the `heldOut` ones. The generated levels of each
 * (size, boxes, maxMoves, levelSeed) are kept with the stream's state, so a later request for more
 * levels of the same stream extends them instead of starting again; the first n levels are the same
 * whatever was asked before. At most {@link LEVEL_STREAMS_KEPT} streams are kept. When a level cannot be
 * generated, the stream is forgotten (the next request starts again, and fails the same way).
 *
 * Cost: generation is the costly part of a Sokoban environment (about 0.5 ms a level of 8×8 with two
 * boxes and up to 12 moves); it is paid once per level set, not once per seed or actor.
 *
 * With `levelSet: 'split'` the levels are `@ftw/sokoban`'s `levelSplit` instead (held-out levels first,
 * training levels distinct and disjoint from them by level key), read from and written to the
 * `levelCache` directory when one is given (`cachedLevelSplit`), so each worker of a run reads them.
 *
 * The levels are shared: callers must not modify their grids (a `SokobanEnv` copies a level's grid).
 *
 * @param config - the level set's options (size, boxes, levels, heldOut, levelSeed, maxMoves, levelSet)
 * @returns the training and held-out levels
 * @throws SokobanError `GENERATION_FAILED` when a level cannot be generated, `LEVELS_EXHAUSTED` when a
 *   split asks for more distinct levels than the setting gives
 * @example
 * ```ts
 * const { training, heldOut } = levelSet({ size: 5, boxes: 1, levels: 4, heldOut: 3, levelSeed: 3, maxMoves: 6 });
 * training.length; // 4
 * ```
 */
export function levelSet(config: LevelSetOptions): LevelSet {
  const key = `${config.size} ${config.boxes} ${config.maxMoves} ${config.levelSeed}`;
  if (config.levelSet === 'split') {
    const splitKey = `${key} ${config.levels} ${config.heldOut}`;
    const set = splits.get(splitKey) ?? splitLevelSet(config);
    keep(splits, splitKey, set);
    return set;
  }
  const setting = { width: config.size, height: config.size, boxes: config.boxes, maxMoves: config.maxMoves };
  const stream = streams.get(key) ?? {
    stream: new LevelStream(setting, config.levelSeed),
    levels: [],
    moves: [],
  };
  // Out of the map while it generates: a failure leaves it forgotten. Put back as the most recently used.
  streams.delete(key);
  const count = config.levels + config.heldOut;
  while (stream.levels.length < count) {
    const generated = stream.stream.next();
    stream.levels.push(generated.level);
    stream.moves.push(generated.moves);
  }
  keep(streams, key, stream);
  return {
    training: stream.levels.slice(0, config.levels),
    heldOut: stream.levels.slice(config.levels, count),
    longestSolution: Math.max(...stream.moves.slice(0, count)),
  };
}

function splitLevelSet(config: LevelSetOptions): LevelSet {
  const options = {
    width: config.size,
    height: config.size,
    boxes: config.boxes,
    maxMoves: config.maxMoves,
    seed: config.levelSeed,
    training: config.levels,
    heldOut: config.heldOut,
  };
  const split =
    config.levelCache === undefined
      ? levelSplit(options)
      : cachedLevelSplit(options, config.levelCache).split;
  return {
    training: split.training.map((l) => l.level),
    heldOut: split.heldOut.map((l) => l.level),
    longestSolution: [...split.training, ...split.heldOut].reduce((most, l) => Math.max(most, l.moves), 0),
  };
}
