/**
 * A batch of observations as a policy reads it: `rows × observationSize` numbers, row-major (row r at
 * `[r · d, (r + 1) · d)`). A feature tensor for a linear layer or a network; for a tabular policy
 * (d = 1), one integer id per row, the environment's own encoding.
 */
export type ObservationRows = Float64Array | Float32Array | Int32Array;

/**
 * One observation as an environment hands it out: a number (an id, d = 1) or `observationSize` numbers.
 */
export type Observation = number | ArrayLike<number>;

/**
 * A softmax policy over a fixed number of actions whose logits are a differentiable function of a
 * parameter vector θ, batched: a batch of observations in, a batch of logits out, a batch of ∂L/∂logits
 * back. Every updater computes ∂L/∂z (closed-form in `@ftw/objective`) for the rows it trains on and
 * hands the batch to {@link Policy.backward}, which adds ∂L/∂θ; the optimiser then updates θ. So an
 * updater never needs to know what the policy is: a table, a linear layer and a network all fit.
 *
 * Growth: θ may grow (a tabular policy meets a new id). Growth appends parameters initialised to 0, so a
 * snapshot of an earlier θ (shorter) reads as 0 beyond its end; `parameters` may then return a new
 * array, so read it afresh after any call that can grow it (`logits` without a snapshot). Optimisers
 * accept a parameter vector longer than at their previous step.
 *
 * @example
 * ```ts
 * const policy: Policy = new TabularPolicy(2);
 * const z = policy.logits(Int32Array.of(0, 1), 2, new Float64Array(4)); // [0, 0, 0, 0]: rows 0, 1 created
 * const grad = new Float64Array(policy.parameters.length);
 * policy.backward(Int32Array.of(1), 1, Float64Array.of(0.5, -0.5), grad); // grad = [0, 0, 0.5, -0.5]
 * ```
 */
export interface Policy {
  /** Number of actions (logits per observation). */
  readonly numActions: number;
  /** Numbers per observation, d (1 for an id). */
  readonly observationSize: number;
  /** θ, the vector the optimiser updates in place. Its length may grow (see above). */
  readonly parameters: Float64Array;
  /** Bytes held for θ and any per-observation state. */
  readonly memoryBytes: number;
  /**
   * True for a policy whose parameters are its logits, one block of `numActions` per observation, and
   * whose observations (d = 1) are the blocks' indices: θ[o · numActions + a] = z(o)_a, as a tabular
   * policy's. A gradient step then moves only the blocks of the rows it trained on, which the optimiser
   * step uses to skip the others. Absent or false: a parameter may feed the logits of any observation.
   */
  readonly logitsAreParameters?: boolean;
  /**
   * Writes the logits of a batch: z(o_r) into `out[r · numActions .. (r + 1) · numActions)`.
   * @param observations - the batch, `rows × observationSize` numbers
   * @param rows - number of rows
   * @param out - receives `rows × numActions` logits
   * @param parameters - evaluate at this θ (a snapshot; entries beyond its end read as 0) instead of the
   *   current one; with a snapshot the policy never grows
   * @returns `out`
   */
  logits(
    observations: ObservationRows,
    rows: number,
    out: Float64Array,
    parameters?: Float64Array,
  ): Float64Array;
  /**
   * Back-propagates a batch of logit gradients: adds Σ_r (∂z(o_r)/∂θ)ᵀ g_r to `grad`, row by row in order.
   * @param observations - the batch (already met by `logits`)
   * @param rows - number of rows
   * @param logitGrad - g_r = ∂L/∂z(o_r) at `logitGrad[r · numActions .. (r + 1) · numActions)`
   * @param grad - ∂L/∂θ accumulated so far, at least `parameters.length` long; added to in place
   */
  backward(observations: ObservationRows, rows: number, logitGrad: Float64Array, grad: Float64Array): void;
}
