/** Returns re-expressed as distinct ranks, with the threshold carried over. */
export interface OrderedReturns {
  /** A value per item whose order is the returns' order with ties broken by the rule; all distinct. */
  readonly values: Float64Array;
  /** The threshold on `values` that keeps exactly the items whose return was above the original one. */
  readonly threshold: number | undefined;
}

/**
 * Breaks ties among returns deterministically by age, for the `newest` and `oldest` tie rules.
 *
 * `@ftw/selection` breaks ties uniformly at random (the paper's rule). To prefer the newest (or oldest) of
 * tied trajectories instead, each return is replaced by its rank in the order (return, then age), which
 * keeps every strict comparison between returns and makes all values distinct. A threshold t becomes
 * m − ½, where m is the number of returns ≤ t: those are exactly the m lowest ranks, so eligibility is
 * unchanged.
 *
 * @param returns - returns of the selectable trajectories, oldest first (the pool's order)
 * @param rule - `newest`: a newer trajectory beats an older one with the same return; `oldest`: the reverse
 * @param threshold - elites must have a return strictly above this, or null
 * @returns rank values and the carried-over threshold
 * @example
 * ```ts
 * orderTies(Float64Array.of(1, 0, 1), 'newest', null).values; // Float64Array [1, 0, 2]
 * ```
 */
export function orderTies(
  returns: Float64Array,
  rule: 'newest' | 'oldest',
  threshold: number | null,
): OrderedReturns {
  const n = returns.length;
  const order = Array.from({ length: n }, (_, i) => i);
  const newer = rule === 'newest' ? 1 : -1;
  order.sort((a, b) => returns[a]! - returns[b]! || newer * (a - b));
  const values = new Float64Array(n);
  for (let rank = 0; rank < n; rank++) values[order[rank]!] = rank;
  if (threshold === null) return { values, threshold: undefined };
  let atOrBelow = 0;
  for (let i = 0; i < n; i++) if (returns[i]! <= threshold) atOrBelow++;
  return { values, threshold: atOrBelow - 0.5 };
}
