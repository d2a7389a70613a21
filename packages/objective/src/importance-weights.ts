import { describeValue } from '@ftw/internal';
import { MAX_MAGNITUDE } from './max-magnitude.js';
import { assertLogProbArray, nonNegativeError, outBuffer } from './validate.js';

/** Input of {@link importanceWeights}: per-step log-probabilities of the taken actions. */
export interface ImportanceWeightsInput {
  /** `log π_θ(a_t | h_t)` under the current policy, all trajectories' steps concatenated. */
  logProbs: ArrayLike<number>;
  /** `log q_{v_t}(a_t | h_t)` recorded when the step was taken (its own policy version per step). */
  behaviourLogProbs: ArrayLike<number>;
  /** Steps per trajectory, integers `>= 0` summing to the number of steps. */
  lengths: ArrayLike<number>;
}

/** Options of {@link importanceWeights}. */
export interface ImportanceWeightsOptions {
  /**
   * Cap c of the truncated weights `min(w, c)`, `> 0`.
   * @defaultValue 1
   */
  truncation?: number;
}

/** Result of {@link importanceWeights}. */
export interface ImportanceWeightsResult {
  /** `log w(τ)` per trajectory. */
  logWeights: Float64Array;
  /** Self-normalised weights `w(τ) / Σ w`, summing to one. */
  normalizedWeights: Float64Array;
  /** Truncated weights `min(w(τ), c)`. */
  truncatedWeights: Float64Array;
  /** Effective sample size `(Σ w)² / Σ w²`, in `[1, n]`. */
  ess: number;
  /** Effective sample size of the truncated weights, in `[1, n]`. */
  truncatedEss: number;
}

/** Output buffers of {@link importanceWeights}; when given it is filled and returned. */
export interface ImportanceWeightsOut {
  logWeights?: Float64Array;
  normalizedWeights?: Float64Array;
  truncatedWeights?: Float64Array;
  ess?: number;
  truncatedEss?: number;
}

/**
 * Trajectory importance weights of mixed-version trajectories, computed in log space, with their
 * effective sample size and a truncated variant: a diagnostic of how off-policy a batch is.
 *
 * Equation, for trajectory τ whose step t was produced by policy version v_t:
 *
 *     log w(τ) = Σ_t (log π_θ(a_t | h_t) − log q_{v_t}(a_t | h_t))
 *     ESS = (Σ_τ w(τ))² / Σ_τ w(τ)²,    truncated: w̄(τ) = min(w(τ), c)
 *
 * Method: the ESS and the normalised weights use `w(τ) / max w`, i.e. `exp(log w − max log w)`, so
 * they are exact whatever the scale (a log-weight of ±1e4 is fine); the truncated weights are
 * `exp(min(log w, log c))`, which cannot overflow (they underflow to 0 below `log w ≈ −745`, while
 * their ESS is again computed relative to their maximum). ESS is 1 when one trajectory dominates and n when
 * all weights are equal. Reference: A. Kong, "A note on importance sampling using standardized
 * weights" (1992) for the ESS; the design notes, section "Mixed-version trajectories and trust regions".
 *
 * @param input - current and behaviour log-probabilities per step, and trajectory lengths
 * @param options - truncation cap
 * @param out - optional output object reused across calls
 * @returns log-weights, normalised and truncated weights, and both ESS (`out` itself when given)
 * @throws TypeError if an input is not array-like or an `out` buffer is not a Float64Array of the right
 *   length
 * @throws RangeError if there are no trajectories, a length is not a non-negative integer, the lengths
 *   do not sum to the number of steps, a log-probability is not in `[−1e50, 0]`, or the cap is not
 *   positive and finite
 * @example
 * ```ts
 * const r = importanceWeights({
 *   logProbs: [Math.log(0.5), Math.log(0.5), Math.log(0.2)],
 *   behaviourLogProbs: [Math.log(0.25), Math.log(0.5), Math.log(0.4)],
 *   lengths: [2, 1],
 * });
 * console.log(Array.from(r.logWeights, Math.exp), r.ess);
 * // [ 2, 0.5 ] 1.4705882352941178
 * ```
 */
export function importanceWeights(
  input: ImportanceWeightsInput,
  options?: ImportanceWeightsOptions,
  out?: ImportanceWeightsOut,
): ImportanceWeightsResult {
  if (typeof input !== 'object' || input === null) {
    throw new TypeError(`input must be an object, got ${describeValue(input)}`);
  }
  const lengths = input.lengths;
  if (
    typeof lengths !== 'object' ||
    lengths === null ||
    typeof lengths.length !== 'number' ||
    lengths.length < 1
  ) {
    throw new RangeError(
      `lengths must be a non-empty array of steps per trajectory, got ${describeValue(lengths)}`,
    );
  }
  const n = lengths.length;
  let steps = 0;
  for (let k = 0; k < n; k++) {
    const len = lengths[k];
    if (typeof len !== 'number' || !Number.isInteger(len) || len < 0) {
      throw new RangeError(`lengths[${k}] must be an integer >= 0, got ${describeValue(len)}`);
    }
    steps += len;
  }
  const lp = assertLogProbArray('logProbs', input.logProbs, steps, 'the sum of lengths');
  const lq = assertLogProbArray('behaviourLogProbs', input.behaviourLogProbs, steps, 'the sum of lengths');
  const cap = options?.truncation ?? 1;
  if (typeof cap !== 'number' || !(cap >= 0 && cap <= MAX_MAGNITUDE))
    throw nonNegativeError('options.truncation', cap);
  if (cap === 0) throw new RangeError('options.truncation must be > 0, got 0');
  const logCap = Math.log(cap);
  const logWeights = outBuffer('out.logWeights', out?.logWeights, n);
  const normalized = outBuffer('out.normalizedWeights', out?.normalizedWeights, n);
  const truncated = outBuffer('out.truncatedWeights', out?.truncatedWeights, n);

  let maxLog = Number.NEGATIVE_INFINITY;
  for (let k = 0, t = 0; k < n; k++) {
    let s = 0;
    for (const end = t + lengths[k]!; t < end; t++) s += lp[t]! - lq[t]!;
    logWeights[k] = s;
    if (s > maxLog) maxLog = s;
  }
  // Both ESS are scale-free, so each is computed from weights divided by their maximum.
  const maxTruncatedLog = Math.min(maxLog, logCap);
  let sum = 0;
  let sumSq = 0;
  let tSum = 0;
  let tSumSq = 0;
  for (let k = 0; k < n; k++) {
    const lw = logWeights[k]!;
    const r = Math.exp(lw - maxLog);
    normalized[k] = r;
    sum += r;
    sumSq += r * r;
    const tl = Math.min(lw, logCap);
    truncated[k] = Math.exp(tl);
    const tr = Math.exp(tl - maxTruncatedLog);
    tSum += tr;
    tSumSq += tr * tr;
  }
  for (let k = 0; k < n; k++) normalized[k] = normalized[k]! / sum;
  // Our own results are built whole, so these stores see only the caller's `out`: a loop that reuses one
  // `out` keeps them monomorphic, and V8 then updates the numbers in place instead of boxing them.
  if (out === undefined)
    return {
      logWeights,
      normalizedWeights: normalized,
      truncatedWeights: truncated,
      ess: (sum * sum) / sumSq,
      truncatedEss: (tSum * tSum) / tSumSq,
    };
  out.logWeights = logWeights;
  out.normalizedWeights = normalized;
  out.truncatedWeights = truncated;
  out.ess = (sum * sum) / sumSq;
  out.truncatedEss = (tSum * tSum) / tSumSq;
  return out as ImportanceWeightsResult;
}
