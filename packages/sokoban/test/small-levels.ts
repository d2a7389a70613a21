import type { SokobanEpisodeEnvOptions } from '../src/trainer/index.js';

/** A small Sokoban level set for tests: 5 × 5, one box, 4 training and 3 held-out levels, 20 steps. */
export const SMALL_LEVELS: SokobanEpisodeEnvOptions = {
  size: 5,
  boxes: 1,
  levels: 4,
  heldOut: 3,
  levelSeed: 3,
  maxMoves: 6,
  maxSteps: 20,
  reward: 'binary',
  lengthTiebreak: 0,
};
