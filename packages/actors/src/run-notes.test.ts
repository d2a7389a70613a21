import { RedisPool, type RedisServer, startRedisServer } from '@ftw/redis-pool';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActorsError } from './actors-error.js';
import { checkRunNotes, type PolicyArchitecture, writeRunNotes } from './run-notes.js';

let server: RedisServer | undefined;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server?.stop();
});

const LINEAR: PolicyArchitecture = { kind: 'linear', numActions: 4, observationSize: 84, parameters: 336 };
let pools = 0;
const open = () => RedisPool.open(server!.url, { name: `notes-${process.pid}-${pools++}`, capacity: 1 });

describe('checkRunNotes', () => {
  it('accepts the run and architecture its learner wrote, and returns the run id', async () => {
    const pool = await open();
    await writeRunNotes(pool, 'run-a', LINEAR);
    expect(await checkRunNotes(pool, { runId: 'run-a', architecture: LINEAR })).toBe('run-a');
    expect(await checkRunNotes(pool, { runId: null, architecture: LINEAR })).toBe('run-a');
    await pool.close();
  });

  it('refuses each field of the architecture that differs, naming it and both values', async () => {
    const pool = await open();
    await writeRunNotes(pool, 'run-a', LINEAR);
    const differing: [keyof PolicyArchitecture, string | number | null, string][] = [
      ['kind', 'mlp', 'kind "linear", this actor\'s has kind "mlp"'],
      ['numActions', 5, "numActions 4, this actor's has numActions 5"],
      ['observationSize', 83, "observationSize 84, this actor's has observationSize 83"],
      ['parameters', null, "parameters 336, this actor's has parameters null"],
    ];
    for (const [field, value, message] of differing) {
      const error = await checkRunNotes(pool, {
        runId: 'run-a',
        architecture: { ...LINEAR, [field]: value },
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ActorsError);
      expect((error as ActorsError).code).toBe('ARCHITECTURE_MISMATCH');
      expect((error as Error).message).toBe(`ARCHITECTURE_MISMATCH: the learner's policy has ${message}`);
    }
    await pool.close();
  });

  it('refuses a pool of another run, and one without notes', async () => {
    const pool = await open();
    await expect(checkRunNotes(pool, { runId: 'run-a', architecture: LINEAR })).rejects.toThrow(
      'NO_RUN_NOTES: the pool has no run notes',
    );
    await writeRunNotes(pool, 'run-a', LINEAR);
    await expect(checkRunNotes(pool, { runId: 'run-b', architecture: LINEAR })).rejects.toThrow(
      'RUN_MISMATCH: the pool\'s versions are published by run "run-a", this actor belongs to run "run-b"',
    );
    await pool.close();
  });
});

describe('writeRunNotes', () => {
  it('refuses a pool that another run wrote, leaving its notes as they were', async () => {
    const pool = await open();
    await writeRunNotes(pool, 'run-a', LINEAR);
    await expect(writeRunNotes(pool, 'run-b', { ...LINEAR, kind: 'mlp' })).rejects.toThrow(
      'RUN_MISMATCH: the pool belongs to run "run-a", not to this run "run-b"',
    );
    expect(await checkRunNotes(pool, { runId: 'run-a', architecture: LINEAR })).toBe('run-a');
    await pool.close();
  });
});
