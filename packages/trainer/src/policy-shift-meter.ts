import { type PolicyShift, PolicyShiftTracker, policyShift } from '@ftw/objective';
import type { Policy } from './policy.js';

/** A sparse measure pays when the rows an update moved are fewer than this share of the rows known. */
const SPARSE_SHARE = 1 / 4;

/**
 * How far each update moved the policy, over every observation met so far: the mean and max of
 * KL(π_before(·|o) ‖ π_after(·|o)) and the max total variation (`policyShift` of `@ftw/objective`), the
 * figures `train` reports per iteration.
 *
 * Two ways, the same figures bit for bit:
 * - **Any logit may have moved** (a policy whose parameters are shared between observations, or Adam):
 *   a `PolicyShiftTracker` reads every row after each update. It keeps the rows of the version before,
 *   so only the new logits are computed; it starts again from θ before the update (a snapshot taken by
 *   {@link PolicyShiftMeter.beforeUpdate}) whenever the environment has handed out new observations.
 *   O(rows · actions) per update.
 * - **Only the rows trained on moved** (`blocksOnly`: a tabular policy under SGD; the update lists
 *   them, `UpdateStats.moved`, unless θ was small enough to step whole): when they are fewer than a
 *   quarter of the rows known, only they are read, before and after, and the others count with a shift
 *   of 0 (`policyShift` with `totalRows`), O(moved · actions). θ before the update is kept row by row as
 *   rows move (rows met since read as 0, the value a row joins with), so nothing is copied whole. When
 *   the moved rows are many, the tracker reads every row, which costs less then; while the policy knows
 *   too few rows for a sparse measure ever to pay (a bandit's one), θ is not even kept.
 *
 * @example
 * ```ts
 * const meter = new PolicyShiftMeter(policy, stepsBlocksOnly(policy, optimizer));
 * meter.beforeUpdate(env.observationCount);
 * const stats = updater.update(episodes, version);
 * if (stats !== null) meter.measure(stats.moved, env.observationCount).klMean;
 * ```
 */
export class PolicyShiftMeter {
  readonly #policy: Policy;
  readonly #blocksOnly: boolean;
  readonly #tracker: PolicyShiftTracker;
  /** What `measure` returns, refilled by each call. */
  readonly #out: PolicyShift = { klMean: 0, klMax: 0, tvMean: 0, tvMax: 0 };
  /** Dense way: θ before the update, taken when the tracker will start again. */
  #before = new Float64Array(0);
  /**
   * Blocks-only way: θ after the previous update, kept row by row once a sparse measure can pay
   * (`#keepsPrevious`), and whether the tracker holds that version too.
   */
  #previous = new Float64Array(0);
  #keepsPrevious = false;
  #trackerCurrent = false;
  /** Blocks-only way, sparse measure: the moved rows' logits before and after, and views of them. */
  #movedBefore: Float64Array;
  #movedAfter: Float64Array;
  #ids = new Int32Array(0);
  #views: { before: Float64Array; after: Float64Array }[] = [];

  /**
   * @param policy - the policy the updates change
   * @param blocksOnly - true when an update moves only the rows it lists (`stepsBlocksOnly`)
   */
  constructor(policy: Policy, blocksOnly: boolean) {
    this.#policy = policy;
    this.#blocksOnly = blocksOnly;
    this.#tracker = new PolicyShiftTracker(policy.numActions);
    this.#movedBefore = new Float64Array(4 * policy.numActions);
    this.#movedAfter = new Float64Array(4 * policy.numActions);
  }

  /**
   * Call before each update: keeps θ as it is, when a later `measure` will need it.
   * @param observations - the observations met so far
   */
  beforeUpdate(observations: number): void {
    if (this.#keepsPrevious) return;
    if (this.#blocksOnly && observations * SPARSE_SHARE > 1) {
      // From now on a sparse measure can pay (with fewer rows known, the moved rows, one at least, are
      // never few enough): θ as it is, then kept row by row. The tracker starts again at its next use.
      this.#previous = Float64Array.from(this.#policy.parameters);
      this.#keepsPrevious = true;
      return;
    }
    if (this.#tracker.rows === observations) return;
    const parameters = this.#policy.parameters;
    if (this.#before.length < parameters.length) this.#before = new Float64Array(2 * parameters.length);
    const before = this.#before;
    // Loops: set() and fill() cost more than the copy for the few parameters of a small policy.
    for (let i = 0; i < parameters.length; i++) before[i] = parameters[i]!;
    for (let i = parameters.length; i < before.length; i++) before[i] = 0;
  }

  /**
   * The shift the update made.
   * @param moved - the rows it may have moved (`UpdateStats.moved`), or null for any
   * @param observations - the observations met so far
   * @returns the shift, one object refilled by each call
   */
  measure(moved: Int32Array | null, observations: number): PolicyShift {
    if (!this.#keepsPrevious) return this.#trackAll(observations, this.#before, false);
    const previous = this.#grownPrevious();
    let shift: PolicyShift;
    if (moved !== null && moved.length < SPARSE_SHARE * observations) {
      shift = this.#movedOnly(moved, observations);
      this.#trackerCurrent = false;
    } else {
      shift = this.#trackAll(observations, previous, !this.#trackerCurrent);
      this.#trackerCurrent = true;
    }
    // θ after this update, for the next one: the moved rows, or all of θ when the update stepped it whole
    // (which it does only when θ is small).
    const parameters = this.#policy.parameters;
    if (moved === null) {
      for (let i = 0; i < parameters.length; i++) previous[i] = parameters[i]!;
      return shift;
    }
    const A = this.#policy.numActions;
    for (let k = 0; k < moved.length; k++) {
      const from = moved[k]! * A;
      for (let i = from; i < from + A; i++) previous[i] = parameters[i]!;
    }
    return shift;
  }

  /**
   * The tracker's way: every row read after the update. The tracker starts again from θ before the update
   * (`before`) when the rows changed or `restart` says its version is not that θ.
   */
  #trackAll(observations: number, before: Float64Array, restart: boolean): PolicyShift {
    const tracker = this.#tracker;
    const policy = this.#policy;
    const ids = this.#idsUpTo(observations);
    if (restart || tracker.rows !== observations) {
      policy.logits(ids, observations, tracker.logits(observations), before);
      tracker.start(observations);
    }
    policy.logits(ids, observations, tracker.logits(observations));
    return tracker.measure(observations, this.#out);
  }

  /** The sparse way: the moved rows alone, before (from `#previous`) and after. */
  #movedOnly(moved: Int32Array, observations: number): PolicyShift {
    const count = moved.length;
    if (count === 0) {
      const out = this.#out;
      out.klMean = 0;
      out.klMax = 0;
      out.tvMean = 0;
      out.tvMax = 0;
      return out;
    }
    const A = this.#policy.numActions;
    if (this.#movedBefore.length < count * A) {
      this.#movedBefore = new Float64Array(2 * count * A);
      this.#movedAfter = new Float64Array(2 * count * A);
      this.#views = [];
    }
    const views = (this.#views[count] ??= {
      before: this.#movedBefore.subarray(0, count * A),
      after: this.#movedAfter.subarray(0, count * A),
    });
    const previous = this.#previous;
    const parameters = this.#policy.parameters;
    for (let k = 0; k < count; k++) {
      const from = moved[k]! * A;
      for (let a = 0; a < A; a++) {
        views.before[k * A + a] = previous[from + a]!;
        views.after[k * A + a] = parameters[from + a]!;
      }
    }
    return policyShift(views.before, views.after, A, this.#out, observations);
  }

  /** `#previous`, at least as long as θ (rows met since the last update join at 0). */
  /** The ids 0 … count − 1 as a batch (grown, never shrunk: the rows past `count` are not read). */
  #idsUpTo(count: number): Int32Array {
    if (this.#ids.length < count) {
      const size = Math.max(count, 2 * this.#ids.length);
      this.#ids = new Int32Array(size);
      for (let o = 0; o < size; o++) this.#ids[o] = o;
    }
    return this.#ids;
  }

  #grownPrevious(): Float64Array {
    const length = this.#policy.parameters.length;
    if (this.#previous.length < length) {
      const grown = new Float64Array(Math.max(length, 2 * this.#previous.length));
      grown.set(this.#previous);
      this.#previous = grown;
    }
    return this.#previous;
  }
}
