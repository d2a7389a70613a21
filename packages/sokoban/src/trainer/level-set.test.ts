import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fc, test } from '@fast-check/vitest';
import {
  generateLevel,
  type Level,
  levelKey,
  levelSplit,
  SokobanEnv,
  SokobanError,
  seededUniform,
} from '@ftw/sokoban';
import { TabularPolicy } from '@ftw/trainer';
import { describe, expect, it } from 'vitest';
import { SMALL_LEVELS } from '../../test/small-levels.js';
import { LEVEL_STREAMS_KEPT, levelSet } from './level-set.js';
import { SokobanEpisodeEnv, type SokobanEpisodeEnvOptions } from './sokoban-episode-env.js';

/** The definition: `count` levels drawn one after another from `seededUniform(levelSeed)`. */
function generated(config: SokobanEpisodeEnvOptions, count: number): Level[] {
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
    const impossible: SokobanEpisodeEnvOptions = { ...SMALL_LEVELS, size: 4, boxes: 2, maxMoves: 1 };
    expect(() => levelSet(impossible)).toThrow(SokobanError);
    expect(() => levelSet(impossible)).toThrow(/GENERATION_FAILED: no 4×4 level with 2 boxes/);
  });

  it("gives @ftw/sokoban's level split with --level-set split, disjoint, through the cache directory", () => {
    const dir = mkdtempSync(join(tmpdir(), 'ftw-runner-levels-'));
    try {
      const config: SokobanEpisodeEnvOptions = {
        ...SMALL_LEVELS,
        levelSeed: 77,
        levels: 40,
        heldOut: 12,
        levelSet: 'split',
        levelCache: join(dir, 'levels'),
      };
      const set = levelSet(config);
      const split = levelSplit({
        width: 5,
        height: 5,
        boxes: 1,
        maxMoves: 6,
        seed: 77,
        training: 40,
        heldOut: 12,
      });
      expect(set.training).toEqual(split.training.map((l) => l.level));
      expect(set.heldOut).toEqual(split.heldOut.map((l) => l.level));
      expect(set.longestSolution).toBe(
        Math.max(...[...split.training, ...split.heldOut].map((l) => l.moves)),
      );
      const held = new Set(set.heldOut.map(levelKey));
      expect(set.training.filter((l) => held.has(levelKey(l)))).toEqual([]);
      expect(readdirSync(join(dir, 'levels'))).toEqual([
        'sokoban-5x5x1-moves-1-6-seed-77-held-12-train-40.levels',
      ]);
      // Kept in this process: the same objects, the same levels as the stream's mode does not give.
      expect(levelSet(config).training[0]).toBe(set.training[0]);
      expect(levelSet({ ...config, levelSet: undefined } as never).heldOut).not.toEqual(set.heldOut);
      const env = new SokobanEpisodeEnv(config, 0);
      expect(env.trainingLevels).toBe(set.training);
      // Evaluation plays the first `heldOut` training levels only: a policy with no rows acts Up everywhere.
      const upSolves = (l: Level): boolean => {
        const play = new SokobanEnv({ level: l, maxSteps: config.maxSteps });
        play.reset();
        for (let t = 0; t < config.maxSteps; t++) if (play.step(0).terminated) return true;
        return false;
      };
      const solved = (levels: readonly Level[]) => levels.filter(upSolves).length / levels.length;
      // Up solves none of the first 12 training levels but 2 of all 40: playing them all would show.
      expect([solved(set.training.slice(0, 12)), solved(set.training)]).toEqual([0, 0.05]);
      expect(env.evaluate(new TabularPolicy(4, 0))).toEqual({
        score: solved(set.training.slice(0, 12)),
        details: { heldOutSuccess: solved(set.heldOut) },
      });
      expect(existsSync(join(dir, 'levels'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
