// Test-only environment: a chain of `length` states observed as one-hot vectors; action 1 moves right,
// action 0 left (not below 0); the last state ends the episode with reward 1, and after 4·length steps it
// is truncated with return 0.
import type { Environment, EnvironmentStep, Observation } from '@ftw/trainer';

export class ChainEnv implements Environment {
  readonly numActions = 2;
  readonly observationSize: number;
  readonly #length: number;
  readonly #vector: Float64Array;
  #state = 0;
  #steps = 0;

  constructor(length: number) {
    this.#length = length;
    this.observationSize = length;
    this.#vector = new Float64Array(length);
  }

  reset(): Observation {
    this.#state = 0;
    this.#steps = 0;
    return this.#observe();
  }

  step(action: number): EnvironmentStep {
    this.#steps++;
    this.#state = action === 1 ? this.#state + 1 : Math.max(0, this.#state - 1);
    const terminated = this.#state === this.#length - 1;
    return {
      observation: this.#observe(),
      reward: terminated ? 1 : 0,
      terminated,
      truncated: !terminated && this.#steps >= 4 * this.#length,
    };
  }

  #observe(): Observation {
    this.#vector.fill(0);
    this.#vector[this.#state] = 1;
    return this.#vector;
  }
}
