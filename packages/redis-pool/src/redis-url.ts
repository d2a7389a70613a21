import { describeValue } from '@ftw/internal';
import { redactUrl } from './redact-url.js';

/** One node's address. */
export interface NodeAddress {
  readonly host: string;
  readonly port: number;
}

/**
 * Where a URL says the pool lives: one server (`redis://`, `rediss://`, handed to node-redis as it is) or a
 * Redis Cluster (`redis+cluster://`, `rediss+cluster://`) reached through seed nodes, with the credentials
 * and TLS setting every node connection uses. Internal.
 */
export type RedisTarget =
  | { readonly kind: 'single'; readonly url: string }
  | {
      readonly kind: 'cluster';
      readonly seeds: readonly NodeAddress[];
      readonly username: string | undefined;
      readonly password: string | undefined;
      readonly tls: boolean;
    };

const DEFAULT_PORT = 6379;
const NODE = /^(\[[0-9A-Fa-f:.]+\]|[^[\]:/?#@,\s]+)(?::(\d{1,5}))?$/;

/** What every message about a bad URL says is allowed. */
const FORMS =
  'redis://[user:password@]host:port[/db], rediss://… (TLS), redis+cluster://[user:password@]host:port[,host:port…] or rediss+cluster://… (a Redis Cluster, TLS)';

/**
 * Reads a pool URL. A cluster URL lists seed nodes separated by commas (any live node of the cluster will
 * do; the client learns the rest from it), as Pomerium and others write it; it takes no database (a
 * cluster has only database 0) and no query. Internal.
 *
 * @param url - the URL
 * @returns the target
 * @throws TypeError naming `url` (its password masked) when it is not one of the forms
 */
export function parseRedisUrl(url: unknown): RedisTarget {
  const refuse = (why: string): TypeError =>
    new TypeError(`url must be ${FORMS}; ${why}, got ${JSON.stringify(redactUrl(url as string))}`);
  if (typeof url !== 'string')
    throw new TypeError(`url must be a string (${FORMS}), got ${describeValue(url)}`);
  const scheme = /^([a-z+]+):\/\//.exec(url)?.[1];
  if (scheme === 'redis' || scheme === 'rediss') {
    try {
      new URL(url);
    } catch {
      throw refuse('it does not parse');
    }
    return { kind: 'single', url };
  }
  if (scheme !== 'redis+cluster' && scheme !== 'rediss+cluster') throw refuse('unknown scheme');
  let rest = url.slice(scheme.length + 3);
  if (/[?#]/.test(rest)) throw refuse('a cluster URL takes no query');
  const slash = rest.indexOf('/');
  if (slash >= 0) {
    if (!/^\/0?$/.test(rest.slice(slash))) throw refuse('a Redis Cluster has only database 0');
    rest = rest.slice(0, slash);
  }
  const at = rest.lastIndexOf('@');
  const userinfo = at >= 0 ? rest.slice(0, at) : undefined;
  const seeds = (at >= 0 ? rest.slice(at + 1) : rest).split(',').map((node) => {
    const match = NODE.exec(node);
    const port = Number(match?.[2] ?? DEFAULT_PORT);
    if (match === null || port < 1 || port > 65_535)
      throw refuse(`node ${JSON.stringify(node)} is not host:port`);
    return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
  });
  let username: string | undefined;
  let password: string | undefined;
  if (userinfo !== undefined) {
    const colon = userinfo.indexOf(':');
    try {
      username = decodeURIComponent(colon >= 0 ? userinfo.slice(0, colon) : userinfo) || undefined;
      password = colon >= 0 ? decodeURIComponent(userinfo.slice(colon + 1)) : undefined;
    } catch {
      throw refuse('its user or password is not percent-encoded');
    }
  }
  return { kind: 'cluster', seeds, username, password, tls: scheme === 'rediss+cluster' };
}
