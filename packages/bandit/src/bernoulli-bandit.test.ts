import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { play, pull, sameBits } from '../test/episodes.js';
import { bernsteinRadius } from '../test/stats.js';
import { BanditError } from './bandit-error.js';
import { BernoulliBandit } from './bernoulli-bandit.js';
import { seededUniform } from './seeded-uniform.js';

const probabilitiesArb = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 5 });

describe('BernoulliBandit', () => {
  // Per arm, the success count of n pulls is Binomial(n, p): Bernstein with variance np(1−p) and b = 1 at
  // δ = 1e-9; at most 10 runs × 5 arms = 50 checks, false alarm ≤ 5e-8 for the property.
  const n = 20_000;
  test.prop([probabilitiesArb, fc.integer()], { numRuns: 10 })(
    "pays 0 or 1 with each arm's configured success probability",
    (probabilities, seed) => {
      const env = new BernoulliBandit({ probabilities, seed });
      probabilities.forEach((p, action) => {
        const rewards = pull(env, action, n);
        let successes = 0;
        let binary = true;
        for (const r of rewards) {
          binary &&= r === 0 || r === 1;
          successes += r;
        }
        expect(binary).toBe(true);
        expect(Math.abs(successes - n * p)).toBeLessThanOrEqual(bernsteinRadius(n * p * (1 - p), 1, 1e-9));
      });
    },
  );

  it('never pays an arm of probability 0 and always pays an arm of probability 1', () => {
    const env = new BernoulliBandit({ probabilities: [0, 1], seed: 8 });
    expect(pull(env, 0, 2000).every((r) => r === 0)).toBe(true);
    expect(pull(env, 1, 2000).every((r) => r === 1)).toBe(true);
  });

  it('decides each reward by one uniform, U < p', () => {
    const env = new BernoulliBandit({ probabilities: [0.3, 0.6], seed: 12 });
    const uniform = seededUniform(12);
    const actions = [0, 1, 1, 0, 1, 0, 0, 1];
    const expected = actions.map((a) => (uniform() < [0.3, 0.6][a]! ? 1 : 0));
    expect(play(env, actions).rewards).toEqual(expected);
  });

  test.prop([probabilitiesArb, fc.integer(), fc.array(fc.nat(4), { minLength: 1, maxLength: 60 })])(
    'gives the same rewards for the same seed, and restarts on reset({ seed })',
    (probabilities, seed, actions) => {
      const valid = actions.map((a) => a % probabilities.length);
      const a = play(new BernoulliBandit({ probabilities, seed }), valid).rewards;
      const b = play(new BernoulliBandit({ probabilities, seed }), valid).rewards;
      expect(sameBits(a, b)).toBe(true);
      const env = new BernoulliBandit({ probabilities, seed: seed ^ 1 });
      play(env, valid);
      env.reset({ seed });
      const again = [env.step(valid[0]!).reward, ...play(env, valid.slice(1)).rewards];
      expect(sameBits(again, a)).toBe(true);
    },
  );

  test.prop([
    fc.array(
      fc.integer({ min: 0, max: 16 }).map((k) => k / 16),
      { minLength: 1, maxLength: 6 },
    ),
  ])('has zero regret on the optimal arms and positive regret elsewhere', (probabilities) => {
    const env = new BernoulliBandit({ probabilities });
    const best = Math.max(...probabilities);
    const k = probabilities.length;
    probabilities.forEach((p, a) => {
      const oneHot = probabilities.map((_, b) => (b === a ? 1 : 0));
      expect(env.regret(oneHot)).toBe(best - p);
      expect(env.regret(oneHot) > 0).toBe(p < best);
    });
    const uniform = probabilities.map(() => 1 / k);
    const mean = probabilities.reduce((s, p) => s + p, 0) / k;
    expect(env.regret(uniform)).toBeCloseTo(best - mean, 12);
    expect(env.expectedReward(env.optimalAction())).toBe(best);
  });

  it('rejects probabilities outside [0, 1], no arms and bad actions, naming them', () => {
    const make = (probabilities: unknown) => () => new BernoulliBandit({ probabilities } as never);
    expect(make([])).toThrow(new RangeError('probabilities must hold at least one arm, got an empty array'));
    expect(make([0.5, 1.5])).toThrow(new RangeError('probabilities[1] must be a number in [0, 1], got 1.5'));
    expect(make([-0.1])).toThrow(new RangeError('probabilities[0] must be a number in [0, 1], got -0.1'));
    expect(make([Number.NaN])).toThrow(
      new RangeError('probabilities[0] must be a number in [0, 1], got NaN'),
    );
    expect(make([null])).toThrow(new TypeError('probabilities[0] must be a number in [0, 1], got null'));
    expect(make(undefined)).toThrow(
      new TypeError('probabilities must be an array of numbers, got undefined'),
    );
    expect(make(Float64Array.of(0.5, 0.25))).not.toThrow();
    const env = new BernoulliBandit({ probabilities: [0.5] });
    expect(() => env.step(0)).toThrow(BanditError);
    env.reset();
    expect(() => env.step(1)).toThrow(new RangeError('action must be an integer in [0, 0], got 1'));
    expect(() => env.step(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});
