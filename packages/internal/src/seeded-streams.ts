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

/** The streams of one more environment instance stepped in lockstep (see {@link laneStreams}). */
export interface LaneStreams {
  /** Uniform on [0, 1) for the instance's actions. */
  readonly policy: () => number;
  /** Uniform on [0, 1) for the instance's own environment draws (a level per episode). */
  readonly environment: () => number;
}

/**
 * Streams beyond {@link seededStreams} for the same seed, on the same generator further jumped, so none
 * overlaps another or the policy and selection streams: `network()` for a network's initial weights
 * (three jumps ahead), and per further environment instance j ≥ 1 its action and environment streams
 * (2j + 2 and 2j + 3 jumps ahead). Instance 0 draws from `seededStreams(seed).policy` and the environment's
 * own seed, so a run with one instance is the run without lanes.
 *
 * @param seed - integer in [0, 2^31 − 1] (validated by the CLI)
 * @returns `network()` and `lane(j)`
 * @example
 * ```ts
 * const extra = laneStreams(0);
 * extra.lane(1).policy(); // instance 1's first action draw
 * ```
 */
export function laneStreams(seed: number): {
  readonly network: () => number;
  readonly lane: (j: number) => LaneStreams;
} {
  const ahead = (jumps: number): (() => number) => {
    const generator = xoroshiro128plus(seed);
    for (let k = 0; k < jumps; k++) generator.jump();
    return () => uniformFloat64(generator);
  };
  return {
    network: ahead(3),
    lane: (j) => {
      if (!Number.isInteger(j) || j < 1) throw new RangeError(`lane must be an integer >= 1, got ${j}`);
      return { policy: ahead(2 * j + 2), environment: ahead(2 * j + 3) };
    },
  };
}
