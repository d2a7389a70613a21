/**
 * The stable codes of {@link AgentDataError}. Programs branch on these; the message is for people.
 *
 * - `BAD_LINE`: a JSONL line is not valid JSON, or not a record of the input shape (strict mode only;
 *   otherwise the line is reported, skipped and counted).
 * - `EMPTY_WINDOW`: no valid trajectory was read, so there is nothing to select from.
 * - `POOL_TOO_SMALL`: the window (or every task's group) holds fewer trajectories than a minibatch `C`.
 * - `DUPLICATE_ID`: two trajectories in the window share an id, so the manifest could not tell them apart.
 * - `RUN_WARNING`: a valid run has a warning (no final answer, an undeclared tool, a duplicate tool-call
 *   id; see `RUN_WARNINGS`), in strict mode only; otherwise it is counted in the read statistics.
 * - `MIXED_ORDER`: some runs are ordered by `sequence`, others by `createdAt` or by their line, so "the
 *   newest N" is not defined.
 * - `EMPTY_DATASET`: the selection would write no line (a threshold that no run passes, or that no
 *   minibatch's runs passed); `buildDataset` writes nothing unless `allowEmpty` is set.
 */
export type AgentDataErrorCode =
  | 'BAD_LINE'
  | 'EMPTY_WINDOW'
  | 'POOL_TOO_SMALL'
  | 'DUPLICATE_ID'
  | 'RUN_WARNING'
  | 'MIXED_ORDER'
  | 'EMPTY_DATASET';

/**
 * A domain error of `@ftw/agent-data`: the call was well formed, but the data does not allow it.
 * Argument errors (a negative capacity, an unknown format) are `RangeError`/`TypeError` instead.
 *
 * @example
 * ```ts
 * try {
 *   await collectWindow(openTrajectories('runs.jsonl', { strict: true }), { capacity: 100 });
 * } catch (error) {
 *   if (error instanceof AgentDataError) console.log(error.code);
 *   // BAD_LINE
 * }
 * ```
 */
export class AgentDataError extends Error {
  /** Stable machine-readable code. */
  readonly code: AgentDataErrorCode;

  /**
   * @param code - the stable code
   * @param message - what went wrong and where, for people
   */
  constructor(code: AgentDataErrorCode, message: string) {
    super(message);
    this.name = 'AgentDataError';
    this.code = code;
  }
}
