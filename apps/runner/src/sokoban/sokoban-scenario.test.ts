import { describe, expect, it } from 'vitest';
import { SOKOBAN_LEVELS, SOKOBAN_SCENARIO, SOKOBAN_STEPS } from './sokoban-scenario.js';

describe('SOKOBAN_SCENARIO', () => {
  it('describes the levels it trains on', () => {
    const { size, boxes, levels, heldOut, maxMoves, maxSteps, reward } = SOKOBAN_LEVELS;
    expect([size, boxes, levels, heldOut, maxMoves, maxSteps, reward]).toEqual([
      6,
      1,
      10,
      10,
      8,
      30,
      'binary',
    ]);
    expect(SOKOBAN_SCENARIO.description).toBe(
      `Sokoban ${size} × ${size}, one box, ${levels} training and ${heldOut} held-out certified levels (optimal solutions of at most ${maxMoves} moves), ` +
        `episodes of at most ${maxSteps} steps, binary reward (1 when solved): returns tie massively.`,
    );
    expect(SOKOBAN_SCENARIO.base.environment).toBe(SOKOBAN_LEVELS);
  });

  it('gives every method the same budget, policy and optimiser, and each label its settings', () => {
    const { base } = SOKOBAN_SCENARIO;
    expect([base.maxSamples, base.rollouts, base.policy, base.optimizer, base.lr]).toEqual([
      SOKOBAN_STEPS,
      4,
      'linear',
      'adam',
      0.05,
    ]);
    expect([base.capacity, base.batchSize, base.keep, base.batches, base.beta]).toEqual([128, 5, 1, 4, 0.05]);
    const settings = SOKOBAN_SCENARIO.methods.map(({ label, overrides }) => {
      const c = { ...base, ...overrides };
      return [label, c.method, c.keep, c.threshold, c.tieRule, c.epochs];
    });
    expect(settings).toEqual([
      ['ftw-k1', 'ftw', 1, null, 'random', 1],
      ['ftw-k3', 'ftw', 3, null, 'random', 1],
      ['ftw-k3-threshold', 'ftw', 3, 0, 'random', 1],
      ['ftw-k3-by-length', 'ftw', 3, null, 'shortest', 1],
      ['reinforce', 'reinforce', 1, null, 'random', 1],
      ['grpo', 'grpo', 1, null, 'random', 1],
      ['ppo', 'ppo', 1, null, 'random', 4],
    ]);
  });
});
