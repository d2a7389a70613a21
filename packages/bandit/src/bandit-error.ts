/**
 * The stable codes of {@link BanditError}. Programs branch on these; the message is for people.
 *
 * - `RESET_REQUIRED`: `step` was called before the first `reset`, or again after the one-step episode
 *   terminated without a `reset` in between.
 * - `NOT_RESEEDABLE`: `reset({ seed })` was asked of an environment that draws from an injected `random`
 *   function, which the environment cannot re-seed.
 */
export type BanditErrorCode = 'RESET_REQUIRED' | 'NOT_RESEEDABLE';

/**
 * A domain error of `@ftw/bandit`: the call was well-formed but the environment's state does not allow it.
 * Argument errors (a bad mean, an action out of range) are `RangeError`/`TypeError` instead.
 *
 * @example
 * ```ts
 * const env = new BernoulliBandit({ probabilities: [0.2, 0.8] });
 * try {
 *   env.step(0);
 * } catch (error) {
 *   if (error instanceof BanditError) console.log(error.code);
 *   // RESET_REQUIRED
 * }
 * ```
 */
export class BanditError extends Error {
  /** Stable machine-readable code. */
  readonly code: BanditErrorCode;

  /**
   * @param code - the stable code
   * @param message - what went wrong and what to do, for people
   */
  constructor(code: BanditErrorCode, message: string) {
    super(`${code}: ${message}`);
    this.name = 'BanditError';
    this.code = code;
  }
}
