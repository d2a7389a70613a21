import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { redactUrl } from './redact-url.js';

describe('redactUrl', () => {
  it('masks the password and keeps everything else', () => {
    expect(redactUrl('redis://app:s3cret@cache:6379/2')).toBe('redis://app:***@cache:6379/2');
    expect(redactUrl('rediss://:hunter2@10.0.0.5:6380')).toBe('rediss://:***@10.0.0.5:6380');
    expect(redactUrl('redis://default:p%40ss@localhost:6379')).toBe('redis://default:***@localhost:6379');
    expect(redactUrl('redis+cluster://:hunter2@10.0.0.5:7000')).toBe('redis+cluster://:***@10.0.0.5:7000');
    expect(redactUrl('rediss+cluster://app:s3cret@a:7000,b:7001')).toBe(
      'rediss+cluster://app:***@a:7000,b:7001',
    );
  });

  it('leaves a URL without a password, and other text, as they are', () => {
    expect(redactUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
    expect(redactUrl('redis://app@127.0.0.1:6379')).toBe('redis://app@127.0.0.1:6379');
    expect(redactUrl('private')).toBe('private');
    expect(redactUrl('')).toBe('');
  });

  it('masks a password in text that does not parse as a URL', () => {
    expect(redactUrl('redis://app:s3cret@[bad')).toBe('redis://app:***@[bad');
  });

  // Passwords drawn from the characters a URL's userinfo may hold as they are, with a marker so that
  // finding them in the output cannot be a coincidence.
  const password = fc
    .stringMatching(/^[A-Za-z0-9._~!$&'()*+,;=-]{1,24}$/)
    .map((p) => `Pw${p}`)
    .filter((p) => !p.includes('***'));
  test.prop([password, fc.constantFrom('redis', 'rediss'), fc.integer({ min: 1, max: 65535 })])(
    'never returns the password, for any password and port',
    (secret, scheme, port) => {
      const out = redactUrl(`${scheme}://user:${secret}@example.com:${port}/0`);
      expect(out).not.toContain(secret);
      expect(out).toContain('user:***@example.com');
    },
  );
});
