import { describe, expect, it } from 'vitest';
import { parseRedisUrl } from './redis-url.js';

describe('parseRedisUrl', () => {
  it('passes a single-server URL on as it is', () => {
    expect(parseRedisUrl('redis://app:pw@cache:6379/2')).toEqual({
      kind: 'single',
      url: 'redis://app:pw@cache:6379/2',
    });
    expect(parseRedisUrl('rediss://10.0.0.5:6380')).toEqual({
      kind: 'single',
      url: 'rediss://10.0.0.5:6380',
    });
  });

  it('reads the seeds, credentials and TLS of a cluster URL', () => {
    expect(parseRedisUrl('redis+cluster://10.0.0.1:7000,10.0.0.2:7001,[::1]:7002,cache')).toEqual({
      kind: 'cluster',
      seeds: [
        { host: '10.0.0.1', port: 7000 },
        { host: '10.0.0.2', port: 7001 },
        { host: '::1', port: 7002 },
        { host: 'cache', port: 6379 },
      ],
      username: undefined,
      password: undefined,
      tls: false,
    });
    expect(parseRedisUrl('rediss+cluster://app:p%40ss@h:1/0')).toEqual({
      kind: 'cluster',
      seeds: [{ host: 'h', port: 1 }],
      username: 'app',
      password: 'p@ss',
      tls: true,
    });
    expect(parseRedisUrl('redis+cluster://:pw@h:1/')).toMatchObject({ username: undefined, password: 'pw' });
  });

  it('names the URL, password masked, and what is wrong with it', () => {
    const wrong = (url: unknown, why: RegExp) => expect(() => parseRedisUrl(url)).toThrow(why);
    wrong(6379, /^url must be a string \(redis:\/\/.*\), got 6379$/);
    wrong('http://h:1', /unknown scheme, got "http:\/\/h:1"$/);
    wrong('redis:/h:1', /unknown scheme, got "redis:\/h:1"$/);
    wrong('redis://[oops', /it does not parse, got "redis:\/\/\[oops"$/);
    wrong('redis+cluster://app:s3cret@h:1/2', /only database 0, got "redis\+cluster:\/\/app:\*\*\*@h:1\/2"$/);
    wrong('redis+cluster://h:1?timeout=5', /takes no query/);
    wrong('redis+cluster://h:1,,h:2', /node "" is not host:port/);
    wrong('redis+cluster://h:0', /node "h:0" is not host:port/);
    wrong('redis+cluster://h:65536', /node "h:65536" is not host:port/);
    wrong('redis+cluster://h:x', /node "h:x" is not host:port/);
    wrong('redis+cluster://a:%zz@h:1', /not percent-encoded, got "redis\+cluster:\/\/a:\*\*\*@h:1"$/);
    expect(() => parseRedisUrl('redis+cluster://a:s3cret@h:1/2')).toThrow(TypeError);
    expect(() => parseRedisUrl('redis+cluster://a:s3cret@h:1/2')).not.toThrow(/s3cret/);
  });
});
