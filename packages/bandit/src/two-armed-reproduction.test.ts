import { describe, expect, it } from 'vitest';
import { pull, sameBits } from '../test/episodes.js';
import { normalRadius } from '../test/stats.js';
import { GaussianBandit } from './gaussian-bandit.js';
import { twoArmedReproduction } from './two-armed-reproduction.js';

describe('twoArmedReproduction', () => {
  it('is the reproduction bandit: means 1.0 and 0.3, std 0.2, arm 0 optimal', () => {
    const env = twoArmedReproduction();
    expect(env).toBeInstanceOf(GaussianBandit);
    expect([env.numActions, env.numObservations, env.optimalAction()]).toEqual([2, 1, 0]);
    expect([env.expectedReward(0), env.expectedReward(1)]).toEqual([1, 0.3]);
    expect(env.regret([1, 0])).toBe(0);
    expect(env.regret([0.5, 0.5])).toBeCloseTo(0.35, 15);
    // Same law as the explicit configuration, draw for draw.
    const explicit = new GaussianBandit({ means: [1, 0.3], stds: [0.2, 0.2], seed: 5 });
    expect(sameBits(pull(twoArmedReproduction(5), 1, 50), pull(explicit, 1, 50))).toBe(true);
  });

  it('has standard deviation 0.2 on both arms', () => {
    // With z_i = (r_i − μ)/0.2, a wrong std of 0.1 or 0.4 shows in the mean of |z_i| (E|Z| = √(2/π)).
    // |·| is 1-Lipschitz, so by Gaussian concentration (Tsirelson–Ibragimov–Sudakov) the n-average of
    // |z_i| is sub-Gaussian with variance proxy 1/n: Chernoff radius at δ = 1e-9 per arm, 2e-9 in all.
    const n = 40_000;
    const env = twoArmedReproduction(3);
    for (const [action, mean] of [
      [0, 1],
      [1, 0.3],
    ] as const) {
      const rewards = pull(env, action, n);
      let absolute = 0;
      for (const r of rewards) absolute += Math.abs((r - mean) / 0.2);
      expect(Math.abs(absolute / n - Math.sqrt(2 / Math.PI))).toBeLessThan(normalRadius(1e-9) / Math.sqrt(n));
    }
  });

  it('rejects a bad seed, naming it', () => {
    expect(() => twoArmedReproduction(Number.NaN)).toThrow(
      new RangeError('seed must be a safe integer, got NaN'),
    );
  });
});
