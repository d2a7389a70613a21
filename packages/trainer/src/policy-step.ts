import type { Optimizer } from './optimizer.js';
import type { ObservationRows, Policy } from './policy.js';

/** `old`'s entries at the start of a new array of `size` (the rest 0). */
function grown(old: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const next = new Int32Array(size);
  next.set(old);
  return next;
}

/**
 * True when a step moves only the blocks of the observations it trains on: the policy's parameters are
 * its logits and the optimiser leaves a parameter without gradient where it is (see {@link PolicyStep}).
 *
 * @param policy - the policy
 * @param optimizer - its optimiser
 * @returns whether {@link PolicyStep} takes the blocks-only path for them
 */
export function stepsBlocksOnly(policy: Policy, optimizer: Optimizer): boolean {
  return policy.logitsAreParameters === true && optimizer.stepBlocks !== undefined;
}

/**
 * The last stage of every update: the gradient with respect to the logits of some rows, back-propagated
 * into θ (∂L/∂θ = Σ_r (∂z(o_r)/∂θ)ᵀ g_r, by `Policy.backward`), then one optimiser step.
 *
 * Cost follows the rows: when the policy's parameters are its logits (`Policy.logitsAreParameters`, a
 * tabular policy, whose observations are then its blocks' indices) and the optimiser leaves a parameter without gradient where it is (`stepBlocks`, SGD),
 * only the blocks of the rows' observations are cleared, stepped and read, O(rows · actions) whatever
 * the number of observations the policy knows. Otherwise ∂L/∂θ is cleared and stepped whole, O(|θ|), as
 * it is when θ is no larger than the rows' blocks. Both give the same parameters, bit for bit.
 *
 * It also tells which observations' logits the steps since {@link PolicyStep.begin} may have moved:
 * those of the rows given, on the first path; any, on the other (see {@link PolicyStep.moved}).
 *
 * @example
 * ```ts
 * const policy = new TabularPolicy(2);
 * const step = new PolicyStep(policy, createOptimizer('sgd', 0.1));
 * policy.logits(Int32Array.of(5), 1, new Float64Array(2)); // six rows now
 * step.begin();
 * step.apply(Int32Array.of(3, 3), 2, Float64Array.of(1, -1, 1, -1)); // row 3 moves by −0.1 · (2, −2)
 * step.moved(); // Int32Array [3]
 * ```
 */
export class PolicyStep {
  readonly #policy: Policy;
  readonly #optimizer: Optimizer;
  /** True when only the rows' blocks are touched (see the class). */
  readonly #sparse: boolean;
  /** Whether an `apply` since `begin` stepped θ whole (then any row may have moved). */
  #whole = false;
  /** ∂L/∂θ; all zeros between steps. */
  #grad = new Float64Array(0);
  /** The distinct observations of one `apply`, then of all since `begin` (sparse path). */
  #blocks = new Int32Array(16);
  #moved = new Int32Array(16);
  #movedCount = 0;
  /** Views of `#moved` by length, so that `moved` allocates nothing. */
  #movedViews: Int32Array[] = [];
  /** Per observation, the stamp of the last `apply` and of the last `begin` that met it. */
  #applyMark = new Int32Array(0);
  #beginMark = new Int32Array(0);
  #applyStamp = 0;
  /** 1, not 0 (the marks' initial value): `apply` before any `begin` lists its observations too. */
  #beginStamp = 1;

  /**
   * @param policy - the policy whose θ the steps update
   * @param optimizer - the optimiser on `policy.parameters`
   */
  constructor(policy: Policy, optimizer: Optimizer) {
    this.#policy = policy;
    this.#optimizer = optimizer;
    this.#sparse = stepsBlocksOnly(policy, optimizer);
  }

  /** Starts an update: {@link PolicyStep.moved} then lists what the following `apply` calls move. */
  begin(): void {
    this.#whole = false;
    this.#beginStamp++;
    this.#movedCount = 0;
  }

  /**
   * Back-propagates the logit gradients of `rows` rows and takes one optimiser step.
   *
   * @param observations - the batch of the rows' observations (see `Policy.logits`)
   * @param rows - number of rows
   * @param logitGrad - ∂L/∂z of row r at `logitGrad[r · actions .. (r + 1) · actions)`
   */
  apply(observations: ObservationRows, rows: number, logitGrad: Float64Array): void {
    const policy = this.#policy;
    const A = policy.numActions;
    const parameters = policy.parameters;
    if (this.#grad.length < parameters.length) {
      const grown = new Float64Array(Math.max(parameters.length, 2 * this.#grad.length));
      // The buffer is all zeros between steps, so a new one (zeros) loses nothing.
      this.#grad = grown;
    }
    const grad = this.#grad;
    // θ whole when it must be, or when it is no larger than the rows' blocks (a bandit's few rows): the
    // blocks' bookkeeping would cost more than it saves.
    if (!this.#sparse || parameters.length <= rows * A) {
      this.#whole = true;
      policy.backward(observations, rows, logitGrad, grad);
      this.#optimizer.step(parameters, grad);
      for (let i = 0; i < parameters.length; i++) grad[i] = 0; // a loop: fill() costs more for a few
      return;
    }
    const count = this.#distinct(observations, rows);
    const blocks = this.#blocks;
    policy.backward(observations, rows, logitGrad, grad);
    this.#optimizer.stepBlocks!(parameters, grad, blocks, count, A);
    for (let b = 0; b < count; b++) {
      const from = blocks[b]! * A;
      for (let i = from; i < from + A; i++) grad[i] = 0;
    }
  }

  /**
   * The observations whose logits the `apply` calls since {@link PolicyStep.begin} may have moved,
   * distinct, in increasing order; null when any observation's may have: θ shared between observations,
   * an optimiser that moves parameters without gradient, or a θ no larger than the rows' blocks (then
   * stepped whole, which costs less).
   *
   * @returns a view valid until the next `begin` or `apply`, or null
   */
  moved(): Int32Array | null {
    if (this.#whole) return null;
    const count = this.#movedCount;
    const view = (this.#movedViews[count] ??= this.#moved.subarray(0, count));
    return count > 1 ? view.sort() : view;
  }

  /**
   * Puts the distinct observations of the rows into `#blocks` (in the order met) and adds those new to
   * this update to `#moved`; returns how many `#blocks` holds. O(rows), with one mark per observation.
   */
  #distinct(observations: ObservationRows, rows: number): number {
    let known = this.#applyMark.length;
    for (let r = 0; r < rows; r++) known = Math.max(known, observations[r]! + 1);
    if (known > this.#applyMark.length) {
      const size = Math.max(known, 2 * this.#applyMark.length);
      this.#applyMark = grown(this.#applyMark, size);
      this.#beginMark = grown(this.#beginMark, size);
    }
    if (this.#blocks.length < rows) this.#blocks = new Int32Array(2 * rows);
    const applyStamp = ++this.#applyStamp;
    const beginStamp = this.#beginStamp;
    const applyMark = this.#applyMark;
    const beginMark = this.#beginMark;
    const blocks = this.#blocks;
    let count = 0;
    for (let r = 0; r < rows; r++) {
      const o = observations[r]!;
      if (applyMark[o] === applyStamp) continue;
      applyMark[o] = applyStamp;
      blocks[count++] = o;
      if (beginMark[o] === beginStamp) continue;
      beginMark[o] = beginStamp;
      if (this.#movedCount === this.#moved.length) {
        this.#moved = grown(this.#moved, 2 * this.#moved.length);
        this.#movedViews = [];
      }
      this.#moved[this.#movedCount++] = o;
    }
    return count;
  }
}
