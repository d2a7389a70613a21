import { fc, test } from '@fast-check/vitest';
import { generateLevel, type Level, SokobanError, seededUniform } from '@ftw/sokoban';
import { describe, expect, it } from 'vitest';
import type { SokobanEnvironmentConfig } from '../config/sokoban-environment-config.js';
import { LEVEL_STREAMS_KEPT, levelSet } from './level-set.js';
import { SokobanEpisodeEnv } from './sokoban-episode-env.js';
import { SMALL_LEVELS } from './testing/small-levels.js';

/** The definition: `count` levels drawn one after another from `seededUniform(levelSeed)`. */
function generated(config: SokobanEnvironmentConfig, count: number): Level[] {
  const random = seededUniform(config.levelSeed);
  const options = { width: config.size, height: config.size, boxes: config.boxes, maxMoves: config.maxMoves };
  return Array.from({ length: count }, () => generateLevel(options, random).level);
}

describe('levelSet', () => {
  test.prop(
    [
      fc.array(
        fc.record({
          levelSeed: fc.integer({ min: 0, max: 2 }),
          maxMoves: fc.constantFrom(4, 6),
          levels: fc.integer({ min: 1, max: 6 }),
          heldOut: fc.integer({ min: 0, max: 4 }),
        }),
        { minLength: 1, maxLength: 12 },
      ),
    ],
    { numRuns: 25 },
  )('gives the levels of the definition whatever was asked before', (requests) => {
    for (const request of requests) {
      const config = { ...SMALL_LEVELS, ...request };
      const expected = generated(config, request.levels + request.heldOut);
      const set = levelSet(config);
      expect(set.training).toEqual(expected.slice(0, request.levels));
      expect(set.heldOut).toEqual(expected.slice(request.levels));
    }
  });

  it('is generated once and shared by the environments of one configuration', () => {
    const config = { ...SMALL_LEVELS, levelSeed: 41 };
    const a = new SokobanEpisodeEnv(config, 0);
    const b = new SokobanEpisodeEnv(config, 1);
    expect(a.trainingLevels).toEqual(generated(config, config.levels));
    for (let i = 0; i < config.levels; i++) expect(b.trainingLevels[i]).toBe(a.trainingLevels[i]);
    for (let i = 0; i < config.heldOut; i++) expect(b.heldOutLevels[i]).toBe(a.heldOutLevels[i]);
    // More held-out levels of the same stream extend it: the first ones are the same objects.
    const more = levelSet({ ...config, heldOut: config.heldOut + 2 });
    expect(more.heldOut.slice(0, config.heldOut)).toEqual(a.heldOutLevels);
    expect(more.heldOut[0]).toBe(a.heldOutLevels[0]);
    // Another seed, size or difficulty is another stream.
    expect(levelSet({ ...config, levelSeed: 42 }).training[0]).not.toEqual(a.trainingLevels[0]);
  });

  it(`keeps the ${LEVEL_STREAMS_KEPT} streams used last`, () => {
    const configOf = (levelSeed: number) => ({ ...SMALL_LEVELS, levelSeed, levels: 1, heldOut: 0 });
    const first = levelSet(configOf(1000)).training[0]!;
    const second = levelSet(configOf(1001)).training[0]!;
    for (let s = 2; s < LEVEL_STREAMS_KEPT; s++) levelSet(configOf(1000 + s));
    // Used again, so the least recently used is now 1001, which the next new stream pushes out.
    expect(levelSet(configOf(1000)).training[0]).toBe(first);
    levelSet(configOf(1000 + LEVEL_STREAMS_KEPT));
    expect(levelSet(configOf(1000)).training[0]).toBe(first);
    const again = levelSet(configOf(1001)).training[0]!;
    expect(again).not.toBe(second);
    expect(again).toEqual(second);
  });

  it('forgets a stream whose generation failed, and fails the same way again', () => {
    const impossible: SokobanEnvironmentConfig = { ...SMALL_LEVELS, size: 4, boxes: 2, maxMoves: 1 };
    expect(() => levelSet(impossible)).toThrow(SokobanError);
    expect(() => levelSet(impossible)).toThrow(/GENERATION_FAILED: no 4×4 level with 2 boxes/);
  });
});
