import { describeValue } from '@ftw/internal';

/** The Redis keys of one pool. Internal. */
export interface PoolKeys {
  /** The stream: one entry per trajectory. */
  readonly stream: string;
  /** Hash: `config`, `inserts`, `updates`. */
  readonly meta: string;
  /** Hash: `version` (the newest), `base` (the snapshot's version), `parameters` (the snapshot). */
  readonly policy: string;
  /** Stream: the policy deltas published after the snapshot, entry id `<version>-1`, field `d`. */
  readonly policyDeltas: string;
  /** Channel (not a key): each published version, as text, for followers that watch it. */
  readonly policyChannel: string;
  /** Hash: trajectory id → entry id, for the ids of the newest inserts (what makes pushes idempotent). */
  readonly ids: string;
  /** List: the same ids, newest first, so that the oldest is forgotten first. */
  readonly idOrder: string;
  /** Hash: the pool's notes (see `RedisPool.writeNote`). */
  readonly notes: string;
}

/** Longest pool name accepted: keys stay short, and names are identifiers, not data. */
const MAX_NAME_LENGTH = 200;

/**
 * The keys of pool `name`, all inside the hash tag `{name}`, so that Redis Cluster puts them in one slot
 * and the pool's Lua scripts (which touch several of them) run there. Internal.
 *
 * @param name - the pool name: 1 to 200 characters, no `{`, `}` or whitespace
 * @returns the keys
 * @throws TypeError or RangeError naming `name`
 */
export function poolKeys(name: string): PoolKeys {
  if (typeof name !== 'string') throw new TypeError(`name must be a string, got ${describeValue(name)}`);
  if (name.length === 0 || name.length > MAX_NAME_LENGTH || /[{}\s]/.test(name)) {
    throw new RangeError(
      `name must be 1 to ${MAX_NAME_LENGTH} characters without braces or whitespace, got ${describeValue(name)}`,
    );
  }
  const tag = `{${name}}`;
  return {
    stream: `${tag}:trajectories`,
    meta: `${tag}:meta`,
    policy: `${tag}:policy`,
    policyDeltas: `${tag}:policy-deltas`,
    policyChannel: `${tag}:policy-version`,
    ids: `${tag}:ids`,
    idOrder: `${tag}:id-order`,
    notes: `${tag}:notes`,
  };
}
