/**
 * The stable codes of {@link SokobanError}. Programs branch on these; the message is for people.
 *
 * - `MALFORMED_LEVEL`: a level (object or text) breaks a rule: unknown character or tile code, not
 *   exactly one player, no box, boxes and targets in different numbers, or a player area open to the
 *   edge of the board. Text errors name the line.
 * - `UNSOLVABLE_LEVEL`: the solver proved that a level handed to {@link SokobanEnv} has no solution.
 * - `SOLVER_LIMIT`: the solver gave up at its state limit before it could certify a level.
 * - `GENERATION_FAILED`: {@link generateLevel} found no level meeting the difficulty range within its
 *   attempts.
 * - `RESET_REQUIRED`: `step` before the first `reset`, or after the episode ended.
 * - `INVALID_ACTION`: a text action could not be parsed (and the caller asked for errors, not penalties).
 * - `INVALID_SOLUTION`: a `Solution:` line of a level file makes an impossible move or leaves a box off
 *   target.
 * - `NOT_RESEEDABLE`: `reset({ seed })` on an environment that draws from an injected `random` function.
 * - `LEVELS_EXHAUSTED`: {@link levelSplit} asked for more distinct levels than its setting's stream gives.
 */
export type SokobanErrorCode =
  | 'MALFORMED_LEVEL'
  | 'UNSOLVABLE_LEVEL'
  | 'SOLVER_LIMIT'
  | 'GENERATION_FAILED'
  | 'RESET_REQUIRED'
  | 'INVALID_ACTION'
  | 'NOT_RESEEDABLE'
  | 'INVALID_SOLUTION'
  | 'LEVELS_EXHAUSTED';

/**
 * A domain error of `@ftw/sokoban`: a level, a text or the environment's state does not allow the call.
 * Argument errors of the wrong type or range (an action of 7, a width of 0) are `TypeError`/`RangeError`.
 *
 * @example
 * ```ts
 * try {
 *   parseLevel('#####\n#@ .#\n#####');
 * } catch (error) {
 *   if (error instanceof SokobanError) console.log(error.code);
 *   // MALFORMED_LEVEL
 * }
 * ```
 */
export class SokobanError extends Error {
  /** Stable machine-readable code. */
  readonly code: SokobanErrorCode;

  /**
   * @param code - the stable code
   * @param message - what went wrong and what to do, for people
   */
  constructor(code: SokobanErrorCode, message: string) {
    super(`${code}: ${message}`);
    this.name = 'SokobanError';
    this.code = code;
  }
}
