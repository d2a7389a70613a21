import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Action } from './action.js';
import { cachedLevelSplit } from './cached-level-split.js';
import { formatLevel } from './format-level.js';
import { formatLevels } from './format-levels.js';
import { generateLevel } from './generate-level.js';
import { levelSplit } from './level-split.js';
import { LevelStream } from './level-stream.js';
import { parseActions } from './parse-actions.js';
import { parseLevel } from './parse-level.js';
import { parseLevels } from './parse-levels.js';
import { SokobanEnv } from './sokoban-env.js';
import type { SokobanWarning } from './sokoban-warning.js';
import { solve } from './solve.js';
import { wilsonInterval } from './wilson-interval.js';

describe('README usage', () => {
  it('prints what the README says it prints', () => {
    const { level, moves, pushes, path } = generateLevel({ width: 6, height: 6, boxes: 1 }, 0);
    expect(formatLevel(level)).toBe(
      ['########', '##@    #', '##   $ #', '####   #', '####   #', '####   #', '####.  #', '########'].join(
        '\n',
      ),
    );
    expect([moves, pushes, path]).toEqual([10, 5, 'rrrDDDDrdL']);
    expect(formatLevel(level, { vocabulary: 'ragen' }).split('\n')[2]).toBe('##___X_#');
    expect(solve(level)).toEqual({
      status: 'solved',
      moves: 10,
      pushes: 5,
      path: 'rrrDDDDrdL',
      actions: [3, 3, 3, 1, 1, 1, 1, 3, 1, 2],
      states: 13,
    });
    const env = new SokobanEnv({ level, reward: 'binary', maxSteps: 100 });
    const { observation, info } = env.reset();
    expect([observation.width, observation.height, observation.grid.length, info.optimalMoves]).toEqual([
      8, 8, 64, 10,
    ]);
    const step = env.step(Action.Right);
    expect([step.reward, step.terminated, step.truncated, step.info.steps]).toEqual([0, false, false, 1]);
    const text = env.stepText('<answer>Right || Right || Down</answer>');
    expect([text.reward, text.info.actions, text.info.steps]).toEqual([0, 3, 4]);
    expect([parseActions('<answer>Right || Up</answer>'), parseActions('<action>left</action>')]).toEqual([
      [3, 0],
      [2],
    ]);
    const shaped = new SokobanEnv({ level: parseLevel('######\n#@ $.#\n######'), reward: 'shaped' });
    shaped.reset();
    expect([shaped.step(Action.Right).reward, shaped.step(Action.Right).reward]).toEqual([-0.1, 10.9]);
    const generated = new SokobanEnv({ generate: { width: 5, height: 5 }, seed: 1 });
    expect([generated.reset().info.optimalMoves, generated.reset({ seed: 1 }).info.optimalMoves]).toEqual([
      6, 6,
    ]);
    const file = formatLevels([level, parseLevel('######\n#@ $.#\n######')]);
    expect(parseLevels(file).map((l) => [l.title, l.line])).toEqual([
      ['0', 2],
      ['1', 12],
    ]);
    const [sok] = parseLevels('6#|#@-$.#|6#\nLevel 7\nAuthor: Me\nSolution: 2r\n');
    expect([sok!.title, sok!.author, sok!.solution]).toEqual(['Level 7', 'Me', 'rR']);
    const codes: string[] = [];
    const onWarning = (w: SokobanWarning): number => codes.push(w.code);
    const warned = new SokobanEnv({ level, maxSteps: 1, onWarning });
    expect([warned.reset().info.maxSteps, env.reset().info.maxSteps]).toEqual([1, 100]);
    expect(codes).toEqual(['MAX_STEPS_BELOW_OPTIMUM']);
  });

  it('prints what the level-distribution section says it prints', () => {
    const stream = new LevelStream({ width: 8, height: 8, boxes: 2 }, 0);
    expect([stream.next().moves, stream.next().index]).toEqual([24, 1]);
    const options = { width: 6, height: 6, boxes: 1, seed: 0, training: 10_000, heldOut: 500 };
    const split = levelSplit(options);
    const held = new Set(split.heldOut.map((l) => l.key));
    expect([split.training.some((l) => held.has(l.key)), split.drawn]).toEqual([false, 11055]);
    const dir = mkdtempSync(join(tmpdir(), 'ftw-readme-levels-'));
    try {
      expect(cachedLevelSplit(options, dir).cache.status).toBe('written');
      expect(cachedLevelSplit(options, dir).cache.status).toBe('read');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const { lower, upper } = wilsonInterval(412, 500);
    expect([lower.toFixed(3), upper.toFixed(3)]).toEqual(['0.788', '0.855']);
  });
});
