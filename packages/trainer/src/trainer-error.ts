/**
 * Stable codes of {@link TrainerError}:
 * - `NON_FINITE_LOGITS`: a policy returned a NaN or infinite logit;
 * - `ACTION_COUNT_MISMATCH`: a policy's action count differs from its environment's;
 * - `OBSERVATION_SIZE_MISMATCH`: an observation's length differs from the policy's `observationSize`;
 * - `EPISODE_TOO_LONG`: an environment did not end an episode within the step limit;
 * - `ENV_MISMATCH`: environment instances stepped together differ in actions or observation size.
 */
export type TrainerErrorCode =
  | 'NON_FINITE_LOGITS'
  | 'ACTION_COUNT_MISMATCH'
  | 'OBSERVATION_SIZE_MISMATCH'
  | 'EPISODE_TOO_LONG'
  | 'ENV_MISMATCH';

/**
 * A domain error of `@ftw/trainer`: the combination of an environment and a policy, or what one of them
 * returned, cannot be trained on. Argument errors (an option out of range) are `RangeError`/`TypeError`.
 *
 * @example
 * ```ts
 * try {
 *   train({ env, policy, iterations: 10 });
 * } catch (error) {
 *   if (error instanceof TrainerError) console.log(error.code); // e.g. 'ACTION_COUNT_MISMATCH'
 * }
 * ```
 */
export class TrainerError extends Error {
  /** Stable code, for programs. */
  readonly code: TrainerErrorCode;

  /**
   * @param code - the stable code
   * @param message - what happened, naming the parameter and the value
   */
  constructor(code: TrainerErrorCode, message: string) {
    super(`${code}: ${message}`);
    this.name = 'TrainerError';
    this.code = code;
  }
}
