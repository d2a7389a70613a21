import { type ImportanceWeightsResult, importanceWeights } from '@ftw/objective';
import { ActionDistribution } from './action-distribution.js';
import type { Policy } from './policy.js';

/** The steps of one trajectory as {@link trajectoryImportanceWeights} reads them (an `Episode`, a pool entry). */
export interface WeightedTrajectory {
  readonly length: number;
  /** Observations, `policy.observationSize` numbers per step; required (a pool entry pushed without observations cannot be weighted). */
  readonly observations?: ArrayLike<number> | undefined;
  readonly actions: ArrayLike<number>;
  /** Behaviour log-probability log q_{v_t}(a_t | o_t) recorded when the step was taken. */
  readonly logProbs: ArrayLike<number>;
}

/** What {@link trajectoryImportanceWeights} returns. */
export interface TrajectoryWeights {
  /** `@ftw/objective`'s weights: log w(τ), truncated weights min(w(τ), c), ESS. */
  readonly weights: ImportanceWeightsResult;
  /** log π_θ(a_t | o_t) under the current policy, every trajectory's steps concatenated in order. */
  readonly currentLogProbs: Float64Array;
}

/**
 * The trajectory importance weights of trajectories against the current policy π_θ, the one place where
 * the trainer computes them (FTW's weighted selection and the baselines' truncation both call it):
 *
 *     log w(τ) = Σ_t (log π_θ(a_t | o_t) − log q_{v_t}(a_t | o_t)),    w̄(τ) = min(w(τ), c)
 *
 * Method: log π_θ(a_t | o_t) per step through {@link ActionDistribution} (log-softmax of the policy's
 * current logits), then `@ftw/objective`'s `importanceWeights`, which sums in log space and truncates as
 * exp(min(log w, log c)), so no weight overflows. The behaviour log-probability of each step is the one
 * recorded with it, so trajectories whose steps come from several policy versions v_t are weighted
 * exactly (the research note's mixed-version case). Reference: the design notes, "Mixed-version
 * trajectories and trust regions".
 *
 * @param policy - the policy being trained; its current parameters are π_θ (a tabular policy may grow
 *   rows for observations it had not met)
 * @param count - number of trajectories, ≥ 1
 * @param trajectory - the i-th trajectory, for i in [0, count) (called twice per trajectory)
 * @param cap - truncation c > 0
 * @returns the weights and the current log-probabilities per step
 * @throws Error if a trajectory has no observations
 * @throws RangeError from `importanceWeights` (no trajectories, a log-probability out of range, a bad cap)
 * @example
 * ```ts
 * const policy = new TabularPolicy(2, 1); // uniform: log π = log 0.5
 * const episode = { length: 1, observations: [0], actions: [1], logProbs: [Math.log(0.25)] };
 * const { weights } = trajectoryImportanceWeights(policy, 1, () => episode, 1.5);
 * Math.exp(weights.logWeights[0]!); // 2 (0.5 / 0.25)
 * weights.truncatedWeights[0]; // 1.5
 * ```
 */
export function trajectoryImportanceWeights(
  policy: Policy,
  count: number,
  trajectory: (i: number) => WeightedTrajectory,
  cap: number,
): TrajectoryWeights {
  const distribution = new ActionDistribution(policy.numActions);
  const lengths = new Float64Array(count);
  let steps = 0;
  for (let i = 0; i < count; i++) {
    lengths[i] = trajectory(i).length;
    steps += lengths[i]!;
  }
  const current = new Float64Array(steps);
  const behaviour = new Float64Array(steps);
  const d = policy.observationSize;
  const stepRow = new Float64Array(d);
  for (let i = 0, row = 0; i < count; i++) {
    const t = trajectory(i);
    const observations = t.observations;
    if (observations === undefined) {
      throw new Error(`trajectory ${i} has no observations: its importance weight cannot be computed`);
    }
    for (let s = 0; s < t.length; s++, row++) {
      let observation: number | Float64Array = observations[s]!;
      if (d !== 1) {
        for (let k = 0; k < d; k++) stepRow[k] = observations[s * d + k]!;
        observation = stepRow;
      }
      current[row] = distribution.of(policy, observation).logProbability(t.actions[s]!);
      behaviour[row] = t.logProbs[s]!;
    }
  }
  const weights = importanceWeights(
    { logProbs: current, behaviourLogProbs: behaviour, lengths },
    { truncation: cap },
  );
  return { weights, currentLogProbs: current };
}
