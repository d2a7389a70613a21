import { PolicyFollower, RedisPool, type RedisServer, startRedisServer } from '@ftw/redis-pool';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyedCodec } from './keyed-codec.js';
import { encodeKeyedPolicy, KeyedPolicyReader } from './keyed-policy.js';
import { PolicyPublisher } from './policy-publisher.js';

let server: RedisServer | undefined;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server?.stop();
});

let pools = 0;
/** Deltas published over all runs of the property (a property whose runs publish none tests nothing). */
let deltasSeen = 0;
const namesOf = (count: number) => ({ count, nameOf: (id: number) => `0|${id}` });

describe('keyedCodec', () => {
  it('gives actors, at every version, the learner θ and names bit for bit, whether they follow each version or join late', async () => {
    // A learner whose table grows and whose updates move a few rows (null: any, as Adam's do); actors
    // follow through a pool on a real redis-server, one checking every version, one every third.
    const update = fc.record({
      grow: fc.nat({ max: 6 }),
      moves: fc.array(fc.tuple(fc.nat(), fc.double({ min: -5, max: 5 })), { maxLength: 3 }),
      any: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(update, { minLength: 1, maxLength: 25 }), async (updates) => {
        const name = `publisher-${process.pid}-${pools++}`;
        const pool = await RedisPool.open(server!.url, { name, capacity: 1 });
        const W = 2;
        // The learner's names: the test sets their count before each version (the codec reads it then).
        const names = namesOf(0);
        const publisher = new PolicyPublisher(pool, keyedCodec(names, W));
        const loader = (reader: KeyedPolicyReader) => ({
          snapshot: (bytes: Uint8Array) => reader.load(bytes),
          delta: (theta: Float64Array, bytes: Uint8Array) => reader.apply(theta, bytes),
        });
        const readers = [new KeyedPolicyReader(), new KeyedPolicyReader()];
        const followers = readers.map((r) => new PolicyFollower(pool, 'step', { loader: loader(r) }));
        let theta: Float64Array = new Float64Array(2 * W);
        names.count = 2;
        await publisher.publish(0, theta, null);
        for (const [k, u] of updates.entries()) {
          const grown = new Float64Array(theta.length + W * u.grow);
          grown.set(theta);
          theta = grown;
          const rows = theta.length / W;
          const moved = new Set<number>();
          for (const [row, value] of u.moves) {
            moved.add(row % rows);
            theta[(row % rows) * W + (row % W)] = value;
          }
          names.count = rows;
          const kind = await publisher.publish(k + 1, theta, u.any ? null : [...moved]);
          if (u.any) expect(kind).toBe('snapshot');
          for (const [i, follower] of followers.entries()) {
            if (i === 1 && k % 3 !== 2 && k !== updates.length - 1) continue;
            const policy = await follower.beforeStep();
            expect(policy.version).toBe(k + 1);
            expect(Array.from(policy.parameters)).toEqual(Array.from(theta));
            for (let id = 0; id < rows; id++) expect(readers[i]!.rowOf(`0|${id}`)).toBe(id);
          }
        }
        const { snapshots, deltas, bytes } = publisher.published;
        expect(snapshots + deltas).toBe(updates.length + 1);
        expect(bytes).toBeGreaterThan(0);
        deltasSeen += deltas;
        await pool.close();
      }),
      { numRuns: 20 },
    );
    expect(deltasSeen).toBeGreaterThan(0);
  });

  it('publishes deltas while they add up to no more than the last snapshot, then a snapshot again', async () => {
    const pool = await RedisPool.open(server!.url, { name: `publisher-rule-${process.pid}`, capacity: 1 });
    const W = 4;
    const rows = 1000;
    const theta = new Float64Array(rows * W);
    const publisher = new PolicyPublisher(pool, keyedCodec(namesOf(rows), W));
    const kinds: string[] = [];
    kinds.push(await publisher.publish(0, theta, []));
    const snapshot = encodeKeyedPolicy(theta, namesOf(rows)).length;
    expect(publisher.published).toEqual({ snapshots: 1, deltas: 0, bytes: snapshot });
    // A delta of 10 rows: 16 + 10 · (4 + 8 · 4) = 376 bytes, so floor(snapshot / 376) of them fit.
    const moved = Array.from({ length: 10 }, (_, i) => 3 * i);
    const fit = Math.floor(snapshot / 376);
    for (let v = 1; v <= fit + 1; v++) {
      theta[moved[v % 10]! * W] = v;
      kinds.push(await publisher.publish(v, theta, moved));
    }
    expect(kinds.filter((k) => k === 'delta')).toHaveLength(fit);
    expect(kinds.at(-1)).toBe('snapshot');
    expect(publisher.published).toEqual({
      snapshots: 2,
      deltas: fit,
      bytes: 2 * snapshot + 376 * fit,
    });
    await pool.close();
  });

  it("starts the delta budget again at each snapshot, at that snapshot's bytes, deltas up to exactly it", async () => {
    // Bytes from the documented layouts: a snapshot is 8 + 8 per value + (2 + 2 per character) per name; a
    // delta 16 + (4 + 8 per value) per row moved (no name added here). W = 2; names 0|0 … 0|8 have 3
    // characters, 0|10 … 0|17 have 4.
    const pool = await RedisPool.open(server!.url, { name: `publisher-budget-${process.pid}`, capacity: 1 });
    const W = 2;
    // The learner's names: the test sets their count before each version (the codec reads it then).
    const names = namesOf(0);
    const publisher = new PolicyPublisher(pool, keyedCodec(names, W));
    const kinds: string[] = [];
    let theta = new Float64Array(9 * W);
    let version = 0;
    const publish = async (moved: number[] | null) => {
      theta[(moved?.[0] ?? 0) * W] = version + 1;
      names.count = theta.length / W;
      kinds.push(await publisher.publish(version++, theta, moved));
    };
    // 9 rows: 8 + 8 · 18 + 9 · 8 = 224 bytes; a delta of 2 rows is 16 + 2 · 20 = 56, so exactly 4 fit.
    await publish(null);
    for (let k = 0; k < 5; k++) await publish([k, k + 1]);
    expect(kinds).toEqual(['snapshot', 'delta', 'delta', 'delta', 'delta', 'snapshot']);
    // Grown to 18 rows and moved anywhere: 8 + 8 · 36 + 9 · 8 + 8 · 10 = 456 bytes, so 8 deltas (448) fit.
    const grown = new Float64Array(18 * W);
    grown.set(theta);
    theta = grown;
    kinds.length = 0;
    await publish(null);
    for (let k = 0; k < 9; k++) await publish([k, k + 9]);
    expect(kinds).toEqual(['snapshot', ...new Array<string>(8).fill('delta'), 'snapshot']);
    expect(publisher.published).toEqual({
      snapshots: 4,
      deltas: 12,
      bytes: 2 * 224 + 2 * 456 + 12 * 56,
    });
    await pool.close();
  });
});
