/** How far a policy moved in one update. */
export interface Shift {
  /** Mean over observations of KL(π_before ‖ π_after). */
  readonly meanKl: number;
  /** Max over observations of that KL. */
  readonly maxKl: number;
}

/**
 * KL(π_before ‖ π_after) per observation of a tabular softmax policy, averaged and maximised.
 *
 * @param before - logits before the update, observations × actions
 * @param after - logits after the update
 * @param actions - actions per row
 * @returns mean and max KL
 */
export function policyShift(before: Float64Array, after: Float64Array, actions: number): Shift {
  const rows = before.length / actions;
  let sum = 0;
  let max = 0;
  for (let r = 0; r < rows; r++) {
    const o = r * actions;
    let mb = Number.NEGATIVE_INFINITY;
    let ma = Number.NEGATIVE_INFINITY;
    for (let a = 0; a < actions; a++) {
      mb = Math.max(mb, before[o + a]!);
      ma = Math.max(ma, after[o + a]!);
    }
    let sb = 0;
    let sa = 0;
    for (let a = 0; a < actions; a++) {
      sb += Math.exp(before[o + a]! - mb);
      sa += Math.exp(after[o + a]! - ma);
    }
    const lb = mb + Math.log(sb);
    const la = ma + Math.log(sa);
    let kl = 0;
    for (let a = 0; a < actions; a++) {
      const logP = before[o + a]! - lb;
      kl += Math.exp(logP) * (logP - (after[o + a]! - la));
    }
    kl = Math.max(0, kl);
    sum += kl;
    max = Math.max(max, kl);
  }
  return { meanKl: sum / rows, maxKl: max };
}
