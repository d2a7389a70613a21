// Test-only environment: a chain of `length` states, the agent starts at 0; action 1 moves right, action 0
// left (not below 0); reaching the last state ends the episode with reward 1; after `limit` steps the
// episode is truncated with return 0. Observations are the state's id, or its one-hot vector.
import type { Environment, EnvironmentStep } from '../src/environment.js';
import type { Observation } from '../src/policy.js';

/** Options of {@link ChainEnv}. */
export interface ChainOptions {
  readonly length: number;
  readonly limit: number;
  /** `id`: the state's index; `one-hot`: a vector of `length` numbers. */
  readonly encoding: 'id' | 'one-hot';
}

/** The chain; counts its resets so tests can check that nothing ran. */
export class ChainEnv implements Environment {
  readonly numActions = 2;
  readonly observationSize: number;
  readonly observationCount?: number;
  resets = 0;
  readonly #options: ChainOptions;
  readonly #vector: Float64Array;
  #state = 0;
  #steps = 0;

  constructor(options: ChainOptions) {
    this.#options = options;
    this.observationSize = options.encoding === 'id' ? 1 : options.length;
    if (options.encoding === 'id') this.observationCount = options.length;
    this.#vector = new Float64Array(options.length);
  }

  reset(): Observation {
    this.resets++;
    this.#state = 0;
    this.#steps = 0;
    return this.#observe();
  }

  step(action: number): EnvironmentStep {
    this.#steps++;
    this.#state = action === 1 ? this.#state + 1 : Math.max(0, this.#state - 1);
    const terminated = this.#state === this.#options.length - 1;
    return {
      observation: this.#observe(),
      reward: terminated ? 1 : 0,
      terminated,
      truncated: !terminated && this.#steps >= this.#options.limit,
    };
  }

  #observe(): Observation {
    if (this.#options.encoding === 'id') return this.#state;
    this.#vector.fill(0);
    this.#vector[this.#state] = 1;
    return this.#vector;
  }
}
