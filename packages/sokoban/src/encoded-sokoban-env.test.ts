import { describe, expect, it } from 'vitest';
import { EncodedSokobanEnv } from './encoded-sokoban-env.js';
import { generateLevel } from './generate-level.js';
import { gridChannels } from './grid-channels.js';
import { parseLevel } from './parse-level.js';
import { seededUniform } from './seeded-uniform.js';
import { SokobanEnv } from './sokoban-env.js';
import { SOKOBAN_FEATURE_COUNT, sokobanFeatures } from './sokoban-features.js';

const right = parseLevel('#####\n#@$.#\n#####');
const left = parseLevel('#####\n#.$@#\n#####');

/** A policy with the same logits for every row. */
const constant = (z: readonly number[]) => ({
  logits(_o: Float32Array, rows: number, out: Float64Array) {
    for (let r = 0; r < rows; r++) for (let a = 0; a < 4; a++) out[r * 4 + a] = z[a]!;
    return out;
  },
});

/** A fixed random linear map of the observation: logits that depend on the position. */
function linear(d: number, seed: number) {
  const u = seededUniform(seed);
  const w = Float64Array.from({ length: 4 * d }, () => u() - 0.5);
  return {
    logits(o: Float32Array, rows: number, out: Float64Array) {
      for (let r = 0; r < rows; r++)
        for (let a = 0; a < 4; a++) {
          let z = 0;
          for (let k = 0; k < d; k++) z += w[a * d + k]! * o[r * d + k]!;
          out[r * 4 + a] = z;
        }
      return out;
    },
  };
}

describe('EncodedSokobanEnv', () => {
  const levels = Array.from(
    { length: 12 },
    (_, s) => generateLevel({ width: 5, height: 5, boxes: 1 }, s).level,
  );

  it('shows each position encoded, as the plain environment plays it', () => {
    for (const encoding of ['grid', 'features'] as const) {
      const env = new EncodedSokobanEnv({ levels, encoding, maxSteps: 20, random: seededUniform(3) });
      const plain = new SokobanEnv({ maxSteps: 20, level: levels[0]!, certify: false });
      const pick = seededUniform(3);
      const moves = seededUniform(9);
      for (let episode = 0; episode < 5; episode++) {
        let observation = env.reset();
        let board = plain.reset({
          options: { level: levels[Math.floor(pick() * levels.length)]! },
        }).observation;
        for (;;) {
          const want =
            encoding === 'grid'
              ? gridChannels(board.grid, board.width, board.height, new Float32Array(env.observationSize))
              : Float32Array.from(
                  sokobanFeatures(
                    board.grid,
                    board.width,
                    board.height,
                    new Float64Array(SOKOBAN_FEATURE_COUNT),
                  ),
                );
          expect(Array.from(observation)).toEqual(Array.from(want));
          const action = Math.floor(moves() * 4);
          const step = env.step(action);
          const expected = plain.step(action);
          expect([step.reward, step.terminated, step.truncated]).toEqual([
            expected.reward,
            expected.terminated,
            expected.truncated,
          ]);
          if (step.terminated || step.truncated) break;
          observation = step.observation;
          board = expected.observation;
        }
      }
    }
  });

  it('scores the greedy policy on the training and the held-out levels', () => {
    const env = new EncodedSokobanEnv({
      levels: [right],
      heldOut: [left, right],
      encoding: 'grid',
      maxSteps: 5,
      random: Math.random,
    });
    expect(env.evaluate(constant([0, 0, 0, 1]))).toEqual({ score: 1, details: { heldOutSuccess: 0.5 } });
    // Ties go to the lowest action (Up: a wall, never solving).
    expect(env.evaluate(constant([0, 0, 0, 0]))).toEqual({ score: 0, details: { heldOutSuccess: 0 } });
  });

  it('gives the same success batched as one level at a time', () => {
    for (const encoding of ['grid', 'features'] as const) {
      const one = new EncodedSokobanEnv({
        levels,
        encoding,
        maxSteps: 30,
        random: Math.random,
        evaluationBatch: 1,
      });
      const many = new EncodedSokobanEnv({
        levels,
        encoding,
        maxSteps: 30,
        random: Math.random,
        evaluationBatch: 5,
      });
      for (let seed = 0; seed < 20; seed++) {
        const policy = linear(one.observationSize, seed);
        expect(many.greedySuccess(policy, levels)).toBe(one.greedySuccess(policy, levels));
      }
    }
  });

  it('is a task environment: resetTask plays the chosen training level, succeeded says whether it was solved', () => {
    const env = new EncodedSokobanEnv({
      levels: [right, left],
      encoding: 'grid',
      maxSteps: 2,
      random: Math.random,
    });
    expect(env.taskCount).toBe(2);
    for (const [task, push, wrong] of [
      [0, 3, 2],
      [1, 2, 3],
    ] as const) {
      const plain = new SokobanEnv();
      const o = plain.reset({ options: { level: [right, left][task]! } }).observation;
      const first = gridChannels(o.grid, o.width, o.height, new Float32Array(env.observationSize));
      expect(Array.from(env.resetTask(task))).toEqual(Array.from(first));
      expect(env.succeeded).toBe(false);
      const solved = env.step(push);
      expect([solved.terminated, env.succeeded]).toEqual([true, true]);
      env.resetTask(task);
      expect(env.succeeded).toBe(false);
      env.step(wrong);
      const cut = env.step(wrong);
      expect([cut.truncated, env.succeeded]).toEqual([true, false]);
    }
    for (const task of [-1, 2, 0.5, Number.NaN]) {
      expect(() => env.resetTask(task)).toThrow(`task must be an integer in [0, 1], got ${task}`);
    }
  });

  it('refuses options out of range, naming them', () => {
    const base = { levels, encoding: 'grid', maxSteps: 10, random: Math.random } as const;
    expect(() => new EncodedSokobanEnv({ ...base, levels: [] })).toThrow(
      'levels must hold at least one level, got 0',
    );
    expect(() => new EncodedSokobanEnv({ ...base, maxSteps: 0 })).toThrow(
      'maxSteps must be an integer >= 1, got 0',
    );
    expect(() => new EncodedSokobanEnv({ ...base, evaluationBatch: 1.5 })).toThrow(
      'evaluationBatch must be an integer >= 1, got 1.5',
    );
  });
});
