import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { play, pull, sameBits } from '../test/episodes.js';
import { chiSquareInterval, dkwEpsilon, ksStatistic, meanVariance, normalRadius } from '../test/stats.js';
import { BanditError } from './bandit-error.js';
import { GaussianBandit } from './gaussian-bandit.js';
import { normalCdf } from './normal-cdf.js';
import { seededUniform } from './seeded-uniform.js';

const arm = fc.record({
  mean: fc.double({ min: -100, max: 100, noNaN: true }),
  std: fc.double({ min: 0.01, max: 10, noNaN: true }),
});
const armsArb = fc.array(arm, { minLength: 1, maxLength: 4 });
const actionsArb = fc.array(fc.nat(3), { minLength: 1, maxLength: 40 });

function bandit(arms: ReadonlyArray<{ mean: number; std: number }>, seed: number): GaussianBandit {
  return new GaussianBandit({ means: arms.map((a) => a.mean), stds: arms.map((a) => a.std), seed });
}

describe('GaussianBandit', () => {
  // Per arm: mean, variance and KS checks at δ = 1e-9 each; at most 8 runs × 4 arms × 3 checks = 96
  // checks, so the property fails by chance with probability ≤ 9.6e-8.
  const n = 20_000;
  test.prop([armsArb, fc.integer()], { numRuns: 8 })(
    "pays each arm's configured law: empirical mean, variance and KS statistic",
    (arms, seed) => {
      const env = bandit(arms, seed);
      arms.forEach(({ mean, std }, action) => {
        const rewards = pull(env, action, n);
        const [sampleMean, sampleVariance] = meanVariance(rewards);
        // The sample mean is exactly N(μ, σ²/n) under the model: Chernoff radius.
        expect(Math.abs(sampleMean - mean)).toBeLessThan((normalRadius(1e-9) * std) / Math.sqrt(n));
        // (n − 1) s² / σ² ~ χ²_{n−1}: Laurent–Massart interval.
        const [low, high] = chiSquareInterval(n - 1, 1e-9);
        const statistic = ((n - 1) * sampleVariance) / (std * std);
        expect(statistic).toBeGreaterThan(low);
        expect(statistic).toBeLessThan(high);
        // KS of the rewards against N(μ, σ²), DKW critical value.
        expect(ksStatistic(rewards, (x) => normalCdf(x, mean, std))).toBeLessThan(dkwEpsilon(n, 1e-9));
      });
    },
  );

  test.prop([armsArb, fc.integer(), actionsArb])(
    'gives the same rewards, bit for bit, for the same seed',
    (arms, seed, actions) => {
      const valid = actions.map((a) => a % arms.length);
      expect(sameBits(play(bandit(arms, seed), valid).rewards, play(bandit(arms, seed), valid).rewards)).toBe(
        true,
      );
    },
  );

  test.prop([armsArb, fc.integer(), fc.integer(), actionsArb, fc.nat(7)])(
    'restarts exactly on reset({ seed }), even with a normal cached from the old stream',
    (arms, seed, other, actions, before) => {
      const valid = actions.map((a) => a % arms.length);
      const env = bandit(arms, other);
      // An odd number of Gaussian steps leaves the second Box–Muller value cached.
      play(
        env,
        Array.from({ length: 2 * before + 1 }, () => 0),
      );
      env.reset({ seed });
      const first = env.step(valid[0]!).reward;
      const rest = play(env, valid.slice(1)).rewards;
      expect(sameBits([first, ...rest], play(bandit(arms, seed), valid).rewards)).toBe(true);
    },
  );

  it('continues the stream on reset() without a seed, and draws one normal per step', () => {
    const env = new GaussianBandit({ means: [0], stds: [1], seed: 4 });
    const rewards = pull(env, 0, 6);
    const uniform = seededUniform(4);
    const expected: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = Math.sqrt(-2 * Math.log(1 - uniform()));
      const angle = 2 * Math.PI * uniform();
      expected.push(r * Math.cos(angle), r * Math.sin(angle));
    }
    expect(sameBits(rewards, expected)).toBe(true);
  });

  it('draws from an injected random exactly as from the seeded generator', () => {
    const injected = new GaussianBandit({ means: [1, 2], stds: 0.5, random: seededUniform(9) });
    const seeded = new GaussianBandit({ means: [1, 2], stds: 0.5, seed: 9 });
    const actions = [0, 1, 1, 0, 1];
    expect(sameBits(play(injected, actions).rewards, play(seeded, actions).rewards)).toBe(true);
  });

  test.prop([
    // Means on a grid of step 1/8: ties are frequent, and no gap is so small that π_a·gap underflows.
    fc.array(
      fc.integer({ min: -40, max: 40 }).map((k) => k / 8),
      { minLength: 1, maxLength: 6 },
    ),
    fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 6, maxLength: 6 }),
  ])('has zero regret for policies on optimal arms and positive regret otherwise', (means, weights) => {
    const env = new GaussianBandit({ means, stds: 1 });
    const best = Math.max(...means);
    const optimal = means.map((m) => m === best);
    // A policy spread over the optimal arms only.
    const onBest = means.map((_, a) => (optimal[a] ? 1 + weights[a]! : 0));
    const total = onBest.reduce((s, w) => s + w, 0);
    expect(env.regret(onBest.map((w) => w / total))).toBe(0);
    expect(env.regret(means.map((_, a) => (a === env.optimalAction() ? 1 : 0)))).toBe(0);
    expect(optimal[env.optimalAction()]).toBe(true);
    // Any policy: regret = max μ − Σ π_a μ_a (the definition), positive iff mass sits on a worse arm.
    const raw = means.map((_, a) => weights[a]! + 1e-3);
    const sum = raw.reduce((s, w) => s + w, 0);
    const policy = raw.map((w) => w / sum);
    const value = policy.reduce((s, p, a) => s + p * means[a]!, 0);
    const regret = env.regret(policy);
    expect(regret).toBeCloseTo(best - value, 10);
    expect(regret > 0).toBe(optimal.some((o) => !o));
  });

  it('reports the expected reward and regret of the action in step info', () => {
    const env = new GaussianBandit({ means: [1, 0.3, 0.5], stds: [0.2, 0.2, 0], seed: 1 });
    expect(env.reset()).toEqual({ observation: 0, info: { optimalAction: 0 } });
    const result = env.step(1);
    expect(result).toMatchObject({ observation: 0, terminated: true, truncated: false });
    expect(result.info).toEqual({ expectedReward: 0.3, regret: 1 - 0.3 });
    env.reset();
    expect(env.step(2).reward).toBe(0.5); // a zero standard deviation pays the mean exactly
    expect([env.numActions, env.numObservations, env.expectedReward(2), env.expectedReward(1, 0)]).toEqual([
      3, 1, 0.5, 0.3,
    ]);
  });

  it('returns frozen reset results and step infos, shared between episodes, and fresh step results', () => {
    const env = new GaussianBandit({ means: [1, 0], stds: 1 });
    const first = env.reset();
    const a = env.step(1);
    const second = env.reset();
    const b = env.step(1);
    expect(first).toBe(second);
    expect(Object.isFrozen(first) && Object.isFrozen(first.info)).toBe(true);
    expect(a.info).toBe(b.info);
    expect(Object.isFrozen(a.info)).toBe(true);
    expect(a).not.toBe(b);
  });

  it('rejects bad configurations with a message naming the parameter and value', () => {
    const make = (options: unknown) => () => new GaussianBandit(options as never);
    expect(make({ means: [], stds: [] })).toThrow(
      new RangeError('means must hold at least one arm, got an empty array'),
    );
    expect(make({ means: [1, Number.NaN], stds: 1 })).toThrow(
      new RangeError('means[1] must be a finite number, got NaN'),
    );
    expect(make({ means: [Number.POSITIVE_INFINITY], stds: 1 })).toThrow(
      new RangeError('means[0] must be a finite number, got Infinity'),
    );
    expect(make({ means: [0, 1], stds: [1, -1] })).toThrow(
      new RangeError('stds[1] must be a finite number >= 0, got -1'),
    );
    expect(make({ means: [0], stds: Number.NaN })).toThrow(
      new RangeError('stds must be a finite number >= 0, got NaN'),
    );
    expect(make({ means: [0], stds: [Number.POSITIVE_INFINITY] })).toThrow(RangeError);
    expect(make({ means: [0, 1], stds: [1] })).toThrow(
      new RangeError('stds must have one entry per arm (2, the length of means), got length 1'),
    );
    expect(make({ means: 3, stds: 1 })).toThrow(new TypeError('means must be an array of numbers, got 3'));
    expect(make({ means: ['1'], stds: 1 })).toThrow(
      new TypeError('means[0] must be a finite number, got "1"'),
    );
    expect(make(undefined)).toThrow(new TypeError('options must be an object, got undefined'));
    expect(make({ means: [0], stds: 1, seed: 1.5 })).toThrow(
      new RangeError('seed must be a safe integer, got 1.5'),
    );
    expect(make({ means: [0], stds: 1, seed: 1, random: () => 0.5 })).toThrow(TypeError);
    expect(make({ means: [0], stds: 1, random: 0.5 })).toThrow(
      new TypeError('random must be a function, got 0.5'),
    );
  });

  it('rejects an action out of range or not an integer, leaving the episode open', () => {
    const env = new GaussianBandit({ means: [0, 1], stds: 1 });
    env.reset();
    expect(() => env.step(2)).toThrow(new RangeError('action must be an integer in [0, 1], got 2'));
    expect(() => env.step(-1)).toThrow(new RangeError('action must be an integer in [0, 1], got -1'));
    expect(() => env.step(0.5)).toThrow(new RangeError('action must be an integer in [0, 1], got 0.5'));
    expect(() => env.step(Number.NaN)).toThrow(
      new RangeError('action must be an integer in [0, 1], got NaN'),
    );
    expect(() => env.step('1' as unknown as number)).toThrow(
      new TypeError('action must be an integer in [0, 1], got "1"'),
    );
    expect(() => env.expectedReward(5)).toThrow(new RangeError('action must be an integer in [0, 1], got 5'));
    expect(() => env.optimalAction(1)).toThrow(
      new RangeError('observation must be an integer in [0, 0], got 1'),
    );
    expect(env.step(1).terminated).toBe(true);
  });

  it('refuses step before reset and a second step in the same episode', () => {
    const env = new GaussianBandit({ means: [0], stds: 1 });
    expect(() => env.step(0)).toThrow(BanditError);
    expect(() => env.step(0)).toThrow('RESET_REQUIRED: step() before reset()');
    env.reset();
    env.step(0);
    try {
      env.step(0);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(BanditError);
      expect((error as BanditError).code).toBe('RESET_REQUIRED');
      expect((error as BanditError).message).toMatch(/after the episode terminated/);
    }
  });

  it('rejects bad reset options without touching the stream', () => {
    const env = new GaussianBandit({ means: [0], stds: 1, seed: 2 });
    const twin = new GaussianBandit({ means: [0], stds: 1, seed: 2 });
    pull(env, 0, 1);
    pull(twin, 0, 1);
    expect(() => env.reset(42 as never)).toThrow(new TypeError('options must be an object, got 42'));
    expect(() => env.reset({ seed: 0.5 })).toThrow(new RangeError('seed must be a safe integer, got 0.5'));
    expect(() => env.reset({ seed: '1' as never })).toThrow(TypeError);
    expect(sameBits(pull(env, 0, 3), pull(twin, 0, 3))).toBe(true);
  });

  it('checks every draw of an injected random, and cannot re-seed it', () => {
    const env = new GaussianBandit({ means: [0], stds: 1, random: () => 1 });
    env.reset();
    expect(() => env.step(0)).toThrow(new RangeError('random() must return a number in [0, 1), got 1'));
    const nan = new GaussianBandit({ means: [0], stds: 1, random: () => Number.NaN });
    nan.reset();
    expect(() => nan.step(0)).toThrow(new RangeError('random() must return a number in [0, 1), got NaN'));
    const fixed = new GaussianBandit({ means: [0], stds: 1, random: () => 0.25 });
    expect(() => fixed.reset({ seed: 3 })).toThrow(BanditError);
    expect(() => fixed.reset({ seed: 3 })).toThrow(/NOT_RESEEDABLE/);
  });

  it('rejects malformed policy probabilities in regret, naming them', () => {
    const env = new GaussianBandit({ means: [1, 0], stds: 1 });
    expect(() => env.regret([1])).toThrow(new RangeError('probabilities must have length 2, got length 1'));
    expect(() => env.regret([0.7, 0.7])).toThrow(
      /probabilities must sum to 1 \(within 1e-9\), got a sum of 1\.4/,
    );
    expect(() => env.regret([1.5, -0.5])).toThrow(
      new RangeError('probabilities[0] must be a number in [0, 1], got 1.5'),
    );
    expect(() => env.regret([Number.NaN, 1])).toThrow(RangeError);
    expect(() =>
      env.regret([
        [1, 0],
        [0, 1],
      ]),
    ).toThrow(new RangeError('probabilities must hold one row per observation (1), got 2 rows'));
    expect(() => env.regret([[1, 0]], 0)).toThrow(TypeError);
    expect(env.regret([[0, 1]])).toBe(1);
  });
});
