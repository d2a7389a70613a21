/**
 * A generator object with a `next()` that returns a 32-bit integer and advances in place, as pure-rand's
 * generators do from version 7 on (`xoroshiro128plus(seed)`, `mersenne(seed)`, …).
 */
export interface IntegerGenerator {
  next(): number;
}

/**
 * Where the package takes its randomness from: a function uniform on [0, 1), or a pure-rand generator
 * (two 32-bit outputs make one 53-bit uniform). Never `Math.random` inside the package.
 */
export type RandomSource = (() => number) | IntegerGenerator;

const TWO_POW_26 = 67108864;
const TWO_POW_53 = 9007199254740992;

/** Kept out of the draw closures so that they stay small enough to inline into the sampling loops. */
function outOfRange(u: unknown): never {
  throw new RangeError(`random must return numbers in [0, 1), got ${String(u)}`);
}

/**
 * Gives a `() => number` uniform on [0, 1) from a random source.
 *
 * A function source is checked at every draw: a value outside [0, 1) (or NaN) throws a RangeError naming
 * `random`, so that a broken source cannot silently bias a selection. A generator's 53-bit uniforms lie
 * in [0, 1) by construction; a generator with `clone()` (every pure-rand one) is probed once on a clone,
 * so that an old pure-rand 6 generator, whose `next()` returns a pair, is refused instead of yielding 0s.
 * @throws TypeError when `random` is neither a function nor an object with a `next()` method, or when
 * its `next()` does not return a number.
 */
export function toUniform(random: unknown): () => number {
  if (typeof random === 'function') {
    const draw = random as () => number;
    return () => {
      const u = draw();
      return u >= 0 && u < 1 ? u : outOfRange(u);
    };
  }
  if (
    random !== null &&
    typeof random === 'object' &&
    typeof (random as IntegerGenerator).next === 'function'
  ) {
    const generator = random as IntegerGenerator & { clone?: () => IntegerGenerator };
    if (typeof generator.clone === 'function' && typeof generator.clone().next() !== 'number') {
      throw new TypeError('random.next() must return a number (a pure-rand >= 7 generator)');
    }
    // 53 random bits from two 32-bit outputs: the top 27 bits of one and the top 26 of the other.
    return () => ((generator.next() >>> 5) * TWO_POW_26 + (generator.next() >>> 6)) / TWO_POW_53;
  }
  throw new TypeError(
    `random must be a function returning numbers in [0, 1) or a generator with next(), got ${String(random)}`,
  );
}
