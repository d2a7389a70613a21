import { fc, test } from '@fast-check/vitest';
import { ContextualBandit } from '@ftw/bandit';
import { TabularPolicy } from '@ftw/trainer';
import { describe, expect, it } from 'vitest';
import { BanditEpisodeEnv } from './bandit-episode-env.js';

const tasks = [
  { kind: 'gaussian', means: [0.2, 1, -0.5], stds: 0.1 },
  { kind: 'gaussian', means: [0.7, 0.1, 0.4], stds: 0.1 },
] as const;

describe('BanditEpisodeEnv', () => {
  test.prop([
    fc.integer({ min: 0, max: 1 }),
    fc
      .array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 3, maxLength: 3 })
      .filter((w) => w.some((x) => x > 0)),
  ])("gives the bandit's own expected regret for each task", (task, weights) => {
    const bandit = new ContextualBandit({ tasks, seed: 1 });
    const env = new BanditEpisodeEnv(bandit);
    const total = weights.reduce((a, b) => a + b, 0);
    const p = Float64Array.from(weights, (w) => w / total);
    expect(Math.abs(env.stepRegret(task, p) - bandit.regret(p, task))).toBeLessThanOrEqual(1e-14);
  });

  it('runs one-step episodes on the task drawn at reset, and scores P(optimal action)', () => {
    const env = new BanditEpisodeEnv(new ContextualBandit({ tasks, seed: 3 }));
    expect(env.observationCount).toBe(2);
    const o = env.reset();
    expect([0, 1]).toContain(o);
    const step = env.step(1);
    expect(step.terminated).toBe(true);
    expect(step.truncated).toBe(false);
    const policy = new TabularPolicy(3, 2);
    policy.parameters.set([0, Math.log(2), 0, 0, 0, 0]); // task 0: π(1) = 1/2; task 1: π(0) = 1/3
    expect(env.evaluate(policy).score).toBeCloseTo((1 / 2 + 1 / 3) / 2, 15);
  });
});
