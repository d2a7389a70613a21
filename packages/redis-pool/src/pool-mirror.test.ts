import type { DecodedTrajectory } from '@ftw/replay-pool';
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { uniqueName, useRedisServer } from '../test/redis-server.js';
import { PoolMirror } from './pool-mirror.js';
import { RedisPool } from './redis-pool.js';

const server = useRedisServer();
const one = (r: number, version = 0) => ({
  actions: [r % 5, 1],
  logProbs: [-0.5, -1],
  versions: [version, version + 1],
  return: r,
  metadata: { r },
});

/** A seeded minibatch selection (mulberry32 uniforms, best of C drawn): what an update does with a pool. */
function select(returns: Float64Array, seed: number, minibatches: number, c: number): number[] {
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const chosen: number[] = [];
  for (let b = 0; b < minibatches; b++) {
    let best = -1;
    for (let k = 0; k < c; k++) {
      const i = Math.floor(uniform() * returns.length);
      if (best < 0 || returns[i]! > returns[best]!) best = i;
    }
    chosen.push(best);
  }
  return chosen;
}

describe('PoolMirror', () => {
  it('reads only what is new, at most N, and records the entry id of every position', async () => {
    const name = uniqueName('mirror');
    const pool = await RedisPool.open(server().url, { name, capacity: 5 });
    const mirror = await PoolMirror.open(server().url, { name, readChunk: 2 });
    expect(await mirror.sync()).toEqual({ added: 0, skipped: 0, lag: 0 });
    const first = await pool.pushMany([one(0), one(1), one(2)]);
    expect(await mirror.sync()).toEqual({ added: 3, skipped: 0, lag: 3 });
    expect(await mirror.sync()).toEqual({ added: 0, skipped: 0, lag: 0 });
    expect([0, 1, 2].map((p) => mirror.entryIdAt(p))).toEqual(first.map((r) => r.entryId));
    // 12 new entries: only the newest 5 are read.
    const later = await pool.pushMany(Array.from({ length: 12 }, (_, k) => one(3 + k)));
    expect(await mirror.sync()).toEqual({ added: 5, skipped: 0, lag: 12 });
    expect(Array.from(mirror.pool.returns())).toEqual([10, 11, 12, 13, 14]);
    expect(mirror.range()).toEqual({ first: later[7]!.entryId, last: later[11]!.entryId, size: 5 });
    expect(mirror.pool.at(4).metadata).toEqual({ r: 14 });
    expect(Array.from(mirror.pool.at(4).versions)).toEqual([0, 1]);
    expect(mirror.lastEntryId).toBe(later[11]!.entryId);
    await Promise.all([pool.close(), mirror.close()]);
  });

  it('reports its lag in entries and waits for new entries when asked to block', async () => {
    const name = uniqueName('mirror-lag');
    const pool = await RedisPool.open(server().url, { name, capacity: 3 });
    const mirror = await PoolMirror.open(server().url, { name });
    const waiting = mirror.sync({ blockMs: 5000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await pool.push(one(7));
    expect(await waiting).toEqual({ added: 1, skipped: 0, lag: 1 });
    await expect(mirror.sync({ blockMs: -1 })).rejects.toThrow(
      /options.blockMs must be an integer >= 0, got -1/,
    );
    await Promise.all([pool.close(), mirror.close()]);
  });

  it('skips and counts malformed entries instead of crashing', async () => {
    const name = uniqueName('mirror-malformed');
    const pool = await RedisPool.open(server().url, { name, capacity: 10 });
    const mirror = await PoolMirror.open(server().url, { name });
    const client = createClient({ url: server().url });
    await client.connect();
    await pool.push(one(1));
    await client.xAdd(`{${name}}:trajectories`, '*', { id: 'x', n: '2', t: 'not a trajectory' });
    await client.xAdd(`{${name}}:trajectories`, '*', { something: 'else' });
    await pool.push(one(2));
    const result = await mirror.sync();
    expect(result).toEqual({ added: 2, skipped: 2, lag: 2 });
    expect(mirror.malformedCount).toBe(2);
    expect(mirror.lastMalformedReason).toMatch(/missing field id, n or t/);
    expect(Array.from(mirror.pool.returns())).toEqual([1, 2]);
    await client.xAdd(`{${name}}:trajectories`, '*', { id: 'y', n: '3', t: 'garbage' });
    expect(await mirror.sync()).toEqual({ added: 0, skipped: 1, lag: 0 });
    expect(mirror.lastMalformedReason).toMatch(/SNAPSHOT_MAGIC/);
    await client.close();
    await Promise.all([pool.close(), mirror.close()]);
  });

  it('rebuilds the pool an update selected from, so that its minibatches replay exactly', async () => {
    const name = uniqueName('mirror-replay');
    const pool = await RedisPool.open(server().url, { name, capacity: 20, retain: 200 });
    const mirror = await PoolMirror.open(server().url, { name, readChunk: 7 });
    const log: { range: ReturnType<PoolMirror['range']>; seed: number; chosen: unknown[] }[] = [];
    for (let update = 0; update < 6; update++) {
      // Returns repeat (values mod 97); the metadata's push index names each trajectory uniquely.
      await pool.pushMany(
        Array.from({ length: 9 }, (_, k) => ({
          ...one(((update * 9 + k) * 7919) % 97),
          metadata: update * 9 + k,
        })),
      );
      await mirror.sync();
      const seed = 1000 + update;
      const picks = select(mirror.pool.returns(), seed, 8, 4);
      log.push({ range: mirror.range(), seed, chosen: picks.map((p) => mirror.pool.at(p).metadata) });
    }
    for (const { range, seed, chosen } of log) {
      const replayed = await mirror.readRange(range);
      expect(replayed.size).toBe(range.size);
      const picks = select(replayed.returns(), seed, 8, 4);
      expect(picks.map((p) => replayed.at(p).metadata)).toEqual(chosen);
    }
    // The replayed choices are the same stream entries as logged.
    const last = log.at(-1)!;
    const replayed = await mirror.readRange(last.range);
    const picks = select(replayed.returns(), last.seed, 8, 4);
    expect(picks.map((p) => mirror.pool.at(p).metadata)).toEqual(last.chosen);
    expect(Array.from(replayed.returns())).toEqual(Array.from(mirror.pool.returns()));
    await Promise.all([pool.close(), mirror.close()]);
  });

  it('restores a mirror from a range: the same pool, and the next sync reads only what came after', async () => {
    const name = uniqueName('mirror-restore');
    const pool = await RedisPool.open(server().url, { name, capacity: 4, retain: 8 });
    const before = await PoolMirror.open(server().url, { name, readChunk: 3 });
    await pool.pushMany([0, 1, 2, 3, 4, 5].map((r) => one(r)));
    await before.sync();
    const saved = before.range();
    // The learner dies here; these arrive while it is down.
    const after = await pool.pushMany([6, 7].map((r) => one(r)));
    const mirror = await PoolMirror.open(server().url, { name, readChunk: 3 });
    await mirror.restore(saved);
    expect(Array.from(mirror.pool.returns())).toEqual([2, 3, 4, 5]);
    expect(mirror.range()).toEqual(saved);
    expect([0, 1, 2, 3].map((p) => mirror.entryIdAt(p))).toEqual(
      [0, 1, 2, 3].map((p) => before.entryIdAt(p)),
    );
    // Nothing consumed before is new again; what came after is, once.
    expect(await mirror.sync()).toEqual({ added: 2, skipped: 0, lag: 2 });
    expect(Array.from(mirror.pool.returns())).toEqual([4, 5, 6, 7]);
    expect(mirror.entryIdAt(3)).toBe(after[1]!.entryId);
    expect(await mirror.sync()).toEqual({ added: 0, skipped: 0, lag: 0 });
    await expect(mirror.restore(saved)).rejects.toThrow(
      /restore needs an empty mirror, this one has read up to/,
    );
    // A range the stream no longer holds leaves a fresh mirror empty.
    const client = createClient({ url: server().url });
    await client.connect();
    await client.xTrim(`{${name}}:trajectories`, 'MAXLEN', 3);
    await client.close();
    const late = await PoolMirror.open(server().url, { name });
    await expect(late.restore(saved)).rejects.toThrow(/RANGE_TRIMMED: the stream holds 0 of the 4/);
    expect(late.pool.size).toBe(0);
    expect(await late.sync()).toMatchObject({ added: 3 });
    await Promise.all([pool.close(), before.close(), mirror.close(), late.close()]);
  });

  it('says when a range was trimmed away', async () => {
    const name = uniqueName('mirror-trimmed');
    const pool = await RedisPool.open(server().url, { name, capacity: 2 });
    const mirror = await PoolMirror.open(server().url, { name });
    await pool.pushMany([one(1), one(2)]);
    await mirror.sync();
    const range = mirror.range();
    const client = createClient({ url: server().url });
    await client.connect();
    await client.xTrim(`{${name}}:trajectories`, 'MAXLEN', 0);
    await client.close();
    await expect(mirror.readRange(range)).rejects.toThrow(
      /RANGE_TRIMMED: the stream holds 0 of the 2 trajectories/,
    );
    await Promise.all([pool.close(), mirror.close()]);
  });

  it('holds what prepare makes of each entry, skips what it refuses, and rebuilds the same for replay', async () => {
    const name = uniqueName('mirror-prepare');
    const pool = await RedisPool.open(server().url, { name, capacity: 4, retain: 4 });
    // Observations numbered by the reader, from names the writers send; an odd return is refused.
    const numbers = new Map<string, number>();
    const prepare = (t: DecodedTrajectory) => {
      if (t.return % 2 === 1) return null;
      const names = (t.metadata as { names: string[] }).names;
      const observations = Float64Array.from(names, (n) => {
        if (!numbers.has(n)) numbers.set(n, numbers.size);
        return numbers.get(n)!;
      });
      return {
        actions: t.actions,
        logProbs: t.logProbs,
        versions: t.versions,
        return: t.return,
        observations,
      };
    };
    const mirror = await PoolMirror.open(server().url, { name, prepare });
    const named = (r: number, names: string[]) => ({ ...one(r), metadata: { names } });
    await pool.pushMany([named(0, ['a', 'b']), named(1, ['c', 'd']), named(2, ['b', 'e'])]);
    expect(await mirror.sync()).toEqual({ added: 2, skipped: 1, lag: 3 });
    expect(mirror.malformedCount).toBe(1);
    expect(mirror.lastMalformedReason).toMatch(/: refused by prepare$/);
    expect([0, 1].map((p) => Array.from(mirror.pool.at(p).observations!))).toEqual([
      [0, 1],
      [1, 2],
    ]);
    expect(mirror.pool.at(1).metadata).toBeUndefined();
    const range = mirror.range();
    const replayed = await mirror.readRange(range);
    expect([0, 1].map((p) => Array.from(replayed.at(p).observations!))).toEqual([
      [0, 1],
      [1, 2],
    ]);
    // A trajectory the local pool refuses (a positive log-probability) is skipped too, with the reason.
    const bad = await PoolMirror.open(server().url, {
      name,
      prepare: (t) => ({ ...t, logProbs: Float64Array.of(0.5, -1) }),
    });
    expect(await bad.sync()).toEqual({ added: 0, skipped: 3, lag: 3 });
    expect(bad.lastMalformedReason).toMatch(/prepared trajectory refused: .*logProbs\[0\]/);
    // A prepare that throws ends the sync with nothing added; the next sync reads the same entries.
    let fail = true;
    const throwing = await PoolMirror.open(server().url, {
      name,
      prepare: (t) => {
        if (fail && t.return === 2) throw new Error('registry unavailable');
        return t;
      },
    });
    await expect(throwing.sync()).rejects.toThrow('registry unavailable');
    expect([throwing.pool.size, throwing.lastEntryId]).toEqual([0, undefined]);
    fail = false;
    expect(await throwing.sync()).toEqual({ added: 3, skipped: 0, lag: 3 });
    await expect(PoolMirror.open(server().url, { name, prepare: 3 as never })).rejects.toThrow(
      'prepare must be a function, got 3',
    );
    await Promise.all([pool.close(), mirror.close(), bad.close(), throwing.close()]);
  });
});
