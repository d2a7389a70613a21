import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { hello } from './index.js';

describe('hello', () => {
  test.prop([fc.integer()])('works', (n) => {
    expect(hello() + n - n).toBe(1);
  });
});
