import { fc, test } from '@fast-check/vitest';
import { seededStreams } from '@ftw/internal/seeded-streams';
import { describe, expect, it } from 'vitest';
import { clippedTerm, finiteDifference, logSoftmaxAt, type StepData } from '../test/definitions.js';
import { REPRODUCE_OPTIONS as REPRODUCE_CONFIG, type TestOptions as TrainConfig } from '../test/options.js';
import { type BaselineOptions, BaselineUpdater } from './baseline-updater.js';
import type { Episode } from './episode.js';
import { createOptimizer } from './optimizer.js';
import { TabularPolicy } from './tabular-policy.js';

const A = 3;
const O = 4;
/** SGD learning rate: the parameter change is −LR times the gradient applied. */
const LR = 1;
/** Per-coordinate tolerance against the central finite difference (accurate to ~1e-10). */
const TOLERANCE = 1e-7;

interface EpisodeData {
  readonly steps: StepData[];
  readonly ret: number;
}

/** An episode whose behaviour log-probabilities are those of the tabular policy θ_b, written by hand. */
function makeEpisode(e: EpisodeData, behaviour: ArrayLike<number>): Episode {
  return {
    length: e.steps.length,
    observations: Int32Array.from(e.steps, (s) => s.observation),
    actions: Int32Array.from(e.steps, (s) => s.action),
    logProbs: Float64Array.from(e.steps, (s) => logSoftmaxAt(behaviour, A, s.observation, s.action)),
    versions: new Uint32Array(e.steps.length),
    return: e.ret,
  };
}

function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>): void {
  for (let k = 0; k < expected.length; k++) {
    expect(
      Math.abs(actual[k]! - expected[k]!),
      `coordinate ${k}: ${actual[k]} vs ${expected[k]}`,
    ).toBeLessThan(TOLERANCE * (1 + Math.abs(expected[k]!)));
  }
}

/** b_e by definition: a running mean per start observation, seeded by the batch mean the first time. */
class RunningBaseline {
  readonly means = new Map<number, number>();
  constructor(readonly rate: number) {}
  batch(episodes: readonly EpisodeData[]): number[] {
    const start = (e: EpisodeData): number => e.steps[0]!.observation;
    for (const e of episodes) {
      if (this.means.has(start(e))) continue;
      const same = episodes.filter((q) => start(q) === start(e));
      this.means.set(start(e), same.reduce((s, q) => s + q.ret, 0) / same.length);
    }
    const b = episodes.map((e) => this.means.get(start(e))!);
    for (const e of episodes) {
      const m = this.means.get(start(e))!;
      this.means.set(start(e), m + this.rate * (e.ret - m));
    }
    return b;
  }
}

/** GRPO's advantages by definition: (G − mean) / population std within each start observation's group. */
function groupAdvantages(episodes: readonly EpisodeData[]): number[] {
  return episodes.map((e) => {
    const group = episodes
      .filter((q) => q.steps[0]!.observation === e.steps[0]!.observation)
      .map((q) => q.ret);
    const mean = group.reduce((s, g) => s + g, 0) / group.length;
    const sd = Math.sqrt(group.reduce((s, g) => s + (g - mean) ** 2, 0) / group.length);
    return group.every((g) => g === group[0]) ? 0 : (e.ret - mean) / sd;
  });
}

function logProbSum(theta: ArrayLike<number>, e: EpisodeData): number {
  return e.steps.reduce((s, step) => s + logSoftmaxAt(theta, A, step.observation, step.action), 0);
}

const stepArb = fc.record({
  observation: fc.integer({ min: 0, max: O - 1 }),
  action: fc.integer({ min: 0, max: A - 1 }),
});
const episodeArb = fc.record({
  steps: fc.array(stepArb, { minLength: 1, maxLength: 4 }),
  ret: fc.integer({ min: -4, max: 4 }).map((k) => k / 2),
});
const batchArb = fc.array(episodeArb, { minLength: 2, maxLength: 6 });
const thetaArb = fc.array(fc.double({ min: -2, max: 2, noNaN: true }), {
  minLength: O * A,
  maxLength: O * A,
});

function setup(config: Partial<TrainConfig>) {
  const policy = new TabularPolicy(A, O);
  const options = { ...REPRODUCE_CONFIG, ...config } as BaselineOptions;
  const updater = new BaselineUpdater(options, policy, createOptimizer('sgd', LR));
  return { policy, updater };
}

describe('BaselineUpdater', () => {
  test.prop([thetaArb, batchArb, batchArb], { numRuns: 40 })(
    'reinforce applies the gradient of −(1/E) Σ_e (G_e − b_e) Σ_t log π(a_t|o_t), b_e the running mean of its start',
    (theta0, batch1, batch2) => {
      const rate = 0.3;
      const { policy, updater } = setup({ method: 'reinforce', baselineRate: rate });
      const baseline = new RunningBaseline(rate);
      let theta = Float64Array.from(theta0);
      policy.parameters.set(theta);
      for (const batch of [batch1, batch2]) {
        const b = baseline.batch(batch);
        const loss = (t: Float64Array): number =>
          -batch.reduce((s, e, i) => s + (e.ret - b[i]!) * logProbSum(t, e), 0) / batch.length;
        const g = finiteDifference(loss, theta);
        updater.update(
          batch.map((e) => makeEpisode(e, theta)),
          0,
        );
        theta = Float64Array.from(theta, (t, k) => t - LR * g[k]!);
        expectClose(policy.parameters, theta);
      }
    },
  );

  test.prop([thetaArb, batchArb], { numRuns: 40 })(
    'grpo applies the gradient of −(1/E) Σ_e (1/L_e) Σ_t min(ρ_t A_e, clip(ρ_t) A_e), A_e normalised in its start group',
    (theta0, batch) => {
      const clip = 0.2;
      const { policy, updater } = setup({ method: 'grpo', clip });
      policy.parameters.set(theta0);
      const advantages = groupAdvantages(batch);
      const behaviour = Float64Array.from(theta0);
      const loss = (t: Float64Array): number =>
        -batch.reduce((s, e, i) => {
          let sum = 0;
          for (const step of e.steps) {
            const ratio = Math.exp(
              logSoftmaxAt(t, A, step.observation, step.action) -
                logSoftmaxAt(behaviour, A, step.observation, step.action),
            );
            sum += clippedTerm(ratio, advantages[i]!, clip);
          }
          return s + sum / e.steps.length;
        }, 0) / batch.length;
      const g = finiteDifference(loss, theta0);
      updater.update(
        batch.map((e) => makeEpisode(e, behaviour)),
        0,
      );
      expectClose(
        policy.parameters,
        Float64Array.from(theta0, (t, k) => t - LR * g[k]!),
      );
    },
  );

  it('ppo takes its epochs on −(1/S) Σ_steps min(ρ_t A_t, clip(ρ_t) A_t) with the behaviour log-probabilities frozen', () => {
    const clip = 0.2;
    const epochs = 5;
    const rate = 0.25;
    // Fixed data from a seeded stream; the behaviour policy θ_b differs from the policy being trained (a
    // stale actor), so ratios start away from 1 and some leave [1 − ε, 1 + ε] during the epochs.
    const u = seededStreams(7).policy;
    const theta0 = Float64Array.from({ length: O * A }, () => 2 * u() - 1);
    const behaviour = Float64Array.from(theta0, (t) => t + 0.3 * (2 * u() - 1));
    const batches: EpisodeData[][] = [0, 1].map(() =>
      Array.from({ length: 5 }, () => ({
        steps: Array.from({ length: 1 + Math.floor(3 * u()) }, () => ({
          observation: Math.floor(O * u()),
          action: Math.floor(A * u()),
        })),
        ret: Math.round(4 * u()) / 2,
      })),
    );
    const { policy, updater } = setup({ method: 'ppo', clip, epochs, baselineRate: rate });
    policy.parameters.set(theta0);
    const baseline = new RunningBaseline(rate);
    let theta = Float64Array.from(theta0);
    let clipped = 0;
    for (const batch of batches) {
      const b = baseline.batch(batch);
      const steps = batch.flatMap((e, i) => e.steps.map((s) => ({ ...s, advantage: e.ret - b[i]! })));
      const ratio = (t: Float64Array, s: StepData): number =>
        Math.exp(
          logSoftmaxAt(t, A, s.observation, s.action) - logSoftmaxAt(behaviour, A, s.observation, s.action),
        );
      const loss = (t: Float64Array): number =>
        -steps.reduce((sum, s) => sum + clippedTerm(ratio(t, s), s.advantage, clip), 0) / steps.length;
      for (let epoch = 0; epoch < epochs; epoch++) {
        clipped += steps.filter((s) => Math.abs(ratio(theta, s) - 1) > clip).length;
        const g = finiteDifference(loss, theta);
        theta = Float64Array.from(theta, (t, k) => t - LR * g[k]!);
      }
      updater.update(
        batch.map((e) => makeEpisode(e, behaviour)),
        0,
      );
      expectClose(policy.parameters, theta);
    }
    expect(clipped).toBeGreaterThan(0);
  });

  it('keeps one running baseline per start observation, met as episodes arrive', () => {
    const { policy, updater } = setup({ method: 'reinforce', baselineRate: 1 });
    // With rate 1 the baseline of a start is the last return seen from it: the second batch's episode
    // from start 9 (new) gets the batch mean, the one from start 0 gets the first batch's last return.
    const behaviour = new Float64Array(10 * A);
    updater.update([makeEpisode({ steps: [{ observation: 0, action: 1 }], ret: 2 }, behaviour)], 0);
    const before = Float64Array.from(policy.parameters);
    updater.update(
      [
        makeEpisode({ steps: [{ observation: 0, action: 1 }], ret: 2 }, behaviour),
        makeEpisode({ steps: [{ observation: 9, action: 0 }], ret: 5 }, behaviour),
      ],
      1,
    );
    // Both advantages are 0, so nothing moves; the policy grew to hold observation 9.
    expect(policy.parameters.length).toBe(10 * A);
    expectClose(policy.parameters.subarray(0, before.length), before);
    expect(Array.from(policy.parameters.subarray(9 * A))).toEqual([0, 0, 0]);
  });
});

describe('BaselineUpdater with truncated importance weights (--is truncate:c)', () => {
  const CAP = 1.5;
  const clip = 0.2;

  /** Stale actors: each step's behaviour is one of two older policies, so one episode mixes versions. */
  interface StaleEpisode extends EpisodeData {
    readonly behaviourOf: readonly number[];
  }

  // Seeded fixture: current θ₀, two behaviour policies away from it, two batches of 6 episodes.
  const u = seededStreams(11).policy;
  const theta0 = Float64Array.from({ length: O * A }, () => 2 * u() - 1);
  const behaviours = [0, 1].map(() => Float64Array.from(theta0, (t) => t + 0.9 * (2 * u() - 1)));
  const batches: StaleEpisode[][] = [0, 1].map(() =>
    Array.from({ length: 6 }, () => {
      const steps = Array.from({ length: 1 + Math.floor(3 * u()) }, () => ({
        observation: Math.floor(O * u()),
        action: Math.floor(A * u()),
      }));
      return {
        steps,
        behaviourOf: steps.map(() => (u() < 0.5 ? 0 : 1)),
        ret: Math.round(4 * u()) / 2,
      };
    }),
  );

  const staleEpisode = (e: StaleEpisode): Episode => ({
    length: e.steps.length,
    observations: Int32Array.from(e.steps, (s) => s.observation),
    actions: Int32Array.from(e.steps, (s) => s.action),
    logProbs: Float64Array.from(e.steps, (s, t) =>
      logSoftmaxAt(behaviours[e.behaviourOf[t]!]!, A, s.observation, s.action),
    ),
    versions: Uint32Array.from(e.behaviourOf),
    return: e.ret,
  });

  /** w(τ) = Π_t π_θ(a_t|o_t) / q_{v_t}(a_t|o_t), by a plain product of probabilities. */
  const weightOf = (theta: ArrayLike<number>, e: StaleEpisode): number =>
    e.steps.reduce(
      (w, s, t) =>
        w *
        (Math.exp(logSoftmaxAt(theta, A, s.observation, s.action)) /
          Math.exp(logSoftmaxAt(behaviours[e.behaviourOf[t]!]!, A, s.observation, s.action))),
      1,
    );

  it('the fixture has weights above the cap, between 1 and the cap, and below 1 (so each wrong weight differs)', () => {
    const w = batches.flat().map((e) => weightOf(theta0, e));
    expect(w.filter((x) => x > CAP).length).toBeGreaterThan(0);
    expect(w.filter((x) => x < 1 / CAP).length).toBeGreaterThan(0);
    expect(
      w.filter((x) => x > 1.05 && x < CAP).length + w.filter((x) => x > 1 / CAP && x < 0.95).length,
    ).toBeGreaterThan(0);
  });

  it('reinforce applies the gradient of −(1/E) Σ_e min(w(τ_e), c) (G_e − b_e) Σ_t log π(a_t|o_t), w at θ before the update', () => {
    const rate = 0.3;
    const policy = new TabularPolicy(A, O);
    const updater = new BaselineUpdater(
      { ...REPRODUCE_CONFIG, method: 'reinforce', baselineRate: rate },
      policy,
      createOptimizer('sgd', LR),
      { truncation: CAP },
    );
    policy.parameters.set(theta0);
    const baseline = new RunningBaseline(rate);
    let theta = Float64Array.from(theta0);
    for (const batch of batches) {
      const b = baseline.batch(batch);
      const w = batch.map((e) => Math.min(weightOf(theta, e), CAP));
      const loss = (t: Float64Array): number =>
        -batch.reduce((s, e, i) => s + w[i]! * (e.ret - b[i]!) * logProbSum(t, e), 0) / batch.length;
      const g = finiteDifference(loss, theta);
      updater.update(batch.map(staleEpisode), 0);
      theta = Float64Array.from(theta, (t, k) => t - LR * g[k]!);
      expectClose(policy.parameters, theta);
    }
  });

  it('grpo applies the gradient of −(1/E) Σ_e min(w(τ_e), c) (1/L_e) Σ_t min(ρ_t A_e, clip(ρ_t) A_e), ρ_t against θ₀', () => {
    const policy = new TabularPolicy(A, O);
    const updater = new BaselineUpdater(
      { ...REPRODUCE_CONFIG, method: 'grpo', clip },
      policy,
      createOptimizer('sgd', LR),
      { truncation: CAP },
    );
    policy.parameters.set(theta0);
    const batch = batches[0]!;
    const advantages = groupAdvantages(batch);
    const w = batch.map((e) => Math.min(weightOf(theta0, e), CAP));
    const loss = (t: Float64Array): number =>
      -batch.reduce((s, e, i) => {
        let sum = 0;
        for (const step of e.steps) {
          const ratio = Math.exp(
            logSoftmaxAt(t, A, step.observation, step.action) -
              logSoftmaxAt(theta0, A, step.observation, step.action),
          );
          sum += clippedTerm(ratio, advantages[i]!, clip);
        }
        return s + (w[i]! * sum) / e.steps.length;
      }, 0) / batch.length;
    const g = finiteDifference(loss, theta0);
    updater.update(batch.map(staleEpisode), 0);
    expectClose(
      policy.parameters,
      Float64Array.from(theta0, (t, k) => t - LR * g[k]!),
    );
  });

  it('ppo takes its epochs on −(1/S) Σ_e min(w(τ_e), c) Σ_t min(ρ_t A_t, clip(ρ_t) A_t), w and ρ_t against θ₀ frozen', () => {
    const epochs = 5;
    const rate = 0.25;
    // A larger step than LR so that ratios leave [1 − ε, 1 + ε] within the epochs.
    const lr = 6;
    const policy = new TabularPolicy(A, O);
    const updater = new BaselineUpdater(
      { ...REPRODUCE_CONFIG, method: 'ppo', clip, epochs, baselineRate: rate },
      policy,
      createOptimizer('sgd', lr),
      { truncation: CAP },
    );
    policy.parameters.set(theta0);
    const baseline = new RunningBaseline(rate);
    let theta = Float64Array.from(theta0);
    let clipped = 0;
    for (const batch of batches) {
      const before = Float64Array.from(theta);
      const b = baseline.batch(batch);
      const steps = batch.flatMap((e, i) =>
        e.steps.map((s) => ({ ...s, advantage: e.ret - b[i]!, w: Math.min(weightOf(before, e), CAP) })),
      );
      const ratio = (t: Float64Array, s: StepData): number =>
        Math.exp(
          logSoftmaxAt(t, A, s.observation, s.action) - logSoftmaxAt(before, A, s.observation, s.action),
        );
      const loss = (t: Float64Array): number =>
        -steps.reduce((sum, s) => sum + s.w * clippedTerm(ratio(t, s), s.advantage, clip), 0) / steps.length;
      for (let epoch = 0; epoch < epochs; epoch++) {
        clipped += steps.filter((s) => Math.abs(ratio(theta, s) - 1) > clip).length;
        const g = finiteDifference(loss, theta);
        theta = Float64Array.from(theta, (t, k) => t - lr * g[k]!);
      }
      updater.update(batch.map(staleEpisode), 0);
      expectClose(policy.parameters, theta);
    }
    // The trust region binds in later epochs, so the clip around θ₀ is exercised too.
    expect(clipped).toBeGreaterThan(0);
  });

  it('refuses a cap that is not a finite number > 0, naming it', () => {
    const policy = new TabularPolicy(A, O);
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(
        () =>
          new BaselineUpdater({ ...REPRODUCE_CONFIG, method: 'ppo' }, policy, createOptimizer('sgd', LR), {
            truncation: bad,
          }),
      ).toThrow(new RegExp(`options.truncation must be a finite number > 0, got ${bad}`));
    }
  });
});
