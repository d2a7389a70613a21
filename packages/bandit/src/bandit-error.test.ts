import { describe, expect, it } from 'vitest';
import { BanditError } from './bandit-error.js';
import { BernoulliBandit } from './bernoulli-bandit.js';

describe('BanditError', () => {
  it('carries a stable code, its name, and the code in the message', () => {
    const error = new BanditError('NOT_RESEEDABLE', 'cannot re-seed');
    expect(error).toBeInstanceOf(Error);
    expect([error.name, error.code, error.message]).toEqual([
      'BanditError',
      'NOT_RESEEDABLE',
      'NOT_RESEEDABLE: cannot re-seed',
    ]);
  });

  it('is what an environment throws for a step without an open episode', () => {
    const env = new BernoulliBandit({ probabilities: [0.2, 0.8] });
    const caught = (() => {
      try {
        env.step(0);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(caught).toBeInstanceOf(BanditError);
    expect((caught as BanditError).code).toBe('RESET_REQUIRED');
  });
});
