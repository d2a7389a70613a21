import { describeValue } from '@ftw/internal';
import { checkedUniform } from './checked-uniform.js';
import { keepProbability } from './keep-probability.js';
import { checkInteger, isArrayLike } from './validate.js';
import { checkProbability } from './validate-probability.js';

/** What {@link difficultyFilter} returns. */
export interface DifficultyFilterResult {
  /** Indices (ascending) of the tasks kept: those with 0 < successes < n. */
  readonly kept: number[];
  /** Successes of each task in its n probes. */
  readonly successes: Int32Array;
  /** Expected number of kept tasks, Σ_i keepProbability(p_i, n). */
  readonly expectedKept: number;
}

/**
 * The research note's difficulty filter over a task suite: probe each task n times (task i succeeds with
 * probability p_i, decided by `U < p_i` with one uniform per probe, tasks in order) and keep the tasks
 * with 0 < successes < n, dropping those always failed (too hard, or unlearnable for now) and always
 * solved (too easy). Task i is kept with probability {@link keepProbability}(p_i, n).
 *
 * @param taskSuite - success probability of each task, in [0, 1]; may be empty
 * @param n - probes per task, an integer ≥ 1
 * @param random - uniform generator on [0, 1), such as {@link seededUniform}; each draw is checked
 * @returns the kept indices, the success counts and the expected number kept
 * @throws TypeError/RangeError naming `taskSuite`, an entry `taskSuite[i]`, `n` or `random` when invalid,
 *   before any draw
 *
 * @example
 * ```ts
 * const result = difficultyFilter([0, 0.5, 1], 8, seededUniform(1));
 * console.log(result.kept.includes(0), result.kept.includes(2), result.expectedKept);
 * // false false 0.9921875
 * ```
 */
export function difficultyFilter(
  taskSuite: ArrayLike<number>,
  n: number,
  random: () => number,
): DifficultyFilterResult {
  if (!isArrayLike(taskSuite)) {
    throw new TypeError(
      `taskSuite must be an array of success probabilities, got ${describeValue(taskSuite)}`,
    );
  }
  const probabilities = Float64Array.from(taskSuite, (p, i) => checkProbability(p, `taskSuite[${i}]`));
  checkInteger(n, 'n', 1, Number.MAX_SAFE_INTEGER);
  const uniform = checkedUniform(random, 'random');
  const successes = new Int32Array(probabilities.length);
  const kept: number[] = [];
  let expectedKept = 0;
  for (let i = 0; i < probabilities.length; i++) {
    const p = probabilities[i]!;
    let count = 0;
    for (let probe = 0; probe < n; probe++) if (uniform() < p) count++;
    successes[i] = count;
    if (count > 0 && count < n) kept.push(i);
    expectedKept += keepProbability(p, n);
  }
  return { kept, successes, expectedKept };
}
