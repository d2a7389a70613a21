/**
 * The largest magnitude the package accepts for logits, log-probabilities, β, ε, weights, counts,
 * rewards, returns and advantages: `1e50`.
 *
 * Derivation: every quantity the kernels form is a product of at most four such numbers or differences
 * of two of them (each at most `2e50` in magnitude, so the product is at most `1.6e201`), or a sum of up
 * to `2^53 ≈ 9e15` such products (at most `1.5e217`). All stay far below `Number.MAX_VALUE ≈ 1.8e308`,
 * so no intermediate overflows to `Infinity` and no `0 · ∞ = NaN` can arise. The only exponentials of
 * unbounded arguments are importance ratios, which the functions that form them handle explicitly.
 * Far smaller logits already give exactly deterministic rows (a gap of 746 makes `exp` underflow to 0),
 * so the bound costs nothing in practice; mask an action with a large finite negative logit (say
 * `-1e4`) rather than `-Infinity`.
 *
 * @example
 * ```ts
 * console.log(MAX_MAGNITUDE);
 * // 1e+50
 * ```
 */
export const MAX_MAGNITUDE = 1e50;
