/**
 * The stable codes of {@link ObjectiveError}. Programs branch on these; the message is for people.
 *
 * - `NON_FINITE_RESULT`: every argument is valid but their combination has no finite value, e.g. a PPO
 *   importance ratio `e^{log π − log q}` so large that `ratio × advantage` overflows.
 */
export type ObjectiveErrorCode = 'NON_FINITE_RESULT';

/**
 * A domain error of `@ftw/objective`: the call was well-formed but its result cannot be represented.
 * Argument errors (a shape mismatch, an action out of range) are `RangeError`/`TypeError` instead.
 * When a function throws, the contents of the `out` buffers it was given are unspecified.
 *
 * @example
 * ```ts
 * try {
 *   ppoClipLoss({
 *     logits: new Float64Array([0, 0]), rows: 1, actions: 2, selected: [0],
 *     behaviourLogProbs: [-1000], advantages: [-1],
 *   });
 * } catch (error) {
 *   if (error instanceof ObjectiveError) console.log(error.code);
 *   // NON_FINITE_RESULT
 * }
 * ```
 */
export class ObjectiveError extends Error {
  /** Stable machine-readable code. */
  readonly code: ObjectiveErrorCode;

  /**
   * @param code - the stable code
   * @param message - what went wrong and what to do, for people
   */
  constructor(code: ObjectiveErrorCode, message: string) {
    super(`${code}: ${message}`);
    this.name = 'ObjectiveError';
    this.code = code;
  }
}
