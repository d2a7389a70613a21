// Redis memory of a pool at steady state: used_memory (INFO memory) per retained stream entry after 10 × N
// pushes, for N = 10^2, 10^3, 10^4 in one run on a private redis-server, against a floor measured in the
// same run: the same stream (the same entries, fields id, n and t, trimmed with MAXLEN ~ N) written by bare
// XADDs, with no idempotency data. Beside them, the scheme the pool used before (one key per id with a 1 h
// expiry) written by bare commands. Two trajectory sizes: one step (52 bytes encoded, where the ids weigh
// the most) and 16 steps (292 bytes). Goal: the idempotency data (MEMORY USAGE of the ids hash and list)
// does not grow from 10 × N to 20 × N pushes (at most 5%, what id strings one digit longer take), while the
// previous scheme's keys double. Measured with the pool's connection closed and the script cache
// flushed: both are a fixed cost per client and server, not per entry. Run with `pnpm build && pnpm bench`.
import { encodeTrajectory } from '@ftw/replay-pool';
import { createClient } from 'redis';
import { RedisPool, startRedisServer } from '../dist/index.js';

const SIZES = [100, 1_000, 10_000];
const BATCH = 1_000;
const GROWTH_GOAL = 0.05;
const stepsOf = (steps) => ({
  actions: Array.from({ length: steps }, (_, t) => t % 3),
  logProbs: Array.from({ length: steps }, () => -Math.LN2),
  versions: 3,
  return: 1,
});
const KINDS = [1, 16].map((steps) => {
  const trajectory = stepsOf(steps);
  return { steps, trajectory, payload: Buffer.from(encodeTrajectory(trajectory)) };
});
const idOf = (k) => `actor-${k % 8}/episode-${k}`;
const STREAM = '{bench}:trajectories';

const server = await startRedisServer();
const admin = createClient({ url: server.url });
await admin.connect();

async function usedMemory() {
  const info = await admin.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)[1]);
}

/** Bytes of the pool's idempotency data (exact: every element counted), and how many ids it holds. */
async function idData() {
  const usage = (key) => admin.sendCommand(['MEMORY', 'USAGE', key, 'SAMPLES', '0']);
  const [ids, order, held] = await Promise.all([
    usage('{bench}:ids'),
    usage('{bench}:id-order'),
    admin.hLen('{bench}:ids'),
  ]);
  return { bytes: Number(ids ?? 0) + Number(order ?? 0), held };
}

/** Bare XADDs of pushes [from, to), pipelined a batch at a time; `withKeys` adds the old per-id keys. */
async function bare(kind, capacity, from, to, withKeys) {
  for (let start = from; start < to; start += BATCH) {
    const replies = [];
    for (let k = start; k < Math.min(to, start + BATCH); k++) {
      const xadd = ['XADD', STREAM, 'MAXLEN', '~', String(capacity), '*', 'id', idOf(k), 'n', String(k + 1)];
      replies.push(admin.sendCommand([...xadd, 't', kind.payload]));
      if (withKeys) replies.push(admin.sendCommand(['SET', `{bench}:id:${idOf(k)}`, '0-1', 'PX', '3600000']));
    }
    await Promise.all(replies);
  }
}

/** used_memory above the empty server's, the stream's length and the id data, after 10 N and 20 N pushes. */
async function measure(capacity, pushes) {
  await admin.flushAll('SYNC');
  const empty = await usedMemory();
  const after = [];
  for (const until of [10 * capacity, 20 * capacity]) {
    const state = await pushes.open?.();
    await pushes.run(state, after.length === 0 ? 0 : 10 * capacity, until);
    // The pool's connection buffers and its scripts are a fixed cost per client and server, not data.
    await state?.close();
    await admin.scriptFlush('SYNC');
    after.push({
      bytes: (await usedMemory()) - empty,
      entries: await admin.xLen(STREAM),
      keys: await admin.dbSize(),
      ids: await idData(),
    });
  }
  return after;
}

const rows = [];
for (const kind of KINDS) {
  for (const n of SIZES) {
    const floor = await measure(n, { run: (_, from, to) => bare(kind, n, from, to, false) });
    const previous = await measure(n, { run: (_, from, to) => bare(kind, n, from, to, true) });
    const pool = await measure(n, {
      open: () => RedisPool.open(server.url, { name: 'bench', capacity: n }),
      run: async (p, from, to) => {
        for (let start = from; start < to; start += BATCH) {
          const ids = Array.from({ length: Math.min(BATCH, to - start) }, (_, k) => idOf(start + k));
          await p.pushMany(
            ids.map(() => kind.trajectory),
            { ids },
          );
        }
      },
    });
    rows.push({ kind, n, floor, previous, pool });
  }
}
await admin.close();
await server.stop();

const perEntry = (m) => m.bytes / m.entries;
const fixed = (x, digits, width) => x.toFixed(digits).padStart(width);
console.log(
  'Redis used_memory per retained stream entry after 10 × N pushes (default idWindow = N: 2N ids remembered):',
);
console.log(
  '  steps        N   entries   floor B   pool B   pool/floor   ids held   B per id   previous B   previous/floor',
);
for (const { kind, n, floor, previous, pool } of rows) {
  const [f, p, o] = [floor[0], pool[0], previous[0]];
  console.log(
    `  ${String(kind.steps).padStart(5)}   ${String(n).padStart(6)}   ${String(p.entries).padStart(7)}   ${fixed(perEntry(f), 0, 7)}   ${fixed(perEntry(p), 0, 6)}   ${fixed(perEntry(p) / perEntry(f), 2, 10)}   ${String(p.ids.held).padStart(8)}   ${fixed(p.ids.bytes / p.ids.held, 1, 8)}   ${fixed(perEntry(o), 0, 10)}   ${fixed(perEntry(o) / perEntry(f), 2, 14)}`,
  );
}
console.log(
  "\nFrom 10 × N to 20 × N pushes: the pool's id data (MEMORY USAGE of hash and list) and the previous scheme's keys:",
);
let met = true;
for (const { kind, n, previous, pool } of rows) {
  const growth = pool[1].ids.bytes / pool[0].ids.bytes - 1;
  met &&= growth <= GROWTH_GOAL && pool[1].ids.held === pool[0].ids.held;
  console.log(
    `  ${String(kind.steps).padStart(2)} step(s), N = ${String(n).padStart(6)}: pool ids ${pool[0].ids.held} → ${pool[1].ids.held}, bytes ${pool[0].ids.bytes} → ${pool[1].ids.bytes} (${growth >= 0 ? '+' : ''}${(100 * growth).toFixed(1)}%); previous scheme keys ${previous[0].keys} → ${previous[1].keys}`,
  );
}
console.log(
  `  goal: the pool's id data grows by <= ${100 * GROWTH_GOAL}% and holds the same number of ids: ${met ? 'met' : 'NOT MET'}`,
);
process.exit(met ? 0 : 1);
