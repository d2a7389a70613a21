/**
 * Exact rational reference for Eq. 5, in BigInt arithmetic: independent of the package's floating-point
 * method, so tests compare against the mathematics, not against the implementation.
 */

/** binom(n, k) as a BigInt (0 outside 0 <= k <= n). */
export function binomial(n: number, k: number): bigint {
  if (k < 0 || n < 0 || k > n) return 0n;
  const kk = Math.min(k, n - k);
  let result = 1n;
  for (let i = 1; i <= kk; i++) result = (result * BigInt(n - kk + i)) / BigInt(i);
  return result;
}

const bitLength = (x: bigint): number => x.toString(2).length;

/** The double nearest num/den (num, den > 0), within half an ulp plus 2^-64 relative. */
export function ratioToNumber(num: bigint, den: bigint): number {
  if (num === 0n) return 0;
  const shift = bitLength(den) - bitLength(num) + 66;
  const q = shift >= 0 ? (num << BigInt(shift)) / den : num / (den << BigInt(-shift));
  const half = Math.floor(shift / 2);
  return Number(q) * 2 ** -half * 2 ** -(shift - half);
}

/**
 * Numerators of Eq. 5 over the common denominator K·binom(n, C): for r = 1..n,
 * numerators[r − 1] = Σ_{k=1..K} binom(r−1, k−1) · binom(n−r, C−k). Built with exact integer ratio
 * updates in r (O(n·K) BigInt operations).
 */
export function occupancyNumerators(n: number, C: number, K: number): bigint[] {
  const out: bigint[] = new Array(n).fill(0n);
  for (let k = 1; k <= K; k++) {
    // head = binom(r−1, k−1), tail = binom(n−r, C−k), updated from r to r + 1.
    let head = k === 1 ? 1n : 0n;
    let tail = binomial(n - 1, C - k);
    for (let r = 1; r <= n; r++) {
      out[r - 1] = out[r - 1]! + head * tail;
      // binom(r, k−1) from binom(r−1, k−1); binom(n−r−1, C−k) from binom(n−r, C−k).
      head = r + 1 < k ? 0n : r + 1 === k ? 1n : (head * BigInt(r)) / BigInt(r - k + 1);
      tail = n - r === 0 ? 0n : (tail * BigInt(n - r - (C - k))) / BigInt(n - r);
    }
  }
  return out;
}

/** Σ_{k=1..K} binom(r−1, k−1) · binom(n−r, C−k) for a single rank r. */
export function occupancyNumerator(n: number, C: number, K: number, r: number): bigint {
  // head = binom(r−1, k−1) and tail = binom(n−r, C−k), stepped in k by exact integer ratios.
  let head = 1n;
  let tail = binomial(n - r, C - 1);
  let total = 0n;
  for (let k = 1; k <= K; k++) {
    total += head * tail;
    if (k === K) break;
    head = (head * BigInt(r - k)) / BigInt(k);
    const b = C - k; // binom(n−r, b − 1) = binom(n−r, b) · b / (n − r − b + 1)
    tail = tail === 0n ? binomial(n - r, b - 1) : (tail * BigInt(b)) / BigInt(n - r - b + 1);
  }
  return total;
}

/** |x − exact| / exact, with exact = num/den given as a BigInt ratio. */
export function relativeError(x: number, num: bigint, den: bigint): number {
  const exact = ratioToNumber(num, den);
  if (exact === 0) return x === 0 ? 0 : Number.POSITIVE_INFINITY;
  return Math.abs(x - exact) / exact;
}
