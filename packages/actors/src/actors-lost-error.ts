/**
 * The learner's actors are gone: no episode arrived for `waitSeconds`, the caller's `abort` rejected, or an
 * actor of an {@link ActorCrew} exited with its restarts used up.
 */
export class ActorsLostError extends Error {
  /** Stable code, so that a CLI prints the message on one line. */
  readonly code = 'ACTORS_LOST';
  override readonly name = 'ActorsLostError';
}
