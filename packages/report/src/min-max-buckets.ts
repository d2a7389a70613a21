/**
 * Chooses which points of a curve to draw: the curve is cut into `buckets` runs of consecutive points of
 * (nearly) equal length and, in each, the points holding the minimum and the maximum are kept, in their
 * order, with the first and last finite points always kept. Peaks and dips survive however long the curve
 * is, which plain every-k-th-point thinning does not guarantee; a curve of at most `2 · buckets` points is
 * kept whole.
 *
 * Non-finite values (a metric that is null at an iteration) are never chosen.
 *
 * @param values - the curve's y values, in x order
 * @param buckets - the number of buckets, an integer ≥ 1
 * @returns the kept indices, strictly increasing
 * @throws RangeError when `buckets` is not an integer ≥ 1
 * @example
 * ```ts
 * minMaxBuckets([0, 5, 1, 1, 9, 2, 3, 0], 2); // [0, 1, 4, 7]
 * ```
 */
export function minMaxBuckets(values: ArrayLike<number>, buckets: number): number[] {
  if (!(Number.isInteger(buckets) && buckets >= 1)) {
    throw new RangeError(`buckets must be an integer >= 1, got ${buckets}`);
  }
  const n = values.length;
  const kept: number[] = [];
  if (n <= 2 * buckets) {
    for (let i = 0; i < n; i++) if (Number.isFinite(values[i]!)) kept.push(i);
    return kept;
  }
  let first = -1;
  let last = -1;
  for (let i = 0; i < n; i++) {
    if (Number.isFinite(values[i]!)) {
      if (first < 0) first = i;
      last = i;
    }
  }
  if (first < 0) return kept;
  const push = (i: number): void => {
    if (kept.length === 0 || kept[kept.length - 1]! < i) kept.push(i);
  };
  push(first);
  for (let b = 0; b < buckets; b++) {
    const start = Math.floor((b * n) / buckets);
    const end = Math.floor(((b + 1) * n) / buckets);
    let lo = -1;
    let hi = -1;
    for (let i = start; i < end; i++) {
      const v = values[i]!;
      if (!Number.isFinite(v)) continue;
      if (lo < 0 || v < values[lo]!) lo = i;
      if (hi < 0 || v > values[hi]!) hi = i;
    }
    if (lo < 0) continue;
    push(Math.min(lo, hi));
    push(Math.max(lo, hi));
  }
  push(last);
  return kept;
}
