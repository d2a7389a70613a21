import { readFileSync } from 'node:fs';
import { RedisPoolError } from '@ftw/redis-pool';
import { PoolError } from '@ftw/replay-pool';
import { describe, expect, it } from 'vitest';
import { describeFailure } from './describe-failure.js';

describe('describeFailure', () => {
  it('prints a domain error on one line with its cause, without a stack trace', () => {
    const refused = new Error('connect ECONNREFUSED 127.0.0.1:1');
    const error = new RedisPoolError('CONNECTION_LOST', 'could not connect to redis://127.0.0.1:1', {
      cause: refused,
    });
    expect(describeFailure(error)).toBe(
      'RedisPoolError: CONNECTION_LOST: could not connect to redis://127.0.0.1:1 (connect ECONNREFUSED 127.0.0.1:1)',
    );
    expect(describeFailure(new PoolError('EMPTY_POOL', 'staleness of an empty pool is undefined'))).toBe(
      'PoolError: EMPTY_POOL: staleness of an empty pool is undefined',
    );
  });

  it("prints Node's system errors by their message", () => {
    let thrown: unknown;
    try {
      readFileSync('/nonexistent/ftw-describe-failure');
    } catch (error) {
      thrown = error;
    }
    expect(describeFailure(thrown)).toBe(
      "Error: ENOENT: no such file or directory, open '/nonexistent/ftw-describe-failure'",
    );
  });

  it('prints the stack of anything else (a bug), and a non-error as text', () => {
    const bug = new TypeError('cannot read properties of undefined');
    expect(describeFailure(bug)).toBe(bug.stack);
    expect(describeFailure(bug)).toMatch(/^TypeError: cannot read properties of undefined\n\s+at /);
    expect(describeFailure('plain text')).toBe('plain text');
  });
});
