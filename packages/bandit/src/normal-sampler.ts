import { describeValue } from '@ftw/internal';
import type { UniformRandom } from './seeded-uniform.js';

const TWO_PI = 2 * Math.PI;

function checkFunction(random: unknown): void {
  if (typeof random !== 'function')
    throw new TypeError(`random must be a function, got ${describeValue(random)}`);
}

/**
 * Standard normal draws from a uniform source by the Box–Muller transform, keeping the second value of
 * each pair for the next call.
 *
 * Method. With U1, U2 independent uniforms on [0, 1), set V = 1 − U1 ∈ (0, 1] (so the logarithm is
 * finite), R = √(−2 ln V) and Θ = 2π·U2; then Z1 = R·cos Θ and Z2 = R·sin Θ are independent N(0, 1)
 * (R² = −2 ln V is exponential with mean 2, the χ² law with two degrees of freedom, and Θ is uniform and
 * independent of R: the polar coordinates of two independent normals). Exactly two uniforms per pair, so one per normal on average, which keeps the
 * stream position predictable. With 53-bit uniforms the largest |Z| is √(2·53·ln 2) ≈ 8.57, a tail of
 * probability 2^-53.
 *
 * Reproducibility: the uniforms are exact integer arithmetic, identical on every engine; the transform
 * uses `Math.log`, `Math.sin` and `Math.cos`, whose last bit ECMAScript leaves to the engine. V8 computes
 * them with its own port of fdlibm rather than the system's libm, so Node.js gives the same normals on
 * every operating system; another engine may differ in the last bit.
 *
 * The cached second value belongs to the uniform stream it came from: {@link NormalSampler.reset} drops
 * it, which an environment must do whenever it re-seeds, or the first draw after the re-seed would be a
 * leftover of the old stream.
 *
 * Reference: G. E. P. Box and M. E. Muller, "A note on the generation of random normal deviates",
 * Annals of Mathematical Statistics 29 (1958) 610–611.
 *
 * @example
 * ```ts
 * const normal = new NormalSampler(seededUniform(1));
 * const z = normal.next();
 * console.log(Number.isFinite(z));
 * // true
 * ```
 */
export class NormalSampler {
  private random: UniformRandom;
  private cached = 0;
  private hasCached = false;

  /**
   * @param random - uniform source on [0, 1); an injected function is called as is (checking its values
   *   is the caller's business, as {@link GaussianBandit} does)
   * @throws TypeError when `random` is not a function
   */
  constructor(random: UniformRandom) {
    checkFunction(random);
    this.random = random;
  }

  /**
   * Draws one standard normal value.
   *
   * @returns a draw from N(0, 1); consumes two uniforms on every other call and none on the others
   */
  next(): number {
    if (this.hasCached) {
      this.hasCached = false;
      return this.cached;
    }
    const radius = Math.sqrt(-2 * Math.log(1 - this.random()));
    const angle = TWO_PI * this.random();
    this.cached = radius * Math.sin(angle);
    this.hasCached = true;
    return radius * Math.cos(angle);
  }

  /**
   * Forgets the cached second value of the current pair, optionally switching to a new uniform source.
   *
   * @param random - the new uniform source; omitted, the current one is kept
   * @throws TypeError when `random` is given and is not a function
   */
  reset(random?: UniformRandom): void {
    if (random !== undefined) {
      checkFunction(random);
      this.random = random;
    }
    this.hasCached = false;
  }
}
