/**
 * What `ftw` prints after "the run failed:". An error that carries a string `code` (the `@ftw` packages'
 * domain errors, such as `RedisPoolError` `CONNECTION_LOST`, and Node's system errors, such as `ENOENT`)
 * says what went wrong by itself: its name and message, and its cause's message, on one line. Anything
 * else is a bug, so its stack trace is printed, which is what a report of it needs.
 *
 * @param error - what the command threw
 * @returns the text to print
 * @example
 * ```ts
 * describeFailure(new RedisPoolError('NO_POLICY', 'no policy was published yet')); // 'RedisPoolError: NO_POLICY: no policy was published yet'
 * describeFailure(new TypeError('x is undefined')); // 'TypeError: x is undefined\n    at …'
 * ```
 */
export function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (typeof (error as { code?: unknown }).code !== 'string') {
    return error.stack ?? `${error.name}: ${error.message}`;
  }
  const cause = error.cause instanceof Error && error.cause.message !== '' ? ` (${error.cause.message})` : '';
  return `${error.name}: ${error.message}${cause}`;
}
