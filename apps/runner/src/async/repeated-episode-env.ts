import type { Policy } from '@ftw/trainer';
import type { EnvironmentStep, EpisodeEnv, Evaluation } from '../train/episode-env.js';

/**
 * A multi-step environment made of `horizon` independent one-step decisions of a bandit environment:
 * each step draws a fresh observation (a contextual bandit's task), the agent acts, the reward is added
 * to the return, and the episode ends after `horizon` steps. Its trajectories have `horizon` steps, so an
 * actor that hot-loads weights between steps produces trajectories that span policy versions.
 * Evaluation and regret are the inner environment's (they concern one decision).
 *
 * @example
 * ```ts
 * const env = new RepeatedEpisodeEnv(createEnvironment(contextual, 0), 4);
 * env.reset(); env.step(0).terminated; // false (3 more steps)
 * ```
 */
export class RepeatedEpisodeEnv implements EpisodeEnv {
  readonly numActions: number;
  readonly observationCount: number;
  readonly scoreLabel: string;
  readonly #inner: EpisodeEnv;
  readonly #horizon: number;
  #t = 0;
  readonly #step = { observation: 0, reward: 0, terminated: false, truncated: false };

  /**
   * @param inner - a one-step environment (every `step` ends its episode)
   * @param horizon - steps per episode, ≥ 1
   */
  constructor(inner: EpisodeEnv, horizon: number) {
    this.#inner = inner;
    this.#horizon = horizon;
    this.numActions = inner.numActions;
    this.observationCount = inner.observationCount;
    this.scoreLabel = inner.scoreLabel;
  }

  reset(): number {
    this.#t = 0;
    return this.#inner.reset();
  }

  step(action: number): EnvironmentStep {
    const inner = this.#inner.step(action);
    this.#t++;
    const done = this.#t >= this.#horizon;
    this.#step.reward = inner.reward;
    this.#step.terminated = done;
    this.#step.observation = done ? inner.observation : this.#inner.reset();
    return this.#step;
  }

  evaluate(policy: Policy, moved?: Int32Array | null): Evaluation {
    return this.#inner.evaluate(policy, moved);
  }

  stepRegret(observation: number, probabilities: Float64Array): number {
    return this.#inner.stepRegret?.(observation, probabilities) ?? 0;
  }
}
