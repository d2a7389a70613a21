import type { Logits } from './types.js';

/*
 * Row kernels shared by the losses whose gradient is c_i · (π_i − onehot(a_i)) per row: the policy
 * gradient, REINFORCE, PPO and the log-probability chain rule. Internal; not exported from the package.
 */

/**
 * Scalars of the last row, in a typed array so that no double crosses a call boundary boxed:
 * `[lse, 1/S, entropy]` written by {@link rowExp}, and slot 3, the coefficient read by
 * {@link rowSelectedGrad}.
 */
export const rowStats = new Float64Array(4);

/**
 * Stores `e_j = exp(z_j − m)` (m the row maximum, so every exponent is `<= 0`) in `buf[o .. o+actions)`
 * and sets {@link rowStats} to the row's log-sum-exp `m + log S`, `1/S` and entropy
 * `log S − Σ e_j (z_j − m) / S`.
 */
export function rowExp(z: Logits, o: number, actions: number, buf: Float64Array): void {
  const end = o + actions;
  let m = Number.NEGATIVE_INFINITY;
  for (let j = o; j < end; j++) {
    const v = z[j]!;
    if (v > m) m = v;
  }
  let s = 0;
  let sd = 0;
  for (let j = o; j < end; j++) {
    const d = z[j]! - m;
    const e = Math.exp(d);
    buf[j] = e;
    s += e;
    sd += e * d;
  }
  const logS = Math.log(s);
  rowStats[0] = m + logS;
  rowStats[1] = 1 / s;
  rowStats[2] = logS - sd / s;
}

/**
 * Turns the `e_j` left in `grad` by {@link rowExp} into `c · (π_j − [j = a])` with `c = rowStats[3]`,
 * the gradient of `−c · log π_a` with respect to the row's logits.
 */
export function rowSelectedGrad(grad: Float64Array, o: number, actions: number, a: number): void {
  const coef = rowStats[3]!;
  const scale = coef * rowStats[1]!;
  for (let j = o; j < o + actions; j++) grad[j] = grad[j]! * scale;
  grad[o + a] = grad[o + a]! - coef;
}
