import { generateLevel, type Level, seededUniform } from '@ftw/sokoban';
import type { SokobanEnvironmentConfig } from '../config/sokoban-environment-config.js';

/** The training levels and the held-out levels of one configuration. */
export interface LevelSet {
  readonly training: readonly Level[];
  readonly heldOut: readonly Level[];
  /** Moves of the longest optimal solution among them (the generator certifies each level's). */
  readonly longestSolution: number;
}

/** The generator's state for one (size, boxes, maxMoves, levelSeed): its stream and what it gave so far. */
interface LevelStream {
  readonly options: { width: number; height: number; boxes: number; maxMoves: number };
  readonly random: () => number;
  readonly levels: Level[];
  /** Moves of each level's optimal solution. */
  readonly moves: number[];
}

/** Streams kept per process; the least recently used is dropped beyond this many. */
export const LEVEL_STREAMS_KEPT = 8;

const streams = new Map<string, LevelStream>();

/**
 * The level set of a Sokoban configuration, generated once per process and shared by every environment
 * of that configuration (each seed of a run, each simulated actor, `compare`, `evaluate`).
 *
 * Method: the levels are `generateLevel`'s, drawn one after another from `seededUniform(levelSeed)`:
 * the `levels` training levels first, then the `heldOut` ones. The generated levels of each
 * (size, boxes, maxMoves, levelSeed) are kept with the stream's state, so a later request for more
 * levels of the same stream extends them instead of starting again; the first n levels are the same
 * whatever was asked before. At most {@link LEVEL_STREAMS_KEPT} streams are kept. When a level cannot be
 * generated, the stream is forgotten (the next request starts again, and fails the same way).
 *
 * Cost: generation is the costly part of a Sokoban environment (about 0.5 ms a level of 8×8 with two
 * boxes and up to 12 moves); it is paid once per level set, not once per seed or actor.
 *
 * The levels are shared: callers must not modify their grids (a `SokobanEnv` copies a level's grid).
 *
 * @param config - the Sokoban configuration (size, boxes, levels, heldOut, levelSeed, maxMoves)
 * @returns the training and held-out levels
 * @throws SokobanError `GENERATION_FAILED` when a level cannot be generated
 */
export function levelSet(config: SokobanEnvironmentConfig): LevelSet {
  const key = `${config.size} ${config.boxes} ${config.maxMoves} ${config.levelSeed}`;
  let stream = streams.get(key);
  if (stream === undefined) {
    stream = {
      options: { width: config.size, height: config.size, boxes: config.boxes, maxMoves: config.maxMoves },
      random: seededUniform(config.levelSeed),
      levels: [],
      moves: [],
    };
  }
  // Out of the map while it generates: a failure leaves it forgotten. Put back as the most recently used.
  streams.delete(key);
  const count = config.levels + config.heldOut;
  while (stream.levels.length < count) {
    const generated = generateLevel(stream.options, stream.random);
    stream.levels.push(generated.level);
    stream.moves.push(generated.moves);
  }
  streams.set(key, stream);
  if (streams.size > LEVEL_STREAMS_KEPT) streams.delete(streams.keys().next().value!);
  return {
    training: stream.levels.slice(0, config.levels),
    heldOut: stream.levels.slice(config.levels, count),
    longestSolution: Math.max(...stream.moves.slice(0, count)),
  };
}
