import type { Logits } from './types.js';

/** True when `values[a .. a + count)` and `values[b .. b + count)` hold equal numbers. */
function sameRow(values: Logits, a: number, b: number, count: number): boolean {
  for (let k = 0; k < count; k++) if (values[a + k] !== values[b + k]) return false;
  return true;
}

/**
 * The row loop of {@link ftwLoss} on validated input. Internal; not exported from the package.
 *
 * Per row it makes three passes over the logits and calls `Math.exp` once per element (plus one more per
 * element for a per-row reference and one for a non-uniform reference with forward KL):
 *
 * 1. the row maximum `m` (max-subtraction keeps every exponent `<= 0`), found by the caller in the pass
 *    that validates the logits and passed in `maxima`;
 * 2. `e_j = exp(z_j − m)` stored in `scratch`, `S = Σ e_j`, `Σ e_j (z_j − m)` (and `Σ e_j log ρ_j` for reverse
 *    KL), so that `lse = m + log S`, `H = log S − Σ e_j (z_j − m) / S` and
 *    `KL(π‖ρ) = −H − Σ π_j log ρ_j` are known before any gradient entry is written;
 * 3. `π_j = e_j / S`, `log π_j = z_j − lse` (no second `exp`, no `log` of an underflowed probability) and
 *    the gradient entry.
 *
 * A row whose logits (and reference row, when there is one per row) equal the previous row's (repeats of
 * one observation, as in a bandit or a tabular policy's revisited states) reuses that row's exponentials
 * and sums instead of computing them again, so it costs no `exp` or `log`. The results are the same bit
 * for bit as without the reuse: equal inputs give equal values, and a zero's sign (0 against −0 in a
 * logit) changes no bit of them (a test plays such rows).
 *
 * Reads `[weightScale, klScale, refShift]` from `params` and writes
 * `[Σ_i c_i CE_i, Σ_i KL_i, max_i KL_i, Σ_i H_i]` into `stats`: scalars travel in typed arrays because
 * V8 boxes a double argument of a call it does not inline, and a training loop must not allocate.
 *
 * @param z - logits, `rows × actions`
 * @param maxima - the maximum of each row of `z`
 * @param rows - number of rows
 * @param actions - number of actions per row
 * @param selected - action index per row
 * @param weights - per-row weights, or undefined for ones
 * @param forward - forward KL(ρ‖π) if true, reverse KL(π‖ρ) otherwise
 * @param ref - reference rows (`log ρ_j = ref_j − shift`), or null for the uniform reference
 * @param refStride - 0 to broadcast one reference row, `actions` for one per row
 * @param refRowLse - compute `shift` as each reference row's log-sum-exp
 * @param grad - output gradient, `rows × actions`
 * @param scratch - at least `actions` entries: the exponentials of the last row computed
 * @param params - `[weightScale, klScale, refShift]`: row i's cross-entropy coefficient is
 *   `c_i = w_i · weightScale`, its KL coefficient `klScale = β / rows`, and `refShift` is the constant
 *   `shift` when `refRowLse` is false
 * @param stats - output statistics, length 4
 */
export function ftwLossKernel(
  z: Logits,
  maxima: Float64Array,
  rows: number,
  actions: number,
  selected: ArrayLike<number>,
  weights: ArrayLike<number> | undefined,
  forward: boolean,
  ref: Logits | null,
  refStride: number,
  refRowLse: boolean,
  grad: Float64Array,
  scratch: Float64Array,
  params: Float64Array,
  stats: Float64Array,
): void {
  const weightScale = params[0]!;
  const klScale = params[1]!;
  const refShift = params[2]!;
  const logActions = Math.log(actions);
  // Σ e_j log ρ_j is needed by reverse KL to a reference given by rows only.
  const reverseToRows = ref !== null && !forward;
  const uniformProb = 1 / actions;
  let ceSum = 0;
  let klSum = 0;
  let klMax = Number.NEGATIVE_INFINITY;
  let entropySum = 0;
  // The sums of the last row computed, reused by the rows that repeat it.
  let shift = refShift;
  let logS = 0;
  let invS = 0;
  let lse = 0;
  let entropy = 0;
  let slOverS = 0;
  for (let i = 0; i < rows; i++) {
    const o = i * actions;
    const end = o + actions;
    const c = weights === undefined ? weightScale : weights[i]! * weightScale;
    const m = maxima[i]!;
    // log ρ_j = ref[r + k] − shift for action k; r is the reference row's offset.
    const r = i * refStride;

    if (
      i === 0 ||
      !sameRow(z, o - actions, o, actions) ||
      (refStride > 0 && !sameRow(ref!, r - actions, r, actions))
    ) {
      shift = refShift;
      if (ref !== null && refRowLse) {
        let my = Number.NEGATIVE_INFINITY;
        for (let k = r; k < r + actions; k++) {
          const v = ref[k]!;
          if (v > my) my = v;
        }
        let sy = 0;
        for (let k = r; k < r + actions; k++) sy += Math.exp(ref[k]! - my);
        shift = my + Math.log(sy);
      }

      let s = 0;
      let sd = 0;
      let sl = 0;
      for (let j = o, k = 0; j < end; j++, k++) {
        const d = z[j]! - m;
        const e = Math.exp(d);
        scratch[k] = e;
        s += e;
        sd += e * d;
        if (reverseToRows) sl += e * (ref![r + k]! - shift);
      }
      logS = Math.log(s);
      invS = 1 / s;
      lse = m + logS;
      entropy = logS - sd * invS;
      slOverS = sl * invS;
    }

    let kl: number;
    if (!forward) {
      kl = ref === null ? logActions - entropy : -entropy - slOverS;
      if (ref === null) {
        const off = lse - logActions + kl;
        for (let j = o, k = 0; j < end; j++, k++) {
          const p = scratch[k]! * invS;
          grad[j] = p * (c + klScale * (z[j]! - off));
        }
      } else {
        const off = lse - shift + kl;
        for (let j = o, k = 0; j < end; j++, k++) {
          const p = scratch[k]! * invS;
          grad[j] = p * (c + klScale * (z[j]! - ref[r + k]! - off));
        }
      }
    } else if (ref === null) {
      // KL(u‖π) = Σ_j (1/A)(−log A − log π_j) = log S − log A − mean_j (z_j − m)
      let sumD = 0;
      const cp = c + klScale;
      const cu = klScale * uniformProb;
      for (let j = o, k = 0; j < end; j++, k++) {
        sumD += z[j]! - m;
        grad[j] = scratch[k]! * invS * cp - cu;
      }
      kl = logS - logActions - sumD * uniformProb;
    } else {
      kl = 0;
      const cp = c + klScale;
      for (let j = o, k = 0; j < end; j++, k++) {
        const lr = ref[r + k]! - shift;
        const rho = Math.exp(lr);
        kl += rho * (lr - (z[j]! - lse));
        grad[j] = scratch[k]! * invS * cp - klScale * rho;
      }
    }

    const a = o + selected[i]!;
    grad[a] = grad[a]! - c;
    ceSum += c * (lse - z[a]!);
    klSum += kl;
    if (kl > klMax) klMax = kl;
    entropySum += entropy;
  }
  stats[0] = ceSum;
  stats[1] = klSum;
  stats[2] = klMax;
  stats[3] = entropySum;
}
