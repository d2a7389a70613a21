import { MAX_MAGNITUDE } from './max-magnitude.js';
import type { PolicyShift } from './policy-shift.js';
import { ShiftSums } from './shift-sums.js';
import { assertInteger, logitValueError } from './validate.js';

/**
 * {@link policyShift} along a training run: fed the logits of each version of a policy in turn, it
 * measures how far the policy moved since the version before, computing each version's log-softmax once
 * (as the later policy of one step, then reused as the earlier one of the next), where `policyShift`
 * computes both sides of every step.
 *
 * Equation, per row with `p = softmax(previous)`, `q = softmax(logits)`:
 *
 *     KL(p‖q) = Σ_j p_j (log p_j − log q_j),    TV(p, q) = ½ Σ_j |p_j − q_j|
 *
 * Method: as `policyShift` (`log q_j = z_j − lse` by log-sum-exp, `q_j = exp(log q_j)`; KL clamped at 0
 * and TV at 1 against rounding), with the previous version's `log p_j` and `p_j` kept from when it was
 * measured: two `exp` per element instead of four (none for a row whose logits did not change: a tabular
 * policy's update moves only the rows it trained on), and the results are `policyShift`'s on the same two
 * tables, bit for bit. Reference: J. Schulman et al., "Trust Region Policy Optimization", ICML 2015,
 * section 3 (α = max TV, `D_KL^max`).
 *
 * @example
 * ```ts
 * const tracker = new PolicyShiftTracker(2);
 * tracker.logits(1).set([0, 0]);
 * tracker.start(1); // the first version
 * tracker.logits(1).set([Math.log(3), 0]);
 * const s = tracker.measure(1);
 * console.log(s.klMean.toFixed(4), s.tvMax); // 0.1438 0.25   (as policyShift)
 * ```
 */
export class PolicyShiftTracker {
  /** Number of actions per row. */
  readonly actions: number;
  #capacity = 0;
  /** Rows of the current version (0: none yet). */
  #rows = 0;
  // Two versions (logits, each row's log-sum-exp, probabilities): the current one at index `#current`, the
  // next one at the other index; `measure` and `start` swap their roles.
  #current = 0;
  /** The rows' sums and maxima, refilled by each `measure`. */
  readonly #sums = new ShiftSums();
  #logits = [new Float64Array(0), new Float64Array(0)];
  #lse = [new Float64Array(0), new Float64Array(0)];
  #probs = [new Float64Array(0), new Float64Array(0)];
  /** Views of exactly `rows` rows of each logits buffer. */
  #views: (Float64Array | undefined)[][] = [[], []];
  /** Per row, during `start` and `measure`: 1 when its logits changed (see `#compare`). */
  #changed = new Uint8Array(0);

  /**
   * @param actions - number of actions per row, an integer `>= 1`
   * @throws RangeError if `actions` is not an integer `>= 1`
   */
  constructor(actions: number) {
    this.actions = assertInteger('actions', actions, 1);
  }

  /** Rows of the current version; 0 before {@link PolicyShiftTracker.start}. */
  get rows(): number {
    return this.#rows;
  }

  /**
   * The buffer to write the next version's logits into, `rows × actions`, row-major. Asking for more rows
   * than ever before replaces the buffers and forgets the current version (call `start` again).
   *
   * @param rows - number of rows, an integer `>= 1`
   * @returns a view of exactly `rows × actions` entries, valid until the next `start` or `measure`
   * @throws RangeError if `rows` is not an integer `>= 1`
   */
  logits(rows: number): Float64Array {
    if (!Number.isInteger(rows) || rows < 1) assertInteger('rows', rows, 1);
    if (rows > this.#capacity) this.#grow(rows);
    const next = 1 - this.#current;
    let view = this.#views[next]![rows];
    if (view === undefined) {
      view = this.#logits[next]!.subarray(0, rows * this.actions);
      this.#views[next]![rows] = view;
    }
    return view;
  }

  /**
   * Makes the logits written into {@link PolicyShiftTracker.logits} the current version, without
   * measuring: the first version of a run, or one whose number of rows changed.
   *
   * @param rows - number of rows written, an integer in `[1, rows requested so far]`
   * @throws RangeError if `rows` is out of range or a logit is not finite or exceeds `MAX_MAGNITUDE`;
   *   the current version is kept then
   */
  start(rows: number): void {
    this.#checkRows(rows);
    const A = this.actions;
    const next = 1 - this.#current;
    const z = this.#logits[next]!;
    const lse = this.#lse[next]!;
    const probs = this.#probs[next]!;
    // The rows that the current version has too, unchanged (a run that meets new observations starts again
    // with the old rows as they were), keep their log-sum-exp and probabilities.
    this.#compare(rows, Math.min(rows, this.#rows));
    const changed = this.#changed;
    for (let i = 0; i < rows; i++) {
      if (changed[i] === 0) continue;
      for (let j = i * A; j < (i + 1) * A; j++) probs[j] = Math.exp(z[j]! - lse[i]!);
    }
    this.#swap(rows);
  }

  /**
   * The shift from the current version to the logits written into {@link PolicyShiftTracker.logits},
   * which then become the current version.
   *
   * @param rows - number of rows written: the current version's
   * @param out - optional object, filled and returned (so a training loop allocates nothing)
   * @returns mean and max KL and TV over the rows (`out` itself when given)
   * @throws RangeError if `rows` is not the current version's number of rows (call `start` first) or a
   *   logit is not finite or exceeds `MAX_MAGNITUDE`; the current version is kept then
   */
  measure(rows: number, out?: Partial<PolicyShift>): PolicyShift {
    if (rows !== this.#rows || this.#rows === 0) {
      throw new RangeError(
        `rows must be the current version's, ${this.#rows} (call start first when it changes), got ${rows}`,
      );
    }
    const A = this.actions;
    const current = this.#current;
    const p = this.#logits[current]!;
    const lseP = this.#lse[current]!;
    const probsP = this.#probs[current]!;
    const q = this.#logits[1 - current]!;
    const lseQ = this.#lse[1 - current]!;
    const probsQ = this.#probs[1 - current]!;
    // A row whose logits did not change (a tabular policy's update moves only the rows it trained on) keeps
    // its log-sum-exp and probabilities, and its shift is 0 exactly, as computed: every p_j·(log p_j −
    // log q_j) and |p_j − q_j| is 0. So only the rows that changed pay their `exp` and `log`.
    this.#compare(rows, rows);
    const changed = this.#changed;
    const sums = this.#sums;
    sums.reset();
    for (let i = 0; i < rows; i++) {
      const o = i * A;
      const end = o + A;
      if (changed[i] === 0) continue; // its shift, 0, adds nothing to the sums
      const lp0 = lseP[i]!;
      const lq0 = lseQ[i]!;
      let kl = 0;
      let tv = 0;
      for (let j = o; j < end; j++) {
        const lp = p[j]! - lp0;
        const lq = q[j]! - lq0;
        const pj = probsP[j]!;
        const qj = Math.exp(lq);
        probsQ[j] = qj;
        kl += pj * (lp - lq);
        tv += Math.abs(pj - qj);
      }
      sums.add(kl, tv);
    }
    this.#swap(rows);
    return sums.result(rows, out);
  }

  /**
   * Marks in `#changed` which rows of the next version differ from the current version's (rows from `kept`
   * on count as changed) and computes their log-sum-exp, validating their logits; the rows that do not
   * differ get the current version's log-sum-exp and probabilities, which are what computing them would
   * give, bit for bit. Writes only the next version's buffers, so a throw keeps the current version.
   */
  #compare(rows: number, kept: number): void {
    const A = this.actions;
    const current = this.#current;
    const p = this.#logits[current]!;
    const q = this.#logits[1 - current]!;
    const lseQ = this.#lse[1 - current]!;
    const probsQ = this.#probs[1 - current]!;
    const changed = this.#changed;
    for (let i = 0; i < rows; i++) {
      const o = i * A;
      let same = i < kept;
      for (let j = o; same && j < o + A; j++) if (q[j] !== p[j]) same = false;
      changed[i] = same ? 0 : 1;
      if (same) {
        lseQ[i] = this.#lse[current]![i]!;
        for (let j = o; j < o + A; j++) probsQ[j] = this.#probs[current]![j]!;
      } else {
        lseQ[i] = this.#rowLse(q, o, o + A);
      }
    }
  }

  #checkRows(rows: number): void {
    if (!(Number.isInteger(rows) && rows >= 1 && rows <= this.#capacity)) {
      throw new RangeError(
        `rows must be an integer in [1, ${this.#capacity}] (the rows requested so far), got ${String(rows)}`,
      );
    }
  }

  /** The log-sum-exp of `z[from .. to)` by max-subtraction, checking each logit on the way. */
  #rowLse(z: Float64Array, from: number, to: number): number {
    let m = Number.NEGATIVE_INFINITY;
    for (let k = from; k < to; k++) {
      const v = z[k]!;
      if (!(v >= -MAX_MAGNITUDE && v <= MAX_MAGNITUDE)) throw logitValueError('logits', k, v);
      if (v > m) m = v;
    }
    let s = 0;
    for (let k = from; k < to; k++) s += Math.exp(z[k]! - m);
    return m + Math.log(s);
  }

  #swap(rows: number): void {
    this.#current = 1 - this.#current;
    this.#rows = rows;
  }

  #grow(rows: number): void {
    let capacity = Math.max(this.#capacity, 4);
    while (capacity < rows) capacity *= 2;
    const n = capacity * this.actions;
    this.#capacity = capacity;
    this.#rows = 0;
    this.#logits = [new Float64Array(n), new Float64Array(n)];
    this.#probs = [new Float64Array(n), new Float64Array(n)];
    this.#lse = [new Float64Array(capacity), new Float64Array(capacity)];
    this.#changed = new Uint8Array(capacity);
    this.#views = [[], []];
  }
}
