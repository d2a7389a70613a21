/**
 * The model side of the runner's training loop: a softmax policy over a fixed number of actions whose
 * logits for an observation id are a differentiable function of a parameter vector θ. Every updater
 * computes ∂L/∂z (the loss's gradient with respect to the logits of each row it trains on, closed-form in
 * `@ftw/objective`) and hands it to {@link Policy.backward}, which turns it into ∂L/∂θ; the optimiser
 * then updates θ. So an updater never needs to know what the policy is.
 *
 * Implementations: `TabularPolicy` (θ = one row of logits per observation id, rows created on first
 * use); a linear softmax policy (θ = a weight matrix W, z(o) = W φ(o) with the environment's features
 * φ) implements the same four members.
 *
 * Growth: θ may grow (a tabular policy meets a new observation). Growth appends parameters initialised
 * to 0, so a snapshot of an earlier θ (shorter) reads as 0 beyond its end; `parameters` may then return
 * a new array, so read it afresh after any call that can grow it (`logits` without a snapshot).
 * Optimisers accept a parameter vector longer than at their previous step (see `createOptimizer`).
 *
 * @example
 * ```ts
 * const policy: Policy = new TabularPolicy(2);
 * const z = policy.logits(0, new Float64Array(2)); // Float64Array [0, 0]: row 0 created, uniform
 * const grad = new Float64Array(policy.parameters.length);
 * policy.backward(0, Float64Array.of(0.5, -0.5), 0, grad); // grad = [0.5, -0.5]
 * ```
 */
export interface Policy {
  /** Number of actions (logits per observation). */
  readonly numActions: number;
  /** θ, the vector the optimiser updates in place. Its length may grow (see above). */
  readonly parameters: Float64Array;
  /** Bytes held for θ and any per-observation state (reported per run). */
  readonly memoryBytes: number;
  /**
   * True for a policy whose parameters are its logits, one block of `numActions` per observation
   * (θ[o · numActions + a] = z(o)_a, as a tabular policy's): a gradient step then moves only the blocks
   * of the observations it trained on, which `PolicyStep` uses to skip the others. Absent or false: a
   * parameter may feed the logits of any observation.
   */
  readonly logitsAreParameters?: boolean;
  /**
   * Writes the logits z(o) of an observation into `out[offset .. offset + numActions)`.
   * @param observation - an observation id (≥ 0)
   * @param out - receives the logits
   * @param offset - where they start in `out` (default 0), so a batch of rows needs no views
   * @param parameters - evaluate at this θ (a snapshot; entries beyond its end read as 0) instead of the
   *   current one; with a snapshot the policy never grows
   * @returns `out`
   */
  logits(observation: number, out: Float64Array, offset?: number, parameters?: Float64Array): Float64Array;
  /**
   * Back-propagates a gradient with respect to the logits of one observation: adds (∂z(o)/∂θ)ᵀ g to `grad`.
   * @param observation - the observation whose logits the gradient is for (already met by `logits`)
   * @param logitGrad - holds g = ∂L/∂z(o) at `logitGrad[offset .. offset + numActions)`
   * @param offset - where g starts in `logitGrad`
   * @param grad - ∂L/∂θ accumulated so far, at least `parameters.length` long; added to in place
   */
  backward(observation: number, logitGrad: Float64Array, offset: number, grad: Float64Array): void;
}
