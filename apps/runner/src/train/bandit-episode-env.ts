import type { BanditEnv } from '@ftw/bandit';
import type { Policy } from '@ftw/trainer';
import { ActionDistribution } from '@ftw/trainer';
import { scoreName } from './describe-config.js';
import type { EnvironmentStep, EpisodeEnv, Evaluation } from './episode-env.js';

/**
 * A `@ftw/bandit` environment as an {@link EpisodeEnv}: one-step episodes whose observation id is the
 * task index (0 for a non-contextual bandit; all `numObservations` ids are known from the start).
 *
 * Evaluation: the score is the probability of the optimal action, averaged over observations; the
 * per-step regret is the bandit's exact expected regret of the acting probabilities in that task.
 *
 * @example
 * ```ts
 * const env = new BanditEpisodeEnv(new GaussianBandit({ means: [1, 0.3], stds: [0.2, 0.2], seed: 0 }));
 * env.reset(); // 0
 * env.step(1).terminated; // true
 * env.evaluate(new TabularPolicy(2, 1)).score; // 0.5
 * ```
 */
export class BanditEpisodeEnv implements EpisodeEnv {
  readonly numActions: number;
  readonly observationCount: number;
  readonly scoreLabel = scoreName({ kind: 'gaussian' }).label;
  readonly #bandit: BanditEnv;
  readonly #optimal: Int32Array;
  /** μ*_o − μ_o(a), row o, column a: the regret of each arm in each task. */
  readonly #gaps: Float64Array;
  readonly #distribution: ActionDistribution;
  readonly #step = { observation: 0, reward: 0, terminated: true, truncated: false };
  /** The result of `evaluate`, refilled by each call. */
  readonly #evaluation = { score: 0 };

  /** @param bandit - the bandit, seeded */
  constructor(bandit: BanditEnv) {
    this.#bandit = bandit;
    this.numActions = bandit.numActions;
    this.observationCount = bandit.numObservations;
    this.#optimal = Int32Array.from({ length: bandit.numObservations }, (_, o) => bandit.optimalAction(o));
    this.#distribution = new ActionDistribution(bandit.numActions);
    const A = bandit.numActions;
    this.#gaps = new Float64Array(bandit.numObservations * A);
    for (let o = 0; o < bandit.numObservations; o++) {
      const best = bandit.expectedReward(this.#optimal[o]!, o);
      for (let a = 0; a < A; a++) this.#gaps[o * A + a] = best - bandit.expectedReward(a, o);
    }
  }

  reset(): number {
    const { observation } = this.#bandit.reset();
    this.#step.observation = observation;
    return observation;
  }

  /**
   * @param action - the arm
   * @returns the reward; the episode always terminates (the result object is reused between calls)
   */
  step(action: number): EnvironmentStep {
    this.#step.reward = this.#bandit.step(action).reward;
    return this.#step;
  }

  /**
   * @param policy - the policy
   * @returns `{ score }`: mean over observations of π(optimal action | o)
   */
  evaluate(policy: Policy): Evaluation {
    let sum = 0;
    for (let o = 0; o < this.observationCount; o++) {
      sum += this.#distribution.of(policy, o).probabilities[this.#optimal[o]!]!;
    }
    this.#evaluation.score = sum / this.observationCount;
    return this.#evaluation;
  }

  /**
   * The bandit's expected regret (`BanditEnv.regret` for one task), from the arms' gaps computed once.
   * @param observation - the task
   * @param probabilities - the acting probabilities
   * @returns Σ_a π(a) (μ* − μ_a) in that task
   */
  stepRegret(observation: number, probabilities: Float64Array): number {
    const A = this.numActions;
    const gaps = this.#gaps;
    let regret = 0;
    for (let a = 0; a < A; a++) regret += probabilities[a]! * gaps[observation * A + a]!;
    return regret;
  }
}
