import { describeValue } from '@ftw/internal';
import type { FtwLossResult, KlDirection } from './ftw-loss.js';
import { ftwLossKernel } from './ftw-loss-kernel.js';
import { MAX_MAGNITUDE } from './max-magnitude.js';
import { assertInteger, assertOneOf, logitValueError, nonNegativeError } from './validate.js';

/** The settings of an {@link FtwObjective}, fixed for its lifetime. */
export interface FtwObjectiveOptions {
  /** Number of actions (columns), an integer `>= 1`. */
  actions: number;
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
   * The reference policy: `'uniform'`, or `'rows'` for one row of reference logits per row, written into
   * {@link FtwObjectiveRows.reference} (each row is normalised with a log-sum-exp, as `ftwLoss` does).
   * @defaultValue 'uniform'
   */
  reference?: 'uniform' | 'rows';
}

/**
 * The row buffers of an {@link FtwObjective}, views of exactly the requested number of rows, which the
 * caller fills before {@link FtwObjective.evaluate}.
 */
export interface FtwObjectiveRows {
  /** Policy logits, `rows × actions`, row-major. */
  readonly logits: Float64Array;
  /** Reference logits, `rows × actions` with `reference: 'rows'`; empty otherwise. */
  readonly reference: Float64Array;
  /** Selected (elite) action per row (an Int32Array: what is written is truncated to an integer). */
  readonly selected: Int32Array;
  /** Weight `w_i >= 0` per row. */
  readonly weights: Float64Array;
}

const KL_DIRECTIONS: readonly KlDirection[] = ['reverse', 'forward'];
const REFERENCES: readonly ('uniform' | 'rows')[] = ['uniform', 'rows'];
const NORMALIZE_MODES: readonly ('mean' | 'sum')[] = ['mean', 'sum'];

/**
 * {@link ftwLoss} for a training loop: the settings (actions, β, KL direction, kind of reference) are
 * checked once, when the objective is made, and the row buffers are the objective's own, so that a call
 * checks only the numbers written into them. The results are those of `ftwLoss` on the same rows, bit
 * for bit (the same kernel runs on the same numbers).
 *
 * Equation (see `ftwLoss`), with `π_i = softmax(z_i)`, `W = Σ_i w_i` (`W = 1` for `'sum'`), R rows:
 *
 *     L = (1/W) Σ_i w_i · (−log π_i(a_i))  +  (β/R) Σ_i D_i,   D_i = KL(π_i‖ρ_i) or KL(ρ_i‖π_i)
 *
 * Method: as `ftwLoss` (log-softmax by max-subtraction and log-sum-exp, `log π = z − lse`). Cost per
 * call: O(rows · actions), no allocation once the largest row count has been requested. Reference: FTW,
 * arXiv 2610.03361, Algorithm 2.
 *
 * @example
 * ```ts
 * const objective = new FtwObjective({ actions: 2, beta: 0.05 });
 * const rows = objective.rows(4);
 * rows.logits.set([0, 1, 0, 1, 0, 1, 0, 1]);
 * rows.selected.set([1, 1, 0, 1]);
 * rows.weights.fill(1);
 * const r = objective.evaluate(4);
 * console.log(r.loss.toFixed(6), r.klMean.toFixed(6));
 * // 0.568809 0.110944   (as ftwLoss on the same rows)
 * ```
 */
export class FtwObjective {
  /** Number of actions. */
  readonly actions: number;
  readonly #beta: number;
  readonly #forward: boolean;
  readonly #perRowReference: boolean;
  #capacity = 0;
  #logits = new Float64Array(0);
  #reference = new Float64Array(0);
  #selected = new Int32Array(0);
  #weights = new Float64Array(0);
  #grad = new Float64Array(0);
  #maxima = new Float64Array(0);
  /** The kernel's exponentials of one row. */
  readonly #scratch: Float64Array;
  /** Views of exactly `count` rows, per count met since the buffers last grew. */
  #views: ({ rows: FtwObjectiveRows; grad: Float64Array } | undefined)[] = [];
  readonly #params = new Float64Array(4);
  readonly #stats = new Float64Array(4);
  readonly #result: FtwLossResult = {
    loss: 0,
    grad: new Float64Array(0),
    crossEntropy: 0,
    klMean: 0,
    klMax: 0,
    entropy: 0,
  };

  /**
   * @param options - actions, β, KL direction and kind of reference
   * @throws TypeError if `options` is not an object
   * @throws RangeError if `actions` is not an integer `>= 1`, β is negative, not finite or above
   *   `MAX_MAGNITUDE`, or `kl` or `reference` is not one of its values
   */
  constructor(options: FtwObjectiveOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new TypeError(`options must be an object, got ${describeValue(options)}`);
    }
    this.actions = assertInteger('actions', options.actions, 1);
    this.#scratch = new Float64Array(this.actions);
    const beta = options.beta ?? 0;
    if (typeof beta !== 'number' || !(beta >= 0 && beta <= MAX_MAGNITUDE))
      throw nonNegativeError('beta', beta);
    this.#beta = beta;
    this.#forward =
      (options.kl === undefined ? 'reverse' : assertOneOf('kl', options.kl, KL_DIRECTIONS)) === 'forward';
    this.#perRowReference =
      (options.reference === undefined
        ? 'uniform'
        : assertOneOf('reference', options.reference, REFERENCES)) === 'rows';
  }

  /**
   * The buffers of `count` rows, to fill before {@link FtwObjective.evaluate}. Asking for more rows than
   * ever before replaces the buffers (by doubling; what they held is not kept), so fill them after the
   * call. The views stay valid until then.
   *
   * @param count - number of rows, an integer `>= 1`
   * @returns views of exactly `count` rows
   * @throws RangeError if `count` is not an integer `>= 1`
   */
  rows(count: number): FtwObjectiveRows {
    if (!Number.isInteger(count) || count < 1) assertInteger('count', count, 1);
    if (count > this.#capacity) this.#grow(count);
    let views = this.#views[count];
    if (views === undefined) {
      const n = count * this.actions;
      views = {
        rows: {
          logits: this.#logits.subarray(0, n),
          reference: this.#reference.subarray(0, n),
          selected: this.#selected.subarray(0, count),
          weights: this.#weights.subarray(0, count),
        },
        grad: this.#grad.subarray(0, n),
      };
      this.#views[count] = views;
    }
    return views.rows;
  }

  /**
   * The loss of the first `count` rows, its gradient with respect to their logits and its statistics.
   *
   * @param count - number of rows, an integer in `[1, rows requested so far]`
   * @param normalize - `'mean'` divides the weighted cross-entropy by `Σ w_i` (which must be positive);
   *   `'sum'` uses `Σ w_i · CE_i` as is
   * @returns the result, one object reused by every call; `grad` (`count × actions`) is the objective's
   *   own buffer, valid until the next call
   * @throws RangeError if `count` is out of range, a logit or reference logit is not finite or exceeds
   *   `MAX_MAGNITUDE`, a selected action is outside `[0, actions)`, a weight is negative or not finite, the
   *   weights sum to zero with `'mean'`, or `normalize` is not one of its values; nothing is written then
   */
  evaluate(count: number, normalize: 'mean' | 'sum' = 'mean'): FtwLossResult {
    if (!(Number.isInteger(count) && count >= 1 && count <= this.#capacity)) {
      throw new RangeError(
        `count must be an integer in [1, ${this.#capacity}] (the rows requested so far), got ${describeValue(count)}`,
      );
    }
    if (normalize !== 'mean' && normalize !== 'sum') assertOneOf('normalize', normalize, NORMALIZE_MODES);
    const A = this.actions;
    const logits = this.#logits;
    const maxima = this.#maxima;
    for (let i = 0; i < count; i++) {
      let m = Number.NEGATIVE_INFINITY;
      for (let k = i * A; k < (i + 1) * A; k++) {
        const v = logits[k]!;
        if (!(v >= -MAX_MAGNITUDE && v <= MAX_MAGNITUDE)) throw logitValueError('rows.logits', k, v);
        if (v > m) m = v;
      }
      maxima[i] = m;
    }
    const reference = this.#reference;
    if (this.#perRowReference) {
      for (let k = 0; k < count * A; k++) {
        const v = reference[k]!;
        if (!(v >= -MAX_MAGNITUDE && v <= MAX_MAGNITUDE)) throw logitValueError('rows.reference', k, v);
      }
    }
    const selected = this.#selected;
    for (let i = 0; i < count; i++) {
      const a = selected[i]!;
      if (!(a >= 0 && a < A)) {
        throw new RangeError(`rows.selected[${i}] must be an action index in [0, ${A}), got ${a}`);
      }
    }
    const weights = this.#weights;
    let total = 0;
    for (let i = 0; i < count; i++) {
      const w = weights[i]!;
      if (!(w >= 0 && w <= MAX_MAGNITUDE)) {
        throw new RangeError(`rows.weights[${i}] must be a finite number in [0, ${MAX_MAGNITUDE}], got ${w}`);
      }
      total += w;
    }
    if (normalize === 'mean' && !(total > 0)) {
      throw new RangeError(`rows.weights must have a positive sum to average over, got ${total}`);
    }

    const grad = this.#views[count]?.grad ?? this.#grad.subarray(0, count * A);
    const params = this.#params;
    const stats = this.#stats;
    params[0] = normalize === 'mean' ? 1 / total : 1;
    params[1] = this.#beta / count;
    params[2] = 0;
    const perRow = this.#perRowReference;
    ftwLossKernel(
      logits,
      maxima,
      count,
      A,
      selected,
      weights,
      this.#forward,
      perRow ? reference : null,
      perRow ? A : 0,
      perRow,
      grad,
      this.#scratch,
      params,
      stats,
    );
    const result = this.#result;
    const crossEntropy = stats[0]!;
    const klMean = stats[1]! / count;
    result.grad = grad;
    result.loss = crossEntropy + this.#beta * klMean;
    result.crossEntropy = crossEntropy;
    result.klMean = klMean;
    result.klMax = stats[2]!;
    result.entropy = stats[3]! / count;
    return result;
  }

  #grow(count: number): void {
    let capacity = Math.max(this.#capacity, 8);
    while (capacity < count) capacity *= 2;
    const A = this.actions;
    this.#capacity = capacity;
    this.#logits = new Float64Array(capacity * A);
    this.#reference = new Float64Array(this.#perRowReference ? capacity * A : 0);
    this.#grad = new Float64Array(capacity * A);
    this.#selected = new Int32Array(capacity);
    this.#weights = new Float64Array(capacity);
    this.#maxima = new Float64Array(capacity);
    this.#views = [];
  }
}
