// Test helpers: a corridor environment whose observations are features (one-hot of the cell, then a
// bias), the linear policy over them, and a seeded uniform stream.
import type { Environment } from '@ftw/trainer';
import { LinearPolicy } from '@ftw/trainer';

/** Cells of the corridor; the reward waits at the last one. */
export const CELLS = 6;
/** Features per observation: one-hot of the cell and a bias. */
export const FEATURES = CELLS + 1;

/** Action 1 steps right, 0 left; reward 1 at the far end; episodes cut after 12 steps. */
export class Corridor implements Environment<Float64Array> {
  readonly numActions = 2;
  readonly observationSize = FEATURES;
  readonly #x = new Float64Array(FEATURES);
  #cell = 0;
  #steps = 0;

  reset(): Float64Array {
    this.#cell = 0;
    this.#steps = 0;
    return this.#observe();
  }

  step(action: number) {
    this.#cell = Math.max(0, this.#cell + (action === 1 ? 1 : -1));
    this.#steps++;
    const terminated = this.#cell === CELLS - 1;
    return {
      observation: this.#observe(),
      reward: terminated ? 1 : 0,
      terminated,
      truncated: !terminated && this.#steps === 12,
    };
  }

  #observe(): Float64Array {
    this.#x.fill(0);
    this.#x[this.#cell] = 1;
    this.#x[CELLS] = 1;
    return this.#x;
  }
}

/** The policy both sides build: z = W x, 2 × 7. */
export const corridorPolicy = (): LinearPolicy => new LinearPolicy(2, FEATURES);

/** A Lehmer generator, uniform on [0, 1). */
export function lehmer(seed: number): () => number {
  let s = (seed % 2147483646) + 1;
  return () => ((s = (s * 48271) % 2147483647) - 1) / 2147483646;
}
