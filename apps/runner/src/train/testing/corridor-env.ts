import { ActionDistribution, type Policy } from '@ftw/trainer';
import type { EnvironmentStep, EpisodeEnv, Evaluation } from '../episode-env.js';

/** Options of {@link CorridorEnv}. */
export interface CorridorOptions {
  /** Cells before the goal; the agent starts in cell 0 and must move forward this many times. */
  readonly length: number;
  /** Number of actions; the last one moves forward, every other one stays put. */
  readonly actions: number;
  /** Steps after which an episode is truncated with return 0. */
  readonly limit: number;
}

/**
 * A deterministic multi-step test environment for the runner's tests: a corridor of `length` cells
 * whose observation id is the cell, discovered as visited (so `observationCount` grows during a run).
 * The last action moves forward, the others stay; reaching the end terminates with return
 * 1 − (steps − length) / limit, so every success beats every failure (return 0, truncated at `limit`
 * steps) and shorter successes beat longer ones. The score is the probability of walking straight to
 * the goal, Π_cell π(forward | cell). No regret is defined.
 *
 * @example
 * ```ts
 * const env = new CorridorEnv({ length: 2, actions: 2, limit: 4 });
 * env.reset(); // 0
 * env.step(1); // { observation: 1, reward: 0, terminated: false, truncated: false }
 * env.step(1); // { observation: 2, reward: 1, terminated: true, truncated: false }
 * ```
 */
export class CorridorEnv implements EpisodeEnv {
  readonly numActions: number;
  readonly scoreLabel = 'P(straight to the goal)';
  readonly #options: CorridorOptions;
  readonly #distribution: ActionDistribution;
  #observationCount = 0;
  #cell = 0;
  #steps = 0;

  /** @param options - length, actions and step limit */
  constructor(options: CorridorOptions) {
    this.#options = options;
    this.numActions = options.actions;
    this.#distribution = new ActionDistribution(options.actions);
  }

  get observationCount(): number {
    return this.#observationCount;
  }

  reset(): number {
    this.#cell = 0;
    this.#steps = 0;
    this.#observationCount = Math.max(this.#observationCount, 1);
    return 0;
  }

  step(action: number): EnvironmentStep {
    const { length, actions, limit } = this.#options;
    this.#steps++;
    if (action === actions - 1) this.#cell++;
    if (this.#cell === length) {
      return {
        observation: this.#cell,
        reward: 1 - (this.#steps - length) / limit,
        terminated: true,
        truncated: false,
      };
    }
    this.#observationCount = Math.max(this.#observationCount, this.#cell + 1);
    return { observation: this.#cell, reward: 0, terminated: false, truncated: this.#steps >= limit };
  }

  evaluate(policy: Policy): Evaluation {
    let p = 1;
    for (let cell = 0; cell < this.#options.length; cell++) {
      p *= this.#distribution.of(policy, cell).probabilities[this.numActions - 1]!;
    }
    return { score: p, details: { cellsSeen: this.#observationCount } };
  }
}
