import { describeValue } from '@ftw/internal';

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

const TWO_POW_32 = 4294967296;
const TWO_POW_MINUS_32 = 1 / TWO_POW_32;
const EXACT_PRODUCT_BOUND = 2 ** 21;

/**
 * Throws the error for a value of a `() => number` source outside [0, 1) (internal). Kept out of
 * {@link IndexSource.index} so that it stays small enough to inline into the sampling loops.
 * @throws RangeError naming `random` and the value, always.
 */
export function outOfRange(u: unknown): never {
  throw new RangeError(`random must return numbers in [0, 1), got ${describeValue(u)}`);
}

/**
 * Draws integers uniformly from 0..bound−1 (1 <= bound <= 2^32) from a random source: the only kind of
 * randomness the samplers need. Build one with {@link toIndexSource}.
 *
 * A function source gives floor(u · bound) and is checked at every draw: a value outside [0, 1) (or NaN)
 * throws a RangeError naming `random`, so that a broken source cannot silently bias a selection. A
 * generator gives an exactly uniform integer from one 32-bit output by Lemire's multiply-and-reject method
 * ("Fast random integer generation in an interval", ACM TOMACS 2019), half the generator calls of a
 * 53-bit uniform.
 *
 * One class for both kinds, with the kind tested inside `index`, keeps every call site of `index`
 * monomorphic, so the JIT inlines it into the sampling loops whichever sources a process mixes.
 */
export class IndexSource {
  readonly #random: (() => number) | null;
  readonly #generator: IntegerGenerator | null;

  /** @internal Use {@link toIndexSource}, which checks the source. */
  constructor(random: (() => number) | null, generator: IntegerGenerator | null) {
    this.#random = random;
    this.#generator = generator;
  }

  /**
   * The `() => number` source, or null for a generator (internal): a loop that draws many indices can
   * call it directly, giving what {@link IndexSource.index} gives, floor(u · bound) after checking u.
   */
  get uniform(): (() => number) | null {
    return this.#random;
  }

  /** An integer uniform on 0..bound−1. */
  index(bound: number): number {
    const random = this.#random;
    if (random !== null) {
      const u = random();
      // u · bound < bound <= 2^32 after rounding too, so >>> 0 is its floor (cheaper than Math.floor).
      return u >= 0 && u < 1 ? (u * bound) >>> 0 : outOfRange(u);
    }
    const generator = this.#generator!;
    // x · bound as the 64-bit (high, low) pair; high is uniform on 0..bound−1 once low clears the
    // rejection zone of (2^32 − bound) mod bound values, which only a low below bound can be in.
    let x = generator.next() >>> 0;
    let low = Math.imul(x, bound) >>> 0;
    if (low < bound) {
      const zone = (TWO_POW_32 - bound) % bound;
      while (low < zone) {
        x = generator.next() >>> 0;
        low = Math.imul(x, bound) >>> 0;
      }
    }
    // Up to 2^21 the product x · bound < 2^53 is exact as a double.
    return bound <= EXACT_PRODUCT_BOUND ? (x * bound * TWO_POW_MINUS_32) >>> 0 : highWord(x, bound);
  }
}

/**
 * Checks a random source and wraps it in an {@link IndexSource}. A generator with `clone()` (every
 * pure-rand one) is probed once on a clone, so that an old pure-rand 6 generator, whose `next()` returns
 * a pair, is refused instead of yielding 0s.
 * @throws TypeError when `random` is neither a function nor an object with a `next()` method, or when
 * its `next()` does not return a number.
 */
export function toIndexSource(random: unknown): IndexSource {
  if (random === lastRandom) return lastSource!;
  const source = checkedIndexSource(random);
  lastRandom = random;
  lastSource = source;
  return source;
}

/**
 * The last source checked and its wrapper: an IndexSource holds no state of its own, so a loop that
 * passes the same function or generator on every call gets the same wrapper back, without a new object
 * or a new probe of the generator per call.
 */
let lastRandom: unknown = Symbol('none');
let lastSource: IndexSource | null = null;

function checkedIndexSource(random: unknown): IndexSource {
  if (typeof random === 'function') return new IndexSource(random as () => number, null);
  if (
    random !== null &&
    typeof random === 'object' &&
    typeof (random as IntegerGenerator).next === 'function'
  ) {
    const generator = random as IntegerGenerator & { clone?: () => IntegerGenerator };
    if (typeof generator.clone === 'function' && typeof generator.clone().next() !== 'number') {
      throw new TypeError('random.next() must return a number (a pure-rand >= 7 generator)');
    }
    return new IndexSource(null, generator);
  }
  throw new TypeError(
    `random must be a function returning numbers in [0, 1) or a generator with next(), got ${describeValue(random)}`,
  );
}

/** floor(x · y / 2^32) exactly, for 32-bit unsigned x and y (the partial products stay below 2^53). */
function highWord(x: number, y: number): number {
  const upper = (x >>> 16) * y;
  const lower = (x & 0xffff) * y;
  return Math.floor((upper + Math.floor(lower / 65536)) / 65536);
}
