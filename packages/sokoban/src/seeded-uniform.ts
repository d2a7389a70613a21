import { seededUniform as sharedSeededUniform } from '@ftw/internal/seeded-uniform';

// A wrapper, not a re-export: tsup bundles @ftw/internal's code into dist/index.js but leaves a re-export's
// declaration as `export … from '@ftw/internal/seeded-uniform'` in dist/index.d.ts, a private package a
// user cannot install (checked: both declaration files then import it).

/** A source of uniform numbers on [0, 1), such as the one {@link seededUniform} returns. */
export type UniformRandom = () => number;

/**
 * A seeded uniform generator on [0, 1): pure-rand's xoroshiro128+ seeded through SplitMix64, each uniform
 * built from the upper bits of two 32-bit outputs, u = ((a >>> 5) · 2^26 + (b >>> 6)) · 2^-53 (all 2^53
 * values equally likely). `@ftw/bandit` and `@ftw/sokoban` share this one implementation (in the private
 * `@ftw/internal`, bundled into each), so one seed gives one stream in both, bit for bit on every platform.
 * The method and its references are documented there.
 *
 * @param seed - any safe integer; negative seeds are taken modulo 2^64
 * @returns a function drawing the next uniform on [0, 1) from its own private state
 * @throws TypeError when `seed` is not a number; RangeError when it is not a safe integer
 *
 * @example
 * ```ts
 * const a = seededUniform(7);
 * const b = seededUniform(7);
 * console.log(a() === b(), a() >= 0 && a() < 1);
 * // true true
 * ```
 */
export function seededUniform(seed: number): UniformRandom {
  return sharedSeededUniform(seed);
}
