/** The stable codes of {@link ActorsError}. */
export type ActorsErrorCode =
  /** The pool's learner trains a policy of another kind, action count, observation size or θ length. */
  | 'ARCHITECTURE_MISMATCH'
  /** The pool belongs to another run (its `run` note names another run id). */
  | 'RUN_MISMATCH'
  /** The pool's notes are missing or unreadable where a learner must have written them. */
  | 'NO_RUN_NOTES';

/**
 * A domain error of `@ftw/actors`: an actor or learner refused to join a pool it does not belong to.
 * Argument errors are `RangeError`/`TypeError`; this class is for what a pool holds.
 *
 * @example
 * ```ts
 * try { await checkRunNotes(pool, expected); }
 * catch (e) { if (e instanceof ActorsError && e.code === 'RUN_MISMATCH') console.error(e.message); }
 * ```
 */
export class ActorsError extends Error {
  /** What went wrong, stable across versions. */
  readonly code: ActorsErrorCode;
  override readonly name = 'ActorsError';

  /**
   * @param code - the stable code
   * @param message - what was expected and what was found
   */
  constructor(code: ActorsErrorCode, message: string) {
    super(`${code}: ${message}`);
    this.code = code;
  }
}
