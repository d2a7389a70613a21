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

/**
 * Re-expresses returns for the `shortest` and `longest` tie rules: each return becomes the rank of its
 * (return, length) pair in the order (return, then shorter first for `shortest`, longer first for
 * `longest`), equal pairs sharing one value, so that a selection with uniformly random ties on the values
 * is the selection by return, then length, then at random. A threshold t becomes m − ½, where m is the
 * number of distinct pairs whose return is ≤ t: those hold exactly the m lowest values. (The reference the
 * samplers' tests compare with; `MinibatchSampler` and `ExpectedSelection` apply the rule directly.)
 *
 * @param returns - returns of the selectable trajectories
 * @param lengths - their episode lengths
 * @param rule - `shortest` or `longest`
 * @param threshold - elites must have a return strictly above this, or null
 * @returns rank values (ties only between equal pairs) and the carried-over threshold
 * @example
 * ```ts
 * orderByLength(Float64Array.of(1, 1, 0, 1), Float64Array.of(4, 2, 3, 4), 'shortest', null).values; // [1, 2, 0, 1]
 * ```
 */
export function orderByLength(
  returns: ArrayLike<number>,
  lengths: ArrayLike<number>,
  rule: 'shortest' | 'longest',
  threshold: number | null,
): OrderedReturns {
  const n = returns.length;
  const longer = rule === 'shortest' ? -1 : 1;
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => returns[a]! - returns[b]! || longer * (lengths[a]! - lengths[b]!));
  const values = new Float64Array(n);
  let rank = -1;
  let atOrBelow = 0;
  for (let k = 0; k < n; k++) {
    const i = order[k]!;
    const previous = k === 0 ? -1 : order[k - 1]!;
    if (k === 0 || returns[i] !== returns[previous] || lengths[i] !== lengths[previous]) {
      rank++;
      if (threshold !== null && returns[i]! <= threshold) atOrBelow++;
    }
    values[i] = rank;
  }
  return { values, threshold: threshold === null ? undefined : atOrBelow - 0.5 };
}
