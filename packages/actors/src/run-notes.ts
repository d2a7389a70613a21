import type { RedisPool } from '@ftw/redis-pool';
import type { Policy } from '@ftw/trainer';
import { ActorsError } from './actors-error.js';

/** The keys of the notes a learner leaves in its pool for the actors that join it. */
export const RUN_NOTES = {
  /** The run id: actors of another run refuse the pool, and a learner refuses a pool of another run. */
  run: 'run',
  /** JSON of {@link PolicyArchitecture}: what θ means. */
  architecture: 'architecture',
} as const;

/**
 * What θ means, so that an actor refuses to act with versions it would misread: the policy's kind (any
 * label the application chooses, e.g. `linear`, `mlp:64,64`), its actions and observation size, and θ's
 * length (null for a policy whose θ grows, such as a table that meets new ids).
 */
export interface PolicyArchitecture {
  readonly kind: string;
  readonly numActions: number;
  readonly observationSize: number;
  readonly parameters: number | null;
}

/**
 * The architecture of a policy.
 *
 * @param kind - the application's name of the policy's kind
 * @param policy - the policy
 * @returns its architecture (θ's length null when `logitsAreParameters`: a table grows)
 * @example
 * ```ts
 * describeArchitecture('linear', new LinearPolicy(4, 84)); // { kind: 'linear', numActions: 4, observationSize: 84, parameters: 336 }
 * ```
 */
export function describeArchitecture(kind: string, policy: Policy): PolicyArchitecture {
  return {
    kind,
    numActions: policy.numActions,
    observationSize: policy.observationSize,
    parameters: policy.logitsAreParameters === true ? null : policy.parameters.length,
  };
}

/**
 * Leaves the run's notes in a pool (learner side), after checking that the pool is not another run's.
 *
 * @param pool - the learner's pool
 * @param runId - the run's id
 * @param architecture - what θ means
 * @throws ActorsError `RUN_MISMATCH` when the pool already carries another run's id (its versions would
 *   mix with this run's); RedisPoolError `CONNECTION_LOST`
 * @example
 * ```ts
 * await writeRunNotes(pool, 'run-7', describeArchitecture('linear', policy));
 * ```
 */
export async function writeRunNotes(
  pool: Pick<RedisPool, 'readNote' | 'writeNote'>,
  runId: string,
  architecture: PolicyArchitecture,
): Promise<void> {
  const other = await pool.readNote(RUN_NOTES.run);
  if (other !== undefined && other !== runId) {
    throw new ActorsError(
      'RUN_MISMATCH',
      `the pool belongs to run ${JSON.stringify(other)}, not to this run ${JSON.stringify(runId)}: use a fresh pool name`,
    );
  }
  await pool.writeNote(RUN_NOTES.architecture, JSON.stringify(architecture));
  await pool.writeNote(RUN_NOTES.run, runId);
}

/**
 * Checks that an actor belongs to the pool it joins (actor side): the pool's run id is the one expected
 * (when one is), and the learner's policy has the actor's architecture.
 *
 * @param pool - the pool joined
 * @param expected - the run id the actor was started for (or null: any), and its own policy's architecture
 * @returns the pool's run id
 * @throws ActorsError `NO_RUN_NOTES` when the learner left no notes; `RUN_MISMATCH` naming both ids;
 *   `ARCHITECTURE_MISMATCH` naming the first field that differs and both values
 * @example
 * ```ts
 * await checkRunNotes(pool, { runId: task.runId, architecture: describeArchitecture('linear', policy) });
 * ```
 */
export async function checkRunNotes(
  pool: Pick<RedisPool, 'readNote'>,
  expected: { readonly runId: string | null; readonly architecture: PolicyArchitecture },
): Promise<string> {
  const [runId, text] = await Promise.all([
    pool.readNote(RUN_NOTES.run),
    pool.readNote(RUN_NOTES.architecture),
  ]);
  if (runId === undefined || text === undefined) {
    throw new ActorsError(
      'NO_RUN_NOTES',
      'the pool has no run notes: its learner did not call writeRunNotes',
    );
  }
  if (expected.runId !== null && runId !== expected.runId) {
    throw new ActorsError(
      'RUN_MISMATCH',
      `the pool's versions are published by run ${JSON.stringify(runId)}, this actor belongs to run ${JSON.stringify(expected.runId)}`,
    );
  }
  let theirs: Partial<PolicyArchitecture>;
  try {
    theirs = JSON.parse(text) as Partial<PolicyArchitecture>;
  } catch {
    throw new ActorsError('NO_RUN_NOTES', `the pool's architecture note is not JSON: ${text.slice(0, 80)}`);
  }
  for (const field of ['kind', 'numActions', 'observationSize', 'parameters'] as const) {
    if (theirs[field] !== expected.architecture[field]) {
      throw new ActorsError(
        'ARCHITECTURE_MISMATCH',
        `the learner's policy has ${field} ${JSON.stringify(theirs[field])}, this actor's has ${field} ${JSON.stringify(expected.architecture[field])}`,
      );
    }
  }
  return runId;
}
