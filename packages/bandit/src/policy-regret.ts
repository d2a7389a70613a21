import { describeValue } from '@ftw/internal';
import type { ArmTable } from './arm-table.js';
import type { PolicyProbabilities } from './bandit-env.js';
import { checkInteger } from './validate.js';
import { toDistribution } from './validate-probability.js';

function rowRegret(table: ArmTable, row: Float64Array): number {
  // Σ_a π_a (μ* − μ_a): every term is ≥ 0, so the sum is exactly 0 for a policy on optimal arms only.
  let total = 0;
  for (let a = 0; a < row.length; a++) total += row[a]! * (table.bestMean - table.means[a]!);
  return total;
}

function isRowTable(value: unknown): value is ReadonlyArray<ArrayLike<number>> {
  return Array.isArray(value) && value.length > 0 && typeof value[0] === 'object' && value[0] !== null;
}

/**
 * Expected regret per step of a stochastic policy against the oracle that knows the task, for
 * {@link BanditEnv.regret}. Internal; not exported from the package.
 *
 * regret_t(π) = Σ_a π(a) (μ_t* − μ_t(a)); one row and an observation t gives regret_t(row); one row
 * alone gives Σ_t q_t regret_t(row); one row per task gives Σ_t q_t regret_t(rows[t]).
 *
 * @param tables - the tasks
 * @param taskWeights - the task distribution q
 * @param probabilities - one row, or one row per task (unvalidated)
 * @param observation - the task of a single row, or `undefined` (unvalidated)
 * @returns the expected regret, ≥ 0
 * @throws TypeError/RangeError on a malformed row, a wrong number of rows or a bad `observation`
 */
export function policyRegret(
  tables: readonly ArmTable[],
  taskWeights: Float64Array,
  probabilities: PolicyProbabilities,
  observation: number | undefined,
): number {
  const numActions = tables[0]!.means.length;
  if (isRowTable(probabilities)) {
    if (observation !== undefined) {
      throw new TypeError(
        `observation must be omitted when probabilities holds one row per observation, got ${describeValue(observation)}`,
      );
    }
    if (probabilities.length !== tables.length) {
      throw new RangeError(
        `probabilities must hold one row per observation (${tables.length}), got ${probabilities.length} rows`,
      );
    }
    const rows = probabilities.map((row, t) => toDistribution(row, `probabilities[${t}]`, numActions));
    let total = 0;
    for (let t = 0; t < rows.length; t++) total += taskWeights[t]! * rowRegret(tables[t]!, rows[t]!);
    return total;
  }
  const row = toDistribution(probabilities, 'probabilities', numActions);
  if (observation !== undefined) {
    return rowRegret(tables[checkInteger(observation, 'observation', 0, tables.length - 1)]!, row);
  }
  let total = 0;
  for (let t = 0; t < tables.length; t++) total += taskWeights[t]! * rowRegret(tables[t]!, row);
  return total;
}
