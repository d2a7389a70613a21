import type { ObservationRows, Policy } from './policy.js';

/** Rows allocated at first when no observation count is given; capacity then doubles as rows are met. */
const INITIAL_ROWS = 8;

/**
 * A tabular softmax policy: one row of logits per observation id, π(a | o) = softmax(z_o)_a, and θ is the
 * table itself (row-major, observations × actions), so ∂z_o/∂θ is the identity on row o. Its
 * observations are integer ids, one number per row (d = 1), in any of the batch's array types.
 *
 * Rows are created on first use, initialised to 0 (uniform): `logits` of an id not met yet adds the rows
 * up to it. Ids are dense (see `Environment.observationCount`), so the table holds
 * `observations × numActions` numbers; its buffer doubles when full, so growth costs O(1) amortised per
 * row. An environment that knows its observation count in advance (a bandit) can pass it to the
 * constructor.
 *
 * @example
 * ```ts
 * const policy = new TabularPolicy(2); // no rows yet
 * policy.logits(Int32Array.of(1), 1, new Float64Array(2)); // Float64Array [0, 0]; rows 0 and 1 now exist
 * policy.observations; // 2
 * policy.parameters.length; // 4
 * policy.memoryBytes; // 128: a buffer of 8 rows × 2 actions × 8 bytes
 * ```
 */
export class TabularPolicy implements Policy {
  /** Number of actions (columns). */
  readonly numActions: number;
  /** One id per observation. */
  readonly observationSize = 1;
  /** θ is the table of logits itself (see `Policy.logitsAreParameters`). */
  readonly logitsAreParameters = true;
  #buffer: Float64Array;
  #parameters: Float64Array;
  #rows = 0;

  /**
   * @param numActions - number of actions (≥ 1)
   * @param observations - rows to create now (≥ 0), e.g. a bandit's number of tasks
   * @throws RangeError when `numActions` is not an integer ≥ 1 or `observations` not an integer ≥ 0
   */
  constructor(numActions: number, observations = 0) {
    if (!Number.isInteger(numActions) || numActions < 1) {
      throw new RangeError(`numActions must be an integer >= 1, got ${String(numActions)}`);
    }
    if (!Number.isInteger(observations) || observations < 0) {
      throw new RangeError(`observations must be an integer >= 0, got ${String(observations)}`);
    }
    this.numActions = numActions;
    this.#buffer = new Float64Array(Math.max(observations, INITIAL_ROWS) * numActions);
    this.#parameters = this.#buffer.subarray(0, 0);
    if (observations > 0) this.#grow(observations);
  }

  /** θ: the table, `observations × numActions`, row-major. A new array after the table grows. */
  get parameters(): Float64Array {
    return this.#parameters;
  }

  /** Rows created so far: observation ids 0 … observations − 1. */
  get observations(): number {
    return this.#rows;
  }

  /** Bytes of the table's buffer (capacity included). */
  get memoryBytes(): number {
    return this.#buffer.byteLength;
  }

  /**
   * Writes the rows of a batch of ids into `out`, creating the rows up to each id that is new when no
   * snapshot is given.
   *
   * @param observations - ids (integers ≥ 0), one per row
   * @param rows - number of rows
   * @param out - receives `numActions` logits per row
   * @param parameters - read this table snapshot instead (rows beyond its end read as 0)
   * @returns `out`
   * @throws RangeError when an id is not an integer ≥ 0
   */
  logits(
    observations: ObservationRows,
    rows: number,
    out: Float64Array,
    parameters?: Float64Array,
  ): Float64Array {
    for (let r = 0; r < rows; r++) this.#row(observations[r]!, out, r * this.numActions, parameters);
    return out;
  }

  /**
   * Adds g_r to row o_r of `grad` for each row in order (the table is its own logits, so the Jacobian is
   * the identity on the row).
   *
   * @param observations - ids, one per row
   * @param rows - number of rows
   * @param logitGrad - g_r at `logitGrad[r · numActions .. (r + 1) · numActions)`
   * @param grad - ∂L/∂θ, added to in place
   */
  backward(observations: ObservationRows, rows: number, logitGrad: Float64Array, grad: Float64Array): void {
    const A = this.numActions;
    for (let r = 0; r < rows; r++) {
      const base = observations[r]! * A;
      const offset = r * A;
      for (let a = 0; a < A; a++) grad[base + a] = grad[base + a]! + logitGrad[offset + a]!;
    }
  }

  #row(observation: number, out: Float64Array, offset: number, parameters: Float64Array | undefined): void {
    const A = this.numActions;
    const base = observation * A;
    if (parameters !== undefined) {
      if (base + A <= parameters.length) for (let a = 0; a < A; a++) out[offset + a] = parameters[base + a]!;
      else out.fill(0, offset, offset + A);
      return;
    }
    if (observation >= this.#rows) {
      if (!Number.isInteger(observation)) {
        throw new RangeError(`observation must be an integer >= 0, got ${String(observation)}`);
      }
      this.#grow(observation + 1);
    } else if (!(observation >= 0 && Number.isInteger(observation))) {
      throw new RangeError(`observation must be an integer >= 0, got ${String(observation)}`);
    }
    const table = this.#parameters;
    for (let a = 0; a < A; a++) out[offset + a] = table[base + a]!;
  }

  #grow(rows: number): void {
    const A = this.numActions;
    if (rows * A > this.#buffer.length) {
      let capacity = this.#buffer.length / A;
      while (capacity < rows) capacity *= 2;
      const buffer = new Float64Array(capacity * A);
      buffer.set(this.#parameters);
      this.#buffer = buffer;
    }
    this.#rows = rows;
    this.#parameters = this.#buffer.subarray(0, rows * A);
  }
}
