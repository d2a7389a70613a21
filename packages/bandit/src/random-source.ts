import { BanditError } from './bandit-error.js';
import { checkedUniform } from './checked-uniform.js';
import { NormalSampler } from './normal-sampler.js';
import { seededUniform, type UniformRandom } from './seeded-uniform.js';

/**
 * An environment's randomness: a uniform stream and the normal sampler that reads it, re-seeded together
 * so that no cached normal outlives its stream. Internal; not exported from the package.
 */
export class RandomSource {
  uniform: UniformRandom;
  readonly normal: NormalSampler;
  private readonly injected: boolean;

  /**
   * @param seed - seed of the default generator (any safe integer), or `undefined`
   * @param random - an injected uniform function, or `undefined`
   * @throws TypeError when both are given or either is of the wrong kind; RangeError on a bad seed
   */
  constructor(seed: unknown, random: unknown) {
    if (seed !== undefined && random !== undefined) {
      throw new TypeError('seed and random cannot both be given: pass a seed, or inject a random function');
    }
    this.injected = random !== undefined;
    this.uniform = this.injected ? checkedUniform(random, 'random') : seededUniform((seed ?? 0) as number);
    this.normal = new NormalSampler(this.uniform);
  }

  /**
   * Restarts the default generator from `seed` and drops the normal sampler's cached value.
   *
   * @param seed - any safe integer
   * @throws RangeError/TypeError on a bad seed; BanditError `NOT_RESEEDABLE` for an injected source
   */
  reseed(seed: number): void {
    if (this.injected) {
      throw new BanditError(
        'NOT_RESEEDABLE',
        `reset({ seed: ${String(seed)} }) cannot re-seed an injected random function; seed that function yourself, or build the environment with { seed } instead of { random }`,
      );
    }
    const uniform = seededUniform(seed);
    this.uniform = uniform;
    this.normal.reset(uniform);
  }
}
