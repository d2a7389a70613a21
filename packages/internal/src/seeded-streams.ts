import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/** The runner's independent random streams for one seed. */
export interface SeededStreams {
  /** Uniform on [0, 1) for sampling actions from the policy. */
  readonly policy: () => number;
  /** Uniform on [0, 1) for drawing minibatches and breaking ties in selection. */
  readonly selection: () => number;
  /** The seed handed to the environment's `reset({ seed })`. */
  readonly environment: number;
}

/**
 * Splits one seed into the runner's random streams (the `ftw` CLI's; kept here beside `seededUniform` so
 * that the project's seeded generators, both on pure-rand's xoroshiro128+, live in one place). They are
 * not `seededUniform` streams: every figure of the runner's runs and READMEs was drawn from this
 * construction, and moving it onto `seededUniform` would change every number a run writes.
 *
 * Method: one xoroshiro128+ generator seeded with `seed` (pure-rand's `xoroshiro128plus`); the policy
 * stream starts one `jump()` (2^64 draws) ahead and the selection stream two jumps ahead, so the two never
 * overlap. The jump also mixes the raw seeded state, whose first outputs are nearly equal for nearby seeds.
 * The environment seeds its own generator from `seed` (`@ftw/bandit` expands it with SplitMix64), a
 * different state again. Changing how often one stream is drawn never shifts another, so changing the
 * selection rule leaves the environment's rewards and the policy's draws where they were. Each uniform
 * takes 53 bits from two 32-bit outputs (`uniformFloat64`).
 *
 * @param seed - integer in [0, 2^31 − 1] (validated by the CLI)
 * @returns the streams
 * @example
 * ```ts
 * const s = seededStreams(0);
 * s.policy(); // a number in [0, 1), the same on every machine for seed 0
 * s.environment; // 0
 * ```
 */
export function seededStreams(seed: number): SeededStreams {
  const policyGenerator = xoroshiro128plus(seed);
  policyGenerator.jump();
  const selectionGenerator = policyGenerator.clone();
  selectionGenerator.jump();
  return {
    policy: () => uniformFloat64(policyGenerator),
    selection: () => uniformFloat64(selectionGenerator),
    environment: seed,
  };
}
