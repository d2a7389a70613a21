import type { ReplayPool } from '@ftw/replay-pool';
import type { EliteSelector } from './ftw-updater.js';
import type { Policy } from './policy.js';
import { trajectoryImportanceWeights } from './trajectory-importance-weights.js';

/** Importance weighting of FTW's elite counts or the baselines' episodes: none, or truncated at c > 0. */
export type IsWeighting = { readonly kind: 'none' } | { readonly kind: 'truncate'; readonly cap: number };

/** Importance diagnostics of the last selection, against the current policy π_θ, and its staleness. */
export interface SelectionWeights {
  /** Count-weighted mean of log w(τ) over the selected elites. */
  readonly logWeightMean: number;
  /** Smallest and largest log w(τ) among them. */
  readonly logWeightMin: number;
  readonly logWeightMax: number;
  /**
   * Effective sample size of the selection as a share of Σ m: (Σ m w)² / (Σ m · Σ m w²) with m the
   * selection counts, in (0, 1]; 1 when every selected trajectory has the same weight (on-policy).
   */
  readonly essShare: number;
  /**
   * Mean age in policy versions of the selected trajectories, repeats included: Σ m (v − v_min(τ)) / Σ m
   * with v the learner's version and v_min(τ) the oldest version among τ's steps. The selection's own
   * counts m, whatever `truncate:c` then hands the updater (whose figures weigh by m·min(w, c)).
   */
  readonly selectionStaleness: number;
}

/**
 * Wraps an elite selector: after each selection it computes the importance weights of the selected
 * trajectories against the current policy, w(τ) = Π_t π_θ(a_t | o_t) / q_{v_t}(a_t | o_t) with the
 * behaviour log-probabilities recorded per step (so per-step policy versions are honoured), with
 * `trajectoryImportanceWeights` (which calls `@ftw/objective`'s `importanceWeights`), records {@link SelectionWeights} (with the
 * selection's staleness, by its counts m), and with `truncate:c` hands
 * the updater counts m·min(w, c) instead of m.
 *
 * @param select - the selector to wrap
 * @param policy - the policy being trained (its current parameters are π_θ)
 * @param weighting - none, or truncation at c
 * @returns the wrapped selector and a getter of the last diagnostics (null before any selection)
 */
export function weightedSelector(
  select: EliteSelector,
  policy: Policy,
  weighting: IsWeighting,
): { select: EliteSelector; last: () => SelectionWeights | null } {
  let last: SelectionWeights | null = null;
  const wrapped = (pool: ReplayPool, version: number) => {
    const choice = select(pool, version);
    last = null;
    if (choice === null || choice.size === 0) return choice;
    const size = choice.size;
    const cap = weighting.kind === 'truncate' ? weighting.cap : 1;
    const { weights } = trajectoryImportanceWeights(policy, size, (i) => pool.at(choice.positions[i]!), cap);
    let maxLog = Number.NEGATIVE_INFINITY;
    let minLog = Number.POSITIVE_INFINITY;
    let total = 0;
    let logSum = 0;
    let ageSum = 0;
    for (let i = 0; i < size; i++) {
      const l = weights.logWeights[i]!;
      ageSum += choice.counts[i]! * (version - pool.columnsAt(choice.positions[i]!).minVersion);
      if (l > maxLog) maxLog = l;
      if (l < minLog) minLog = l;
      total += choice.counts[i]!;
      logSum += choice.counts[i]! * l;
    }
    // ESS with multiplicities, relative to the largest weight so nothing overflows.
    let s1 = 0;
    let s2 = 0;
    for (let i = 0; i < size; i++) {
      const r = Math.exp(weights.logWeights[i]! - maxLog);
      s1 += choice.counts[i]! * r;
      s2 += choice.counts[i]! * r * r;
    }
    last = {
      logWeightMean: total > 0 ? logSum / total : 0,
      logWeightMin: minLog,
      logWeightMax: maxLog,
      essShare: total > 0 && s2 > 0 ? (s1 * s1) / (total * s2) : 1,
      selectionStaleness: total > 0 ? ageSum / total : 0,
    };
    if (weighting.kind === 'none') return choice;
    const counts = new Float64Array(size);
    for (let i = 0; i < size; i++) counts[i] = choice.counts[i]! * weights.truncatedWeights[i]!;
    return { positions: choice.positions, counts, size };
  };
  return { select: wrapped, last: () => last };
}
