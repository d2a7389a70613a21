import { describeValue } from '@ftw/internal';
import { ftwLossKernel } from './ftw-loss-kernel.js';
import { MAX_MAGNITUDE } from './max-magnitude.js';
import type { Logits } from './types.js';
import {
  assertInteger,
  assertLogitArray,
  assertLogitShape,
  assertLogitValues,
  assertNoOverlap,
  assertOneOf,
  assertSelected,
  checkWeights,
  logitValueError,
  nonNegativeError,
  outBuffer,
  scanRow,
  weightTotal,
} from './validate.js';

/** Direction of the KL term: reverse `KL(π‖π_ref)` or forward `KL(π_ref‖π)`. */
export type KlDirection = 'reverse' | 'forward';

/**
 * A reference policy given by exactly one of `logits` or `logProbs`, each either one row of `actions`
 * entries (broadcast to every row) or `rows × actions` entries (one row per row).
 */
export interface ReferencePolicy {
  /** Reference logits; each row is normalised with a log-sum-exp. */
  logits?: Logits;
  /**
   * Reference log-probabilities; each row's log-sum-exp must be within `1e-4` of 0 (this catches logits
   * or probabilities passed by mistake and admits Float32 log-softmax output). Rows are then
   * renormalised exactly, like logits.
   */
  logProbs?: Logits;
}

/** Input of {@link ftwLoss}. */
export interface FtwLossInput {
  /** Policy logits, `rows × actions`, row-major; every `|z| <= MAX_MAGNITUDE`. */
  logits: Logits;
  /** Number of rows (visited states, one per step). */
  rows: number;
  /** Number of actions (columns). */
  actions: number;
  /** Selected (elite) action index per row, an integer in `[0, actions)`. */
  selected: ArrayLike<number>;
  /**
   * Per-row weight `w_i >= 0` (selection multiplicity, see {@link trajectoryWeights}).
   * @defaultValue all ones
   */
  weights?: ArrayLike<number>;
  /**
   * Weight β of the KL term, finite and `>= 0`.
   * @defaultValue 0
   */
  beta?: number;
  /**
   * KL direction.
   * @defaultValue 'reverse'
   */
  kl?: KlDirection;
  /**
   * Reference policy.
   * @defaultValue the uniform policy over `actions`
   */
  reference?: ReferencePolicy;
  /**
   * `'mean'` divides the weighted cross-entropy by `Σ w_i` (which must be positive); `'sum'` uses
   * `Σ w_i · CE_i` as is, for weights that are already normalised.
   * @defaultValue 'mean'
   */
  normalize?: 'mean' | 'sum';
}

/** Result of {@link ftwLoss}: `loss = crossEntropy + β · klMean`. */
export interface FtwLossResult {
  /** The loss value. */
  loss: number;
  /** `∂loss/∂logits`, `rows × actions`. */
  grad: Float64Array;
  /** The weighted cross-entropy term. */
  crossEntropy: number;
  /** Mean over rows of the per-row KL. */
  klMean: number;
  /** Largest per-row KL. */
  klMax: number;
  /** Mean over rows of the policy's entropy (nats). */
  entropy: number;
}

/**
 * Output buffers of {@link ftwLoss}. When given, the result is written into this object and the object
 * itself is returned, so a loop that passes the same `out` allocates nothing; a missing `grad` is
 * allocated once and stored in it.
 */
export interface FtwLossOut {
  grad?: Float64Array;
  loss?: number;
  crossEntropy?: number;
  klMean?: number;
  klMax?: number;
  entropy?: number;
}

const KL_DIRECTIONS: readonly KlDirection[] = ['reverse', 'forward'];
const NORMALIZE_MODES: readonly ('mean' | 'sum')[] = ['mean', 'sum'];
/** See {@link ReferencePolicy.logProbs}: Float32 log-softmax rows sum to one within ~1e-6. */
const LOG_PROB_NORMALIZATION_TOLERANCE = 1e-4;
/** Kernel inputs `[weightScale, klScale, refShift]` and slot 3 for {@link rangeLse}'s result. */
const params = new Float64Array(4);
/** Kernel outputs, see {@link ftwLossKernel}. */
const stats = new Float64Array(4);
/** Row maxima found while validating the logits; grows to the largest `rows` seen, then is reused. */
let maxima = new Float64Array(64);
/** The kernel's exponentials of one row; grows to the largest `actions` seen, then is reused. */
let scratch = new Float64Array(64);

/** Writes the log-sum-exp of `values[from .. from + count)`, by max-subtraction, to `params[3]`. */
function rangeLse(values: ArrayLike<number>, from: number, count: number): void {
  let m = Number.NEGATIVE_INFINITY;
  for (let k = from; k < from + count; k++) if (values[k]! > m) m = values[k]!;
  let s = 0;
  for (let k = from; k < from + count; k++) s += Math.exp(values[k]! - m);
  params[3] = m + Math.log(s);
}

/**
 * FTW's objective: weighted cross-entropy of the selected (elite) actions plus β times the mean per-row
 * KL divergence to a reference policy, with its exact gradient with respect to the logits.
 *
 * Equation, with `π_i = softmax(z_i)`, `W = Σ_i w_i` (`W = 1` for `normalize: 'sum'`) and R rows:
 *
 *     L = (1/W) Σ_i w_i · (−log π_i(a_i))  +  (β/R) Σ_i D_i
 *     D_i = KL(π_i‖ρ_i) = Σ_j π_ij (log π_ij − log ρ_ij)          (reverse)
 *     D_i = KL(ρ_i‖π_i) = Σ_j ρ_ij (log ρ_ij − log π_ij)          (forward)
 *     ∂L/∂z_ij = (w_i/W)(π_ij − [j = a_i]) + (β/R) · π_ij (log π_ij − log ρ_ij − D_i)   (reverse)
 *     ∂L/∂z_ij = (w_i/W)(π_ij − [j = a_i]) + (β/R) · (π_ij − ρ_ij)                      (forward)
 *
 * Method: log-softmax by max-subtraction and log-sum-exp, `log π = z − lse` (never the log of an
 * underflowed probability), one `exp` per element for the uniform or a broadcast reference (see the
 * README for the cost of other references). Logits of ±1000 and near-deterministic rows give finite
 * values and gradients. Reference: FTW, arXiv 2610.03361, Algorithm 2; the KL-regularised projection
 * of the design notes, section "The objective".
 *
 * @param input - logits, shape, selected actions, weights, β, KL direction, reference, normalisation
 * @param out - optional output object reused across calls (see {@link FtwLossOut})
 * @returns the loss, its gradient and statistics (`out` itself when given)
 * @throws TypeError if `logits`, a reference array or `out.grad` has the wrong type
 * @throws RangeError on a shape mismatch, an action index out of range, a non-finite or too large logit,
 *   a negative or non-finite weight or β, an unknown `kl` or `normalize`, an unnormalised
 *   `reference.logProbs` row, or buffers that share memory
 * @example
 * ```ts
 * // Two actions, four rows with the same logits, elite actions 1, 1, 0, 1, reverse KL to uniform.
 * const logits = new Float64Array([0, 1, 0, 1, 0, 1, 0, 1]);
 * const r = ftwLoss({ logits, rows: 4, actions: 2, selected: [1, 1, 0, 1], beta: 0.05 });
 * console.log(r.loss.toFixed(6), r.klMean.toFixed(6));
 * // 0.568809 0.110944
 * ```
 */
export function ftwLoss(input: FtwLossInput, out?: FtwLossOut): FtwLossResult {
  if (typeof input !== 'object' || input === null) {
    throw new TypeError(`input must be an object, got ${describeValue(input)}`);
  }
  const rows = assertInteger('rows', input.rows, 1);
  const actions = assertInteger('actions', input.actions, 1);
  const logits = assertLogitShape('logits', input.logits, rows, actions);
  // The logits are checked in the same pass that finds each row's maximum (pass 1 of the kernel), row
  // by row, before anything is written.
  if (maxima.length < rows) maxima = new Float64Array(rows);
  if (scratch.length < actions) scratch = new Float64Array(actions);
  for (let i = 0; i < rows; i++) {
    const bad = scanRow(logits, i * actions, (i + 1) * actions, maxima, i);
    if (bad >= 0) throw logitValueError('logits', bad, logits[bad]);
  }
  const selected = assertSelected('selected', input.selected, rows, actions);
  const normalize =
    input.normalize === undefined ? 'mean' : assertOneOf('normalize', input.normalize, NORMALIZE_MODES);
  checkWeights('weights', input.weights, rows, normalize === 'mean');
  const beta = input.beta ?? 0;
  if (typeof beta !== 'number' || !(beta >= 0 && beta <= MAX_MAGNITUDE)) throw nonNegativeError('beta', beta);
  const kl = input.kl === undefined ? 'reverse' : assertOneOf('kl', input.kl, KL_DIRECTIONS);

  let ref: Logits | null = null;
  let refStride = 0;
  let refRowLse = false;
  params[2] = 0;
  const reference = input.reference;
  if (reference !== undefined) {
    if (typeof reference !== 'object' || reference === null) {
      throw new TypeError(
        `reference must be an object with logits or logProbs, got ${describeValue(reference)}`,
      );
    }
    const hasLogits = reference.logits !== undefined;
    if (hasLogits === (reference.logProbs !== undefined)) {
      throw new TypeError('reference must give exactly one of logits or logProbs');
    }
    const name = hasLogits ? 'reference.logits' : 'reference.logProbs';
    ref = assertLogitArray(name, hasLogits ? reference.logits : reference.logProbs);
    if (ref.length === actions) refStride = 0;
    else if (ref.length === rows * actions) refStride = actions;
    else {
      throw new RangeError(
        `${name}.length must be actions = ${actions} (one row, broadcast) or rows × actions = ${rows * actions}, got ${ref.length}`,
      );
    }
    assertLogitValues(name, ref);
    if (!hasLogits) {
      for (let i = 0, n = ref.length / actions; i < n; i++) {
        rangeLse(ref, i * actions, actions);
        const lse = params[3]!;
        if (!(Math.abs(lse) <= LOG_PROB_NORMALIZATION_TOLERANCE)) {
          throw new RangeError(
            `${name} row ${i} must be normalised (log-sum-exp within ${LOG_PROB_NORMALIZATION_TOLERANCE} of 0), got ${lse}`,
          );
        }
      }
    }
    if (refStride === 0) {
      rangeLse(ref, 0, actions);
      params[2] = params[3]!;
    } else refRowLse = true;
  }

  const grad = outBuffer('out.grad', out?.grad, rows * actions);
  assertNoOverlap('out.grad', grad, 'logits', logits);
  if (ref !== null) assertNoOverlap('out.grad', grad, 'reference', ref);

  params[0] = normalize === 'mean' ? 1 / weightTotal[0]! : 1;
  params[1] = beta / rows;
  ftwLossKernel(
    logits,
    maxima,
    rows,
    actions,
    selected,
    input.weights,
    kl === 'forward',
    ref,
    refStride,
    refRowLse,
    grad,
    scratch,
    params,
    stats,
  );
  const crossEntropy = stats[0]!;
  const klMean = stats[1]! / rows;
  // Our own results are built whole, so these stores see only the caller's `out`: a loop that reuses one
  // `out` keeps them monomorphic, and V8 then updates the numbers in place instead of boxing them.
  if (out === undefined)
    return {
      grad,
      loss: crossEntropy + beta * klMean,
      crossEntropy,
      klMean,
      klMax: stats[2]!,
      entropy: stats[3]! / rows,
    };
  out.grad = grad;
  out.loss = crossEntropy + beta * klMean;
  out.crossEntropy = crossEntropy;
  out.klMean = klMean;
  out.klMax = stats[2]!;
  out.entropy = stats[3]! / rows;
  return out as FtwLossResult;
}
