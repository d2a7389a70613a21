import type { PolicyGradientOut, PolicyGradientResult } from './policy-gradient-loss.js';
import { rowExp, rowSelectedGrad, rowStats } from './row-softmax.js';
import type { Logits } from './types.js';
import { assertOneOf, checkWeights, weightTotal } from './validate.js';

/*
 * Shared body of policyGradientLoss and reinforceLoss, and the weight handling of ppoClipLoss.
 * Internal; not exported from the package.
 */

const NORMALIZE_MODES: readonly ('mean' | 'sum')[] = ['mean', 'sum'];

/**
 * Scalars passed to {@link policyGradientKernel} in a typed array (no boxed doubles per call):
 * `[scale, baseline]`; slot 0 is written by {@link checkPolicyGradientWeights}.
 */
export const pgScalars = new Float64Array(2);

/**
 * Validates `weights` and `normalize` and writes the weight scale (`1/Σw` for `'mean'`, 1 for `'sum'`)
 * to `pgScalars[0]`.
 */
export function checkPolicyGradientWeights(input: {
  rows: number;
  weights?: ArrayLike<number>;
  normalize?: 'mean' | 'sum';
}): void {
  const normalize =
    input.normalize === undefined ? 'mean' : assertOneOf('normalize', input.normalize, NORMALIZE_MODES);
  checkWeights('weights', input.weights, input.rows, normalize === 'mean');
  pgScalars[0] = normalize === 'mean' ? 1 / weightTotal[0]! : 1;
}

/**
 * The policy-gradient surrogate on validated input, with `A_i = values[i] − baseline_i` where
 * `baseline_i` is `baselines[i]`, or `pgScalars[1]` when `baselines` is undefined, and the weight scale
 * in `pgScalars[0]`. Fills `out` (or a new object) and returns it.
 */
export function policyGradientKernel(
  z: Logits,
  rows: number,
  actions: number,
  selected: ArrayLike<number>,
  values: ArrayLike<number>,
  baselines: ArrayLike<number> | undefined,
  weights: ArrayLike<number> | undefined,
  grad: Float64Array,
  out: PolicyGradientOut | undefined,
): PolicyGradientResult {
  const scale = pgScalars[0]!;
  const baseline = pgScalars[1]!;
  let loss = 0;
  let entropy = 0;
  for (let i = 0; i < rows; i++) {
    const o = i * actions;
    const a = selected[i]!;
    const advantage = values[i]! - (baselines === undefined ? baseline : baselines[i]!);
    const coef = (weights === undefined ? scale : weights[i]! * scale) * advantage;
    rowExp(z, o, actions, grad);
    loss += coef * (rowStats[0]! - z[o + a]!);
    entropy += rowStats[2]!;
    rowStats[3] = coef;
    rowSelectedGrad(grad, o, actions, a);
  }
  // Our own results are built whole, so these stores see only the caller's `out`: a loop that reuses one
  // `out` keeps them monomorphic, and V8 then updates the numbers in place instead of boxing them.
  if (out === undefined) return { grad, loss, entropy: entropy / rows };
  out.grad = grad;
  out.loss = loss;
  out.entropy = entropy / rows;
  return out as PolicyGradientResult;
}
