/**
 * A bad flag, a bad configuration value or a bad configuration file: the run never started.
 *
 * The CLI maps it to exit code 2 (any other error while running gives exit code 1). The message names the
 * flag or configuration key, the value received and what is allowed.
 *
 * @example
 * ```ts
 * throw new UsageError('--lr must be a finite number > 0, got "fast"');
 * // stderr: error: --lr must be a finite number > 0, got "fast"   (exit code 2)
 * ```
 */
export class UsageError extends Error {
  /** Stable code for programs that catch it. */
  readonly code = 'FTW_USAGE' as const;
  /** The process exit code the CLI uses for it. */
  readonly exitCode = 2 as const;
  /** Whether the CLI adds "(run with --help for usage)" under the message. */
  readonly helpHint: boolean;

  /**
   * @param message - what was wrong, naming the flag or key, the value and what is allowed
   * @param options - `helpHint: false` for a message that says all there is to do (an output path)
   */
  constructor(message: string, options: { readonly helpHint?: boolean } = {}) {
    super(message);
    this.helpHint = options.helpHint ?? true;
    this.name = 'UsageError';
  }
}
