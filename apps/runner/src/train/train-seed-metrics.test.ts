import type { Policy } from '@ftw/trainer';
import { describe, expect, it } from 'vitest';
import { REPRODUCE_CONFIG } from '../config/reproduce-config.js';
import type { TrainConfig } from '../config/train-config.js';
import type { EnvironmentStep, EpisodeEnv, Evaluation } from './episode-env.js';
import { type SeedResult, trainSeed } from './train-seed.js';

/** The score the environment reports after each iteration: it reaches 0.9 exactly at iteration 3. */
const SCORES = [0.1, 0.3, 0.9, 0.97, 0.4, 0.95, 0.5, 0.6, 0.7, 0.65, 0.75, 0.8];

/** Expected regret of action a at observation o, as {@link LedgerEnv.stepRegret} defines it. */
const gap = (o: number, a: number): number => (a === 2 ? 0 : ((o + 1) * (a + 1)) / 8);

/**
 * A multi-step environment that keeps the ground truth of a run: each episode's observations and return
 * as the environment dealt them, and θ after each update (read at `evaluate`, which follows each update).
 * The observation is the step's index in its episode; action 0 ends the episode, the others go on, up to
 * a length that grows by one every 6 episodes (to 5), so observations are discovered during the run and
 * episodes have several lengths. Every step pays 0.01 and the last step of episode e (1-based) pays e
 * more, so later episodes have strictly higher returns: the K best of any pool are its K newest. The
 * score is scripted ({@link SCORES}).
 */
class LedgerEnv implements EpisodeEnv {
  readonly numActions = 3;
  readonly scoreLabel = 'scripted';
  readonly episodes: { observations: number[]; return: number }[] = [];
  /** θ and the number of known observations after each iteration's update. */
  readonly snapshots: { theta: Float64Array; observations: number }[] = [];
  #known = 0;

  get observationCount(): number {
    return this.#known;
  }

  reset(): number {
    this.#known = Math.max(this.#known, 1);
    this.episodes.push({ observations: [0], return: 0 });
    return 0;
  }

  step(action: number): EnvironmentStep {
    const episode = this.episodes.at(-1)!;
    const t = episode.observations.length;
    const end = action === 0 || t >= Math.min(5, 1 + Math.floor((this.episodes.length - 1) / 6));
    const reward = 0.01 + (end ? this.episodes.length : 0);
    episode.return += reward;
    if (!end) {
      episode.observations.push(t);
      this.#known = Math.max(this.#known, t + 1);
    }
    return { observation: end ? 0 : t, reward, terminated: end, truncated: false };
  }

  evaluate(policy: Policy): Evaluation {
    this.snapshots.push({
      theta: Float64Array.from(policy.parameters),
      observations: this.observationCount,
    });
    return { score: SCORES[this.snapshots.length - 1]! };
  }

  stepRegret(observation: number, probabilities: Float64Array): number {
    let regret = 0;
    for (let a = 0; a < this.numActions; a++) regret += probabilities[a]! * gap(observation, a);
    return regret;
  }
}

/** π(· | o) of a tabular θ by the definition (a row beyond θ's end has logits 0: uniform). */
function probabilities(theta: Float64Array, o: number): number[] {
  const z = [0, 1, 2].map((a) => (3 * o + a < theta.length ? theta[3 * o + a]! : 0));
  const m = Math.max(...z);
  const e = z.map((x) => Math.exp(x - m));
  const s = e.reduce((x, y) => x + y, 0);
  return e.map((x) => x / s);
}

const mean = (xs: readonly number[]): number => xs.reduce((x, y) => x + y, 0) / xs.length;

/** binom(n, k) by the product formula (exact for the small arguments here); 0 when k > n. */
function binomial(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let b = 1;
  for (let i = 1; i <= k; i++) b = (b * (n - k + i)) / i;
  return b;
}

/** |actual − expected| within a relative 1e-10 (sums taken in another order). */
function close(actual: number | null, expected: number, what: string): void {
  expect(actual, what).not.toBeNull();
  expect(Math.abs(actual! - expected), `${what}: ${actual} against ${expected}`).toBeLessThanOrEqual(
    1e-10 * Math.max(1, Math.abs(expected)),
  );
}

/** N = C = warm-up = 6: every sampled minibatch is the whole pool, so the elites are its K = 2 newest episodes. */
const BASE: TrainConfig = {
  ...REPRODUCE_CONFIG,
  capacity: 6,
  batchSize: 6,
  warmup: 6,
  keep: 2,
  batches: 2,
  rollouts: 3,
  iterations: SCORES.length,
  lr: 0.3,
  seeds: [0],
};

/** Checks every per-iteration figure and the seed's figures against the run's ledger. */
function checkAgainstLedger(config: TrainConfig, result: SeedResult, env: LedgerEnv): void {
  const R = config.rollouts;
  const { N, C, K, J } = { N: config.capacity, C: config.batchSize, K: config.keep, J: config.batches };
  const initial = new Float64Array(0);
  /** Policy version each episode was collected with (the number of updates before its iteration). */
  const versionOf: number[] = [];
  let version = 0;
  let samples = 0;
  let regret = 0;
  let reached: number | null = null;
  expect(result.metrics).toHaveLength(config.iterations);
  expect(env.episodes).toHaveLength(config.iterations * R);
  for (let t = 1; t <= config.iterations; t++) {
    const m = result.metrics[t - 1]!;
    const acting = t === 1 ? initial : env.snapshots[t - 2]!.theta;
    const batch = env.episodes.slice((t - 1) * R, t * R);
    for (const episode of batch) {
      versionOf.push(version);
      samples += episode.observations.length;
      for (const o of episode.observations) {
        const p = probabilities(acting, o);
        regret += p.reduce((sum, pa, a) => sum + pa * gap(o, a), 0);
      }
    }
    expect(m.iteration).toBe(t);
    expect(m.samples, `samples at iteration ${t}`).toBe(samples);
    close(m.reward, mean(batch.map((e) => e.return)), `reward at iteration ${t}`);
    close(m.regret, regret, `regret at iteration ${t}`);
    expect(m.optimalProbability).toBe(SCORES[t - 1]);
    if (reached === null && SCORES[t - 1]! >= 0.9) reached = samples;

    const updated = t * R >= config.warmup;
    expect(m.updated, `updated at iteration ${t}`).toBe(updated);
    if (!updated) {
      expect([m.klMean, m.klMax, m.tvMax]).toEqual([0, 0, 0]);
      expect([m.eliteMean, m.eliteSpread, m.selected, m.poolStaleness, m.selectionStaleness]).toEqual([
        null,
        null,
        null,
        null,
        null,
      ]);
      continue;
    }
    // KL(π_before ‖ π_after) and TV over the observations known at the update.
    const { theta: after, observations } = env.snapshots[t - 1]!;
    const kls: number[] = [];
    const tvs: number[] = [];
    for (let o = 0; o < observations; o++) {
      const p = probabilities(acting, o);
      const q = probabilities(after, o);
      kls.push(p.reduce((sum, pa, a) => sum + pa * (Math.log(pa) - Math.log(q[a]!)), 0));
      tvs.push(0.5 * p.reduce((sum, pa, a) => sum + Math.abs(pa - q[a]!), 0));
    }
    expect(Math.max(...kls)).toBeGreaterThan(1e-6); // the update moved the policy: not a check of zeros
    close(m.klMean, mean(kls), `klMean at iteration ${t}`);
    close(m.klMax, Math.max(...kls), `klMax at iteration ${t}`);
    close(m.tvMax, Math.max(...tvs), `tvMax at iteration ${t}`);
    // The pool: the N newest episodes, ranked by return, so newest first. Rank r is kept by a minibatch
    // with probability q_r = Σ_{k=1..K} binom(r−1, k−1) binom(N−r, C−k) / binom(N, C); its count is J·q_r
    // (the expected count; with C = N the sampled count too, every minibatch being the whole pool).
    const pool = Array.from({ length: N }, (_, i) => t * R - 1 - i);
    const counts = pool.map((_, i) => {
      let q = 0;
      for (let k = 1; k <= K; k++) q += binomial(i, k - 1) * binomial(N - 1 - i, C - k);
      return (J * q) / binomial(N, C);
    });
    const total = counts.reduce((x, y) => x + y, 0);
    const weighted = (f: (e: number) => number): number =>
      pool.reduce((sum, e, i) => sum + counts[i]! * f(e), 0) / total;
    const eliteMean = weighted((e) => env.episodes[e]!.return);
    close(m.eliteMean, eliteMean, `eliteMean at iteration ${t}`);
    close(
      m.eliteSpread,
      Math.sqrt(weighted((e) => (env.episodes[e]!.return - eliteMean) ** 2)),
      `eliteSpread at iteration ${t}`,
    );
    close(m.selected, J * K, `selected at iteration ${t}`);
    close(m.poolStaleness, mean(pool.map((e) => version - versionOf[e]!)), `poolStaleness at ${t}`);
    close(
      m.selectionStaleness,
      weighted((e) => version - versionOf[e]!),
      `selectionStaleness at ${t}`,
    );
    version++;
  }
  expect(result.environmentSteps).toBe(samples);
  expect(result.episodes).toBe(config.iterations * R);
  expect(result.updates).toBe(version);
  close(result.meanReward, mean(env.episodes.map((e) => e.return)), 'meanReward');
  close(result.cumulativeRegret, regret, 'cumulativeRegret');
  expect(result.finalOptimalProbability).toBe(SCORES.at(-1));
  expect(result.samplesTo90).toBe(reached);
}

describe('trainSeed per-iteration metrics', () => {
  // Sampled minibatches of the whole pool (known elites), and exact expected counts of C = 4 of N = 6
  // (unequal counts: ranks 1–4 get 2·(10, 10, 7, 3)/15, so a mean that ignores them is caught).
  for (const [optimizer, selection, batchSize] of [
    ['sgd', 'sampled', 6],
    ['adam', 'expected', 4],
  ] as const) {
    it(`match the definitions on a ledger of the run (${optimizer}, ${selection} selection, C = ${batchSize})`, () => {
      const config: TrainConfig = {
        ...BASE,
        optimizer,
        selection,
        batchSize,
        lr: optimizer === 'adam' ? 0.1 : 0.3,
      };
      const env = new LedgerEnv();
      const result = trainSeed(config, 2, undefined, env);
      // Episodes of several lengths, and an observation discovered after the first update: the figures
      // per episode and per step differ, and the KL runs over a growing set of rows.
      const lengths = new Set(env.episodes.map((e) => e.observations.length));
      expect(lengths.size).toBeGreaterThan(1);
      expect(env.snapshots[1]!.observations).toBeLessThan(env.snapshots.at(-1)!.observations);
      checkAgainstLedger(config, result, env);
    });
  }

  it('stops at the first iteration whose steps reach --max-samples', () => {
    const env = new LedgerEnv();
    const full = trainSeed(BASE, 5, undefined, env);
    // The step count after iteration 4, as the environment dealt it: the run must stop right there.
    const budget = env.episodes.slice(0, 4 * BASE.rollouts).reduce((s, e) => s + e.observations.length, 0);
    const stopped = trainSeed({ ...BASE, maxSamples: budget }, 5, undefined, new LedgerEnv());
    expect(stopped.metrics).toHaveLength(4);
    expect(stopped.environmentSteps).toBe(budget);
    expect(stopped.metrics).toEqual(full.metrics.slice(0, 4));
  });

  it('with --eval-every, evaluates iterations 1, n, 2n, … and the last; the others carry the last score', () => {
    const fullEnv = new LedgerEnv();
    const full = trainSeed(BASE, 5, undefined, fullEnv);
    const env = new LedgerEnv();
    const sparse = trainSeed({ ...BASE, iterations: 7, evalEvery: 3 }, 5, undefined, env);
    expect(sparse.metrics.map((m) => m.evaluatedAt)).toEqual([1, 1, 3, 3, 3, 6, 7]);
    expect(env.snapshots).toHaveLength(4);
    // The scripted score of each evaluation, in order; carried on the iterations in between.
    expect(sparse.metrics.map((m) => m.optimalProbability)).toEqual([0.1, 0.1, 0.3, 0.3, 0.3, 0.9, 0.97]);
    // Evaluating draws nothing: the run is the same one, iteration by iteration.
    expect(sparse.metrics.map((m) => m.reward)).toEqual(full.metrics.slice(0, 7).map((m) => m.reward));
    expect(env.snapshots.map((s) => s.theta)).toEqual([0, 2, 5, 6].map((i) => fullEnv.snapshots[i]!.theta));
    expect(full.metrics.every((m) => !('evaluatedAt' in m))).toBe(true);
  });
});
