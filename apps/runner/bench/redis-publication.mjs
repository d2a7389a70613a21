// The cost of a policy version over Redis against the size of the table (Sokoban's positions): the
// learner publishes a version after an update that moved 48 rows (J·K = 4 trajectories of 12 steps) of
// a tabular policy of R = 10^3, 10^4 or 10^5 rows of 4 actions, each row named by its position
// (`<level>|<key>`), and an actor loads it (a PolicyFollower with the KeyedPolicyReader the actors
// use), on a private redis-server started here. One benchmark iteration is one version: publish, then
// load. With deltas (PolicyPublisher: the rows moved, and a snapshot again once the deltas since the last
// add up to its size, so snapshots are part of the figure) the goal is R = 10^5 within 2× of R = 10^3: a
// version costs the rows its update moved. For scale, the same versions published whole (θ and every
// name: what the runner did before deltas), whose cost grows with R. Builds the runner's training module
// from the current sources (scripts/build-from-source.mjs); the server is stopped and its folder removed
// at the end, whatever happens.
import { PolicyFollower, RedisPool, startRedisServer } from '@ftw/redis-pool';
import { bench } from 'mitata';
import { runAndReport } from '../../../scripts/bench-ratios.mjs';
import { buildFromSource } from '../scripts/build-from-source.mjs';

const built = await buildFromSource({ entry: 'src/training.ts', name: 'training' });
const { KeyedPolicyReader, PolicyPublisher, keyedCodec } = await import(built.file);
built.remove();

const SIZES = [1_000, 10_000, 100_000];
const ACTIONS = 4;
const MOVED = 48;

const server = await startRedisServer();
const opened = [];

/** A learner and an actor on one pool, with a table of `rows` rows; `version()` publishes and loads one. */
async function table(rows, whole) {
  const name = `bench-${rows}-${whole ? 'whole' : 'delta'}`;
  const learner = await RedisPool.open(server.url, { name, capacity: 1 });
  const actor = await RedisPool.open(server.url, { name });
  opened.push(learner, actor);
  const reader = new KeyedPolicyReader();
  const follower = new PolicyFollower(actor, 'step', {
    loader: {
      snapshot: (bytes) => reader.load(bytes),
      delta: (theta, bytes) => reader.apply(theta, bytes),
    },
  });
  const names = {
    count: rows,
    nameOf: (id) => `${id % 100}|${String.fromCharCode(...[id, id >> 7, id >> 14].map((c) => c & 127))}`,
  };
  const publisher = new PolicyPublisher(learner, keyedCodec(names, ACTIONS));
  const theta = new Float64Array(rows * ACTIONS);
  let version = 0;
  await publisher.publish(version, theta, null);
  await follower.beginEpisode();
  // Pre-drawn moved rows (distinct, increasing, as an update lists them), cycled.
  const lists = Array.from({ length: 64 }, (_, k) => {
    const set = new Set();
    for (let i = 0; set.size < MOVED; i++) set.add((k * 7919 + i * 104729) % rows);
    return Int32Array.from([...set].sort((a, b) => a - b));
  });
  return async () => {
    const moved = lists[version % lists.length];
    for (const row of moved) theta[row * ACTIONS] += 0.001;
    await publisher.publish(++version, theta, whole ? null : moved);
    const policy = await follower.beforeStep();
    if (policy.version !== version)
      throw new Error(`the actor loaded version ${policy.version}, not ${version}`);
  };
}

const deltaName = (rows) => `version as deltas, R = ${rows.toLocaleString('en-US')} rows`;
const wholeName = (rows) => `version whole, R = ${rows.toLocaleString('en-US')} rows`;
try {
  const deltas = new Map();
  const wholes = new Map();
  for (const rows of SIZES) {
    deltas.set(rows, await table(rows, false));
    wholes.set(rows, await table(rows, true));
  }
  const register = () => {
    for (const rows of SIZES) bench(deltaName(rows), deltas.get(rows));
    for (const rows of SIZES) bench(wholeName(rows), wholes.get(rows));
  };
  await runAndReport(register, [
    ...SIZES.slice(1).map((rows) => ({
      target: deltaName(rows),
      floor: deltaName(SIZES[0]),
      ...(rows === 100_000 ? { goal: 2 } : { note: 'for scale' }),
    })),
    ...SIZES.map((rows) => ({
      target: wholeName(rows),
      floor: deltaName(SIZES[0]),
      note: 'for scale: before deltas',
    })),
  ]);
} finally {
  await Promise.all(opened.map((p) => p.close()));
  await server.stop();
}
