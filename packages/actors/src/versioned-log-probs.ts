import { ActionDistribution, type Policy } from '@ftw/trainer';

/**
 * The behaviour log-probabilities of a trajectory's steps recomputed from the versions that acted:
 * log q_{v_t}(a_t | o_t) = z_{a_t} − logsumexp(z) with z the policy's logits at θ of version v_t. Beside
 * the recorded ones, it audits what actors logged; with the current policy's log-probabilities it gives the
 * trajectory importance weight log w(τ) = Σ_t log π_θ(a_t | o_t) − log q_{v_t}(a_t | o_t) (the research
 * note's mixed-version case; `@ftw/trainer`'s `trajectoryImportanceWeights` computes it from the recorded
 * values).
 *
 * @param policy - a policy of the run's architecture (only `logits` at given θ is used)
 * @param trajectory - steps: observations (`policy.observationSize` numbers each), actions, versions
 * @param thetaOf - θ of a version (e.g. read back from the pool as each version was published)
 * @returns log q_{v_t}(a_t | o_t) per step
 * @throws RangeError when `thetaOf` has no θ for a step's version; TrainerError `NON_FINITE_LOGITS`
 * @example
 * ```ts
 * const logQ = versionedLogProbs(policy, { length: 2, observations, actions, versions: [3, 4] }, (v) => history.get(v));
 * ```
 */
export function versionedLogProbs(
  policy: Policy,
  trajectory: {
    readonly length: number;
    readonly observations: ArrayLike<number>;
    readonly actions: ArrayLike<number>;
    readonly versions: ArrayLike<number>;
  },
  thetaOf: (version: number) => Float64Array | undefined,
): Float64Array {
  const d = policy.observationSize;
  const distribution = new ActionDistribution(policy.numActions);
  const row = new Float64Array(d);
  const out = new Float64Array(trajectory.length);
  for (let t = 0; t < trajectory.length; t++) {
    const version = trajectory.versions[t]!;
    const theta = thetaOf(version);
    if (theta === undefined) throw new RangeError(`thetaOf(${version}) gave no θ for step ${t}`);
    for (let k = 0; k < d; k++) row[k] = trajectory.observations[t * d + k]!;
    out[t] = distribution.of(policy, row, theta).logProbability(trajectory.actions[t]!);
  }
  return out;
}
