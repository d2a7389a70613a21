/**
 * A run folder that cannot be shown: missing, not a run, a run of a command without learning curves, of an
 * older format, or with a file that is not valid JSON. Thrown by `readRunFolder` before anything is drawn.
 *
 * @example
 * ```ts
 * try {
 *   await readRunFolder('runs/nothing-here');
 * } catch (error) {
 *   if (error instanceof RunFolderError) console.error(error.code, error.message);
 *   // FTW_RUN_FOLDER run folder "runs/nothing-here" does not exist
 * }
 * ```
 */
export class RunFolderError extends Error {
  /** Stable code for programs that catch it. */
  readonly code = 'FTW_RUN_FOLDER' as const;

  /**
   * @param message - what is wrong, naming the folder or file (and line) and what a run folder holds
   */
  constructor(message: string) {
    super(message);
    this.name = 'RunFolderError';
  }
}
