import { describe, expect, it } from 'vitest';
import { describeFault } from './run-faults.js';

describe('describeFault', () => {
  it('says what happened, at what time of day in UTC', () => {
    expect(describeFault({ kind: 'server-unreachable', at: 5000, durationMs: 5120 })).toBe(
      '00:00:05.0 UTC: the Redis server did not answer the learner for 5.1 s',
    );
    expect(
      describeFault({
        kind: 'actor-exit',
        at: 3_600_000,
        actor: 1,
        code: null,
        signal: 'SIGKILL',
        restart: 2,
      }),
    ).toBe('01:00:00.0 UTC: actor 1 exited (SIGKILL), replaced (restart 2)');
    expect(describeFault({ kind: 'actor-exit', at: 0, actor: 0, code: 3, signal: null, restart: null })).toBe(
      '00:00:00.0 UTC: actor 0 exited (code 3), not replaced (restarts used up)',
    );
    expect(describeFault({ kind: 'learner-restart', at: 61_000, iteration: 20, redone: 3 })).toBe(
      '00:01:01.0 UTC: the learner restarted from its checkpoint after iteration 20 (3 later update(s) lost and made again)',
    );
  });
});
