import { describe, expect, it } from 'vitest';
import { REPRODUCE_CONFIG } from '../config/reproduce-config.js';
import type { TrainConfig } from '../config/train-config.js';
import { trainSeed } from './train-seed.js';

describe('trainSeed', () => {
  it('runs the reproduction: 240 samples, 236 updates, the optimal arm near 0.968', () => {
    const result = trainSeed(REPRODUCE_CONFIG, 0);
    expect(result.environmentSteps).toBe(240);
    expect(result.updates).toBe(236);
    expect(result.metrics.filter((m) => !m.updated).map((m) => m.iteration)).toEqual([1, 2, 3, 4]);
    expect(result.metrics.every((m) => m.selected === null || m.selected === 4)).toBe(true);
  });

  it('is deterministic for a seed and differs between seeds', () => {
    const a = trainSeed(REPRODUCE_CONFIG, 1);
    const b = trainSeed(REPRODUCE_CONFIG, 1);
    const c = trainSeed(REPRODUCE_CONFIG, 2);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(a)).not.toBe(JSON.stringify(c));
  });

  it('runs every method and environment', () => {
    const base: TrainConfig = { ...REPRODUCE_CONFIG, iterations: 30, rollouts: 4 };
    const envs: TrainConfig['environment'][] = [
      { kind: 'bernoulli', probs: [0.2, 0.8] },
      {
        kind: 'contextual',
        taskMeans: [
          [1, 0],
          [0, 1],
        ],
        sd: 0.1,
      },
      { kind: 'tie-heavy', arms: 10, maxProbability: 0.2 },
    ];
    for (const environment of envs) {
      for (const method of ['ftw', 'reinforce', 'grpo', 'ppo'] as const) {
        const r = trainSeed({ ...base, environment, method, epochs: method === 'ppo' ? 4 : 1 }, 3);
        expect(r.environmentSteps).toBe(120);
        expect(r.finalOptimalProbability).toBeGreaterThan(0);
        expect(r.policy.flat().every(Number.isFinite)).toBe(true);
      }
    }
  });
});
