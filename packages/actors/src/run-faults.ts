/** An actor process that exited while its crew ran (see `ActorCrew.exits`). */
export interface ActorExit {
  readonly kind: 'actor-exit';
  /** When the crew saw the exit (ms since the epoch). */
  readonly at: number;
  /** The actor's index in its crew. */
  readonly actor: number;
  /** Its exit code, or null when a signal ended it. */
  readonly code: number | null;
  /** The signal that ended it (e.g. `SIGKILL`), or null. */
  readonly signal: string | null;
  /** The replacement it led to (1 = the actor's first), or null when its restarts were used up. */
  readonly restart: number | null;
}

/** A stretch of time in which the Redis server answered none of the learner's heartbeats (see `ServerWatch`). */
export interface ServerOutage {
  readonly kind: 'server-unreachable';
  /** When the first unanswered heartbeat was sent (ms since the epoch). */
  readonly at: number;
  /** How long the server left it unanswered, in ms (time the learner's own event loop was blocked excluded). */
  readonly durationMs: number;
}

/**
 * The learner stopped (killed, crashed) and a new one resumed the run from its last checkpoint (see
 * `RedisLearnerOptions.resume`).
 */
export interface LearnerRestart {
  readonly kind: 'learner-restart';
  /** When the resumed learner opened the pool (ms since the epoch). */
  readonly at: number;
  /** Iterations the checkpoint held: the run goes on from the next. */
  readonly iteration: number;
  /** Updates the stopped learner had made after its checkpoint: lost with it, and made again. */
  readonly redone: number;
}

/** A fault a run over Redis survived or died of, as its report lists them. */
export type RunFault = ActorExit | ServerOutage | LearnerRestart;

/**
 * One line of text for a fault, its time of day in UTC.
 *
 * @param fault - the fault
 * @returns e.g. `06:01:02.3 UTC: actor 0 exited (SIGKILL), replaced (restart 1)`
 * @example
 * ```ts
 * describeFault({ kind: 'server-unreachable', at: 5000, durationMs: 5120 });
 * // '00:00:05.0 UTC: the Redis server did not answer the learner for 5.1 s'
 * ```
 */
export function describeFault(fault: RunFault): string {
  const when = `${new Date(fault.at).toISOString().slice(11, 21)} UTC`;
  if (fault.kind === 'server-unreachable') {
    return `${when}: the Redis server did not answer the learner for ${(fault.durationMs / 1000).toFixed(1)} s`;
  }
  if (fault.kind === 'learner-restart') {
    return `${when}: the learner restarted from its checkpoint after iteration ${fault.iteration} (${fault.redone} later update(s) lost and made again)`;
  }
  const how = fault.signal ?? `code ${fault.code}`;
  const then =
    fault.restart === null ? 'not replaced (restarts used up)' : `replaced (restart ${fault.restart})`;
  return `${when}: actor ${fault.actor} exited (${how}), ${then}`;
}
