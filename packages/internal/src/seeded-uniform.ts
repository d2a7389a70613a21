import { xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import { checkSeed } from './check-value.js';

/** A source of uniform numbers on [0, 1), such as the one {@link seededUniform} returns. */
export type UniformRandom = () => number;

const MASK_64 = 0xffff_ffff_ffff_ffffn;
/** SplitMix64's increment, the odd integer nearest 2^64 / φ (Steele, Lea and Flood 2014). */
const GOLDEN_GAMMA = 0x9e37_79b9_7f4a_7c15n;
/** 2^26: shifts the first 27-bit draw above the second 26-bit draw. */
const TWO_POW_26 = 67_108_864;
/** 2^-53: one unit in the last place of a uniform on [0, 1) with 53 random bits. */
const TWO_POW_MINUS_53 = 1.1102230246251565e-16;

function splitMix64(state: bigint): bigint {
  let z = state;
  z = ((z ^ (z >> 30n)) * 0xbf58_476d_1ce4_e5b9n) & MASK_64;
  z = ((z ^ (z >> 27n)) * 0x94d0_49bb_1331_11ebn) & MASK_64;
  return z ^ (z >> 31n);
}

function high32(word: bigint): number {
  return Number(BigInt.asIntN(32, word >> 32n));
}

function low32(word: bigint): number {
  return Number(BigInt.asIntN(32, word));
}

/**
 * A seeded uniform generator on [0, 1) backed by pure-rand's xoroshiro128+, the packages' default source
 * of randomness (shared by `@ftw/bandit` and `@ftw/sokoban`, which re-export it, so one seed gives one stream
 * in both). The same seed gives the same numbers, bit for bit, on every platform.
 *
 * Method. The 128-bit state (s0, s1) is filled with the first two outputs of SplitMix64 started at
 * `seed`, as Vigna recommends for the xoroshiro family; seeding the state directly with the seed (as
 * `xoroshiro128plus(seed)` does) leaves nearby seeds with nearly equal first outputs (every small seed
 * starts with a uniform above 0.9999). Each uniform then takes two consecutive 32-bit outputs a and b of
 * the generator (the low half of the 64-bit sum s0 + s1) and keeps their upper bits, dropping the
 * low-linear-complexity lowest bits of xoroshiro128+:
 *
 * u = ((a >>> 5) · 2^26 + (b >>> 6)) · 2^-53,
 *
 * a multiple of 2^-53 in [0, 1 − 2^-53], all 2^53 values equally likely.
 *
 * References: D. Blackman and S. Vigna, "Scrambled linear pseudorandom number generators", ACM TOMS 47
 * (2021); G. Steele, D. Lea and C. Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014;
 * M. Matsumoto's `genrand_res53` for the 27 + 26 bit construction.
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
  checkSeed(seed, 'seed');
  const first = (BigInt.asUintN(64, BigInt(seed)) + GOLDEN_GAMMA) & MASK_64;
  const second = (first + GOLDEN_GAMMA) & MASK_64;
  const s0 = splitMix64(first);
  const s1 = splitMix64(second);
  // pure-rand keeps each 64-bit word as [high, low] 32-bit halves: state = [s0.hi, s0.lo, s1.hi, s1.lo].
  const generator = xoroshiro128plusFromState([high32(s0), low32(s0), high32(s1), low32(s1)]);
  return () => {
    const a = generator.next() >>> 5;
    const b = generator.next() >>> 6;
    return (a * TWO_POW_26 + b) * TWO_POW_MINUS_53;
  };
}
