import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { bernsteinRadius } from '../test/stats.js';
import { BernoulliBandit } from './bernoulli-bandit.js';
import { seededUniform } from './seeded-uniform.js';
import { shortfallProbability } from './shortfall-probability.js';
import { tieHeavyBinary } from './tie-heavy-binary.js';

describe('tieHeavyBinary', () => {
  it('has 10 arms with p = 0.02, 0.04, …, 0.20, the best one last', () => {
    const env = tieHeavyBinary();
    expect(env).toBeInstanceOf(BernoulliBandit);
    expect(env.numActions).toBe(10);
    const probabilities = Array.from({ length: 10 }, (_, a) => env.expectedReward(a));
    probabilities.forEach((p, a) => {
      expect(p).toBeCloseTo((a + 1) / 50, 15);
    });
    expect(env.optimalAction()).toBe(9);
    expect(env.expectedReward(9)).toBe(0.2);
  });

  it('leaves most minibatches of C = 5 with fewer than K = 3 successes, for any policy', () => {
    const env = tieHeavyBinary();
    const uniformPolicy = new Array(10).fill(0.1);
    const pBar = 0.2 - env.regret(uniformPolicy); // success probability of the uniform policy
    expect(pBar).toBeCloseTo(0.11, 15);
    // Exactly (89^5 + 5·11·89^4 + 10·11²·89^3) / 100^5 = 0.9887895194 for the uniform policy …
    expect(shortfallProbability(pBar, 5, 3)).toBeCloseTo(0.9887895194, 14);
    // … and at least 2944/3125 = 0.94208 for every policy, the best arm included (P(S < 3) decreases in p).
    expect(shortfallProbability(0.2, 5, 3)).toBeCloseTo(0.94208, 15);
    for (let k = 0; k <= 20; k++) {
      expect(shortfallProbability((0.2 * k) / 20, 5, 3)).toBeGreaterThanOrEqual(0.94208 - 1e-15);
    }
  });

  it('produces the predicted share of short minibatches when played under the uniform policy', () => {
    // m disjoint minibatches of 5 episodes, each action uniform over the 10 arms (drawn from a separate
    // seeded stream). Each minibatch is short (< 3 successes) independently with probability
    // P = 0.9887895194, so the count is Binomial(m, P): Bernstein with b = 1 at δ = 1e-9.
    const m = 20_000;
    const env = tieHeavyBinary({ seed: 77 });
    const policy = seededUniform(78);
    let short = 0;
    for (let batch = 0; batch < m; batch++) {
      let successes = 0;
      for (let i = 0; i < 5; i++) {
        env.reset();
        successes += env.step(Math.floor(policy() * 10)).reward;
      }
      if (successes < 3) short++;
    }
    const P = 0.9887895194;
    expect(Math.abs(short - m * P)).toBeLessThanOrEqual(bernsteinRadius(m * P * (1 - P), 1, 1e-9));
  });

  test.prop([fc.integer({ min: 2, max: 50 }), fc.double({ min: 0.001, max: 1, noNaN: true })])(
    'spaces the probabilities evenly up to maxProbability',
    (arms, maxProbability) => {
      const env = tieHeavyBinary({ arms, maxProbability });
      expect(env.numActions).toBe(arms);
      expect(env.optimalAction()).toBe(arms - 1);
      for (let a = 0; a < arms; a++) {
        expect(env.expectedReward(a)).toBeCloseTo((maxProbability * (a + 1)) / arms, 15);
      }
    },
  );

  it('rejects bad options, naming them', () => {
    expect(() => tieHeavyBinary({ arms: 1 })).toThrow(new RangeError('arms must be an integer >= 2, got 1'));
    expect(() => tieHeavyBinary({ arms: 2.5 })).toThrow(RangeError);
    expect(() => tieHeavyBinary({ maxProbability: 0 })).toThrow(
      new RangeError('maxProbability must be a number in (0, 1], got 0'),
    );
    expect(() => tieHeavyBinary({ maxProbability: 1.5 })).toThrow(RangeError);
    expect(() => tieHeavyBinary({ maxProbability: '0.2' as never })).toThrow(TypeError);
    expect(() => tieHeavyBinary({ seed: 0.5 })).toThrow(
      new RangeError('seed must be a safe integer, got 0.5'),
    );
    expect(() => tieHeavyBinary(null as never)).toThrow(new TypeError('options must be an object, got null'));
  });
});
