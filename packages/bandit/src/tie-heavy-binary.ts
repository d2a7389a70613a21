import { describeValue } from '@ftw/internal';
import { BernoulliBandit } from './bernoulli-bandit.js';
import { checkInteger, checkObject } from './validate.js';

/** Options of {@link tieHeavyBinary}. */
export interface TieHeavyBinaryOptions {
  /**
   * Number of arms, an integer ≥ 2.
   * @defaultValue 10
   */
  readonly arms?: number | undefined;
  /**
   * Success probability of the best arm, in (0, 1]; arm a pays with probability maxProbability·(a + 1)/arms.
   * @defaultValue 0.2
   */
  readonly maxProbability?: number | undefined;
  /**
   * Seed of the default generator; any safe integer. Not allowed with `random`.
   * @defaultValue 0
   */
  readonly seed?: number | undefined;
  /**
   * An injected uniform generator on [0, 1) used instead of the default one.
   * @defaultValue undefined (the seeded default generator)
   */
  readonly random?: (() => number) | undefined;
}

/**
 * The tie-heavy binary scenario: many Bernoulli arms with low success probabilities, so that binary
 * returns tie massively and most minibatches of C = 5 hold fewer than K = 3 successes; top-3 selection
 * then keeps failures (the regime of the paper's K = 3, C = 5 Sokoban collapse).
 *
 * Choice: arm a (0-based) succeeds with probability p_a = maxProbability·(a + 1)/arms, evenly spaced up
 * to the best arm, which is the last one (index arms − 1), so a learner biased towards action 0 starts
 * on the worst arm. Defaults: 10 arms, p = 0.02, 0.04, …, 0.20.
 *
 * With the defaults, for a minibatch of C = 5 independent trajectories and S its successes
 * ({@link shortfallProbability}):
 * - uniform policy, p̄ = 0.11: P(S < 3) = (89^5 + 5·11·89^4 + 10·11²·89^3) / 100^5 = 0.9887895194 exactly;
 * - any policy at all (every p_a ≤ 0.2, S is stochastically below Binomial(5, 0.2)):
 *   P(S < 3) ≥ (4^5 + 5·4^4 + 10·4^3) / 5^5 = 2944/3125 = 0.94208,
 * so even the optimal policy fills at least 94% of minibatches' elites with failures.
 *
 * @param options - number of arms, best success probability, and the seed or an injected generator
 * @returns a fresh {@link BernoulliBandit}
 * @throws TypeError/RangeError naming `arms`, `maxProbability`, `seed` or `random` when invalid
 *
 * @example
 * ```ts
 * const env = tieHeavyBinary({ seed: 1 });
 * console.log(env.numActions, env.optimalAction(), env.expectedReward(9), env.expectedReward(0));
 * // 10 9 0.2 0.02
 * console.log(shortfallProbability(0.11, 5, 3).toFixed(10));
 * // 0.9887895194
 * ```
 */
export function tieHeavyBinary(options: TieHeavyBinaryOptions = {}): BernoulliBandit {
  checkObject(options, 'options');
  const arms = checkInteger(options.arms ?? 10, 'arms', 2, Number.MAX_SAFE_INTEGER);
  const maxProbability = options.maxProbability ?? 0.2;
  if (typeof maxProbability !== 'number' || !(maxProbability > 0 && maxProbability <= 1)) {
    const kind = typeof maxProbability === 'number' ? RangeError : TypeError;
    throw new kind(`maxProbability must be a number in (0, 1], got ${describeValue(maxProbability)}`);
  }
  const probabilities = Array.from({ length: arms }, (_, a) => (maxProbability * (a + 1)) / arms);
  return new BernoulliBandit({ probabilities, seed: options.seed, random: options.random });
}
