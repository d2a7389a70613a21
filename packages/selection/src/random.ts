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

/**
 * Gives a `() => number` uniform on [0, 1) that throws a RangeError, naming `random`, as soon as the
 * source yields a value outside [0, 1) (or NaN), so that a broken source cannot silently bias a selection.
 * @throws TypeError when `random` is neither a function nor an object with a `next()` method.
 */
export function toUniform(random: unknown): () => number {
  let draw: () => number;
  if (typeof random === 'function') {
    draw = random as () => number;
  } else if (
    random !== null &&
    typeof random === 'object' &&
    typeof (random as IntegerGenerator).next === 'function'
  ) {
    const generator = random as IntegerGenerator;
    // 53 random bits from two 32-bit outputs: the top 27 bits of one and the top 26 of the other.
    draw = () => {
      const high = generator.next();
      const low = generator.next();
      if (typeof high !== 'number' || typeof low !== 'number') {
        throw new TypeError('random.next() must return a number (a pure-rand >= 7 generator)');
      }
      return ((high >>> 5) * TWO_POW_26 + (low >>> 6)) / TWO_POW_53;
    };
  } else {
    throw new TypeError(
      `random must be a function returning numbers in [0, 1) or a generator with next(), got ${String(random)}`,
    );
  }
  return () => {
    const u = draw();
    if (!(u >= 0 && u < 1)) throw new RangeError(`random must return numbers in [0, 1), got ${String(u)}`);
    return u;
  };
}
