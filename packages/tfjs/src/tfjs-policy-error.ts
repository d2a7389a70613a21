/**
 * Stable codes of {@link TfjsPolicyError}:
 * - `OBSERVATION_SIZE_MISMATCH`: a batch holds fewer numbers than `rows × observationSize` (the network's
 *   input shape);
 * - `INVALID_POLICY_FILE`: a saved policy is not JSON, or not a record of this package (format, kind,
 *   architecture fields);
 * - `ARCHITECTURE_MISMATCH`: a saved policy's architecture differs from the policy loading it;
 * - `PARAMETER_COUNT_MISMATCH`: a saved policy holds another number of weights than its architecture has;
 * - `NON_FINITE_WEIGHT`: a saved weight is NaN, infinite or not a number.
 */
export type TfjsPolicyErrorCode =
  | 'OBSERVATION_SIZE_MISMATCH'
  | 'INVALID_POLICY_FILE'
  | 'ARCHITECTURE_MISMATCH'
  | 'PARAMETER_COUNT_MISMATCH'
  | 'NON_FINITE_WEIGHT';

/**
 * A domain error of `@ftw/tfjs`: a batch that does not fit the network, or a saved policy that cannot be
 * loaded. The message names the field and the value received; a refused load leaves the policy unchanged.
 * Argument errors (an option out of range) are `RangeError`/`TypeError`.
 *
 * @example
 * ```ts
 * try {
 *   policy.load(JSON.parse(line));
 * } catch (error) {
 *   if (error instanceof TfjsPolicyError) console.log(error.code, error.field); // e.g. NON_FINITE_WEIGHT parameters[17]
 * }
 * ```
 */
export class TfjsPolicyError extends Error {
  /** Stable code, for programs. */
  readonly code: TfjsPolicyErrorCode;
  /** The field at fault, e.g. `observations`, `architecture.hiddenSizes`, `parameters[17]`. */
  readonly field: string;

  /**
   * @param code - the stable code
   * @param field - the field at fault
   * @param message - what happened, naming the field and the value
   */
  constructor(code: TfjsPolicyErrorCode, field: string, message: string) {
    super(`${code}: ${message}`);
    this.name = 'TfjsPolicyError';
    this.code = code;
    this.field = field;
  }
}
