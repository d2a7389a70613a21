// Push throughput of @ftw/redis-pool against a bare client loop of XADD, measured in the same run on a
// private redis-server: 4 actor processes push one-step trajectories (the same encoded payload, the same
// batches of 1,000 per round trip) either through RedisPool.pushMany (ids, Lua script, dedupe keys, rate
// limiter off) or as bare pipelined XADDs. Meanwhile the learner's PoolMirror syncs in this process and
// lag (entries inserted but not yet mirrored when each sync begins) is recorded. Goal: a mean lag below
// N, the pool's capacity (on average every sync sees every entry of the newest N); the entries a sync
// skipped because its lag exceeded N (never mirrored) are reported beside it. Also measured: bare XADD with exact (MAXLEN =) against approximate
// (MAXLEN ~) trimming, the choice the pool makes. Goal: pool ≥ 70% of bare. Run with `pnpm build && pnpm bench`.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { PoolMirror, RedisPool, startRedisServer } from '../dist/index.js';

const ACTORS = 4;
const PER_ACTOR = 15_000;
const BATCH = 1_000;
const CAPACITY = 10_000;
const ROUNDS = 3;
const GOAL = 0.7;
const here = fileURLToPath(new URL('.', import.meta.url));

function startActor(args) {
  const child = spawn(process.execPath, ['actor.mjs', ...args], {
    cwd: here,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  const seen = (word) =>
    new Promise((resolve, reject) => {
      const check = () => out.includes(word) && resolve();
      child.stdout.on('data', (chunk) => {
        out += chunk;
        check();
      });
      child.on('exit', (code) => (code === 0 ? check() : reject(new Error(`actor exited with ${code}`))));
      check();
    });
  return { child, ready: seen('ready'), done: seen('done') };
}

/** Runs ACTORS processes; returns trajectories per second from "go" to the last "done". */
async function measure(args, during) {
  const actors = Array.from({ length: ACTORS }, () => startActor(args));
  await Promise.all(actors.map((a) => a.ready));
  const start = performance.now();
  for (const a of actors) a.child.stdin.write('go\n');
  const finished = Promise.all(actors.map((a) => a.done));
  const extra = during?.(finished);
  await finished;
  const seconds = (performance.now() - start) / 1000;
  await extra;
  return (ACTORS * PER_ACTOR) / seconds;
}

const server = await startRedisServer();
let allMet = true;
try {
  const admin = createClient({ url: server.url });
  await admin.connect();
  const rows = { exact: [], approximate: [], pool: [], lagMax: [], lagMean: [], lagEnd: [], missed: [] };
  for (let round = 0; round < ROUNDS; round++) {
    await admin.flushAll();
    rows.exact.push(
      await measure(['bare', server.url, '{bench}:exact', String(PER_ACTOR), String(BATCH), '=']),
    );
    rows.approximate.push(
      await measure(['bare', server.url, '{bench}:approx', String(PER_ACTOR), String(BATCH), '~']),
    );
    const name = `bench-${round}`;
    const creator = await RedisPool.open(server.url, { name, capacity: CAPACITY });
    const mirror = await PoolMirror.open(server.url, { name });
    let lagMax = 0;
    let lagSum = 0;
    let syncs = 0;
    let missed = 0;
    rows.pool.push(
      await measure(['pool', server.url, name, String(PER_ACTOR), String(BATCH)], async (finished) => {
        let running = true;
        void finished.then(() => (running = false));
        while (running) {
          const { lag } = await mirror.sync();
          lagMax = Math.max(lagMax, lag);
          lagSum += lag;
          missed += Math.max(0, lag - CAPACITY);
          syncs++;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }),
    );
    const end = await mirror.sync();
    rows.lagMax.push(lagMax);
    rows.lagMean.push(lagSum / syncs);
    rows.lagEnd.push(end.lag);
    rows.missed.push(missed);
    if (mirror.pool.size !== CAPACITY)
      throw new Error(`mirror holds ${mirror.pool.size}, expected ${CAPACITY}`);
    await Promise.all([creator.close(), mirror.close()]);
  }
  await admin.close();

  const median = (xs) => xs.toSorted((a, b) => a - b)[(xs.length - 1) >> 1];
  const k = (x) => `${Math.round(x).toLocaleString('en-US')}/s`;
  console.log(
    `${ACTORS} actor processes × ${PER_ACTOR.toLocaleString('en-US')} one-step trajectories, batches of ${BATCH}, ${ROUNDS} rounds (median):`,
  );
  console.log(
    `  bare XADD MAXLEN = ${CAPACITY}:   ${k(median(rows.exact))}   (rounds ${rows.exact.map(k).join(', ')})`,
  );
  console.log(
    `  bare XADD MAXLEN ~ ${CAPACITY}:   ${k(median(rows.approximate))}   (rounds ${rows.approximate.map(k).join(', ')})`,
  );
  console.log(
    `  RedisPool.pushMany:          ${k(median(rows.pool))}   (rounds ${rows.pool.map(k).join(', ')})`,
  );
  const ratios = rows.pool.map((p, i) => p / rows.approximate[i]);
  const ratio = median(ratios);
  const met = ratio >= GOAL;
  allMet &&= met;
  console.log(
    `\n  pushMany / bare XADD (~): ${ratio.toFixed(2)} (rounds ${ratios.map((r) => r.toFixed(2)).join(', ')}) (goal >= ${GOAL}) ${met ? 'met' : 'NOT MET'}`,
  );
  console.log(
    `  exact / approximate trimming, bare: ${(median(rows.exact) / median(rows.approximate)).toFixed(2)} (no goal; the pool trims with ~ and reads a window of N)`,
  );
  const lagMet = median(rows.lagMean) < CAPACITY;
  allMet &&= lagMet;
  console.log(
    `  mirror lag at each sync while pushing: mean ${Math.round(median(rows.lagMean))} entries (goal < N = ${CAPACITY}) ${lagMet ? 'met' : 'NOT MET'}; max ${median(rows.lagMax)}, at the end ${median(rows.lagEnd)}, never mirrored ${median(rows.missed)} of ${ACTORS * PER_ACTOR} (medians of rounds)`,
  );
} finally {
  await server.stop();
}
process.exit(allMet ? 0 : 1);
