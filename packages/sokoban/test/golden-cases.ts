import type { GenerateLevelOptions } from '../src/generate-level.js';

/** The generator settings and seeds whose levels are committed in `golden-levels.xsb`. */
export const GOLDEN_CASES: ReadonlyArray<{ options: GenerateLevelOptions; seed: number }> = [
  { options: {}, seed: 0 },
  { options: {}, seed: 1 },
  { options: {}, seed: 2 },
  { options: { width: 7, height: 7 }, seed: 3 },
  { options: { width: 5, height: 5, minMoves: 5, maxMoves: 10 }, seed: 4 },
  { options: { width: 8, height: 8, boxes: 2 }, seed: 5 },
  { options: { width: 10, height: 10, boxes: 4 }, seed: 6 },
  { options: { width: 10, height: 10, boxes: 4 }, seed: 7 },
];

/** The title line of a golden level: its settings, seed and certificate. */
export function goldenTitle(
  options: GenerateLevelOptions,
  seed: number,
  moves: number,
  pushes: number,
  path: string,
): string {
  return `seed ${seed} ${JSON.stringify(options)}: ${moves} moves, ${pushes} pushes, ${path}`;
}
