import { PoolMirror, RedisPool, type RedisServer, startRedisServer } from '@ftw/redis-pool';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corridorPolicy, lehmer } from '../test/corridor.js';
import { spawnActor } from '../test/spawn-actor.js';
import { PolicyPublisher } from './policy-publisher.js';
import { describeArchitecture, writeRunNotes } from './run-notes.js';
import { thetaLoader } from './theta-codec.js';
import { versionedLogProbs } from './versioned-log-probs.js';

let server: RedisServer | undefined;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server?.stop();
});

/** θ of the newest version as an actor that holds nothing reads it: the snapshot and every delta after it. */
async function readBack(pool: RedisPool): Promise<{ version: number; theta: Float64Array }> {
  const changes = (await pool.readPolicyAfter(null))!;
  let theta = thetaLoader.snapshot(changes.snapshot!.parameters, changes.snapshot!.version);
  for (const delta of changes.deltas) theta = thetaLoader.delta(theta, delta.bytes, delta.version);
  return { version: changes.version, theta };
}

describe('runActor', () => {
  it('records, at every step of trajectories spanning versions, the log-probability of the version that acted', async () => {
    // Versions go out every 2 ms (θ moved by a random amount each time, a few entries at a time so that
    // some go out as deltas), while an actor process plays corridor episodes of up to 12 steps, loading the
    // newest version before every step. After each publication the test reads the version back from
    // Redis, as an actor would, and keeps its θ.
    const url = server!.url;
    const CAPACITY = 100_000; // FIFO eviction would shift the indices counted below: stop before it
    const name = `span-${Date.now().toString(36)}`;
    const pool = await RedisPool.open(url, { name, capacity: CAPACITY });
    const mirror = await PoolMirror.open(url, { name });
    const policy = corridorPolicy();
    await writeRunNotes(pool, name, describeArchitecture('linear', policy));
    const publisher = new PolicyPublisher(pool);
    const theta = new Float64Array(policy.parameters.length);
    const history = new Map<number, Float64Array>();
    const random = lehmer(7);
    await publisher.publish(0, theta);
    history.set(0, (await readBack(pool)).theta);
    const actor = spawnActor([url, name, 'a0', 'step', name, 'linear']);
    let stop = false;
    let version = 0;
    const publishing = (async () => {
      while (!stop) {
        // Two entries move by up to ±2 (the logits change visibly from one version to the next).
        for (let k = 0; k < 2; k++) theta[Math.floor(random() * theta.length)]! += 4 * random() - 2;
        await publisher.publish(++version, theta);
        const back = await readBack(pool);
        expect(back.version).toBe(version);
        history.set(version, back.theta);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    // An episode spans versions only when a publication lands during its few dozen microseconds, a few
    // percent of episodes on a fast machine: wait for 10 such episodes (at most 60 s) rather than for a
    // number of episodes, which would leave their count to the machine's speed.
    const spans = (p: number): boolean => {
      const versions = mirror.pool.at(p).versions;
      return versions[0] !== versions.at(-1);
    };
    let spanning = 0;
    try {
      const deadline = Date.now() + 60_000;
      for (let seen = 0; spanning < 10; ) {
        if (Date.now() > deadline || mirror.pool.size === CAPACITY) {
          throw new Error(`the actor pushed ${mirror.pool.size} episodes, ${spanning} spanning versions`);
        }
        await mirror.sync({ blockMs: 200 });
        for (; seen < mirror.pool.size; seen++) if (spans(seen)) spanning++;
      }
    } finally {
      stop = true;
      await publishing;
      await actor.kill();
    }
    let checked = 0;
    let steps = 0;
    for (let p = 0; p < mirror.pool.size; p++) {
      if (!spans(p)) continue;
      const t = mirror.pool.at(p);
      checked++;
      const recomputed = versionedLogProbs(
        policy,
        { length: t.actions.length, observations: t.observations!, actions: t.actions, versions: t.versions },
        (v) => history.get(v),
      );
      // Tolerance 0: the actor and this test run the same LinearPolicy.logits and ActionDistribution (the
      // same IEEE double operations in the same order) on the same θ (f64 bytes round-trip exactly), so the
      // recorded and recomputed log-probabilities are the same number, not merely close.
      for (let s = 0; s < t.actions.length; s++, steps++) expect(t.logProbs[s]).toBe(recomputed[s]);
    }
    expect(publisher.published.deltas).toBeGreaterThan(0);
    // An actor that loaded only per episode would leave none (the wait above times out); one that recorded
    // another version than the one it acted with fails the equality above on these.
    expect(checked).toBeGreaterThanOrEqual(10);
    expect(steps).toBeGreaterThan(checked);
    await Promise.all([pool.close(), mirror.close()]);
  });

  it('refuses, with exit code 2 and one line, a pool of another run or of another architecture', async () => {
    const url = server!.url;
    const name = `refuse-${Date.now().toString(36)}`;
    const pool = await RedisPool.open(url, { name, capacity: 10 });
    const policy = corridorPolicy();
    await writeRunNotes(pool, 'run-a', describeArchitecture('linear', policy));
    await new PolicyPublisher(pool).publish(0, policy.parameters);
    const otherRun = spawnActor([url, name, 'b0', 'episode', 'run-b', 'linear']);
    const otherKind = spawnActor([url, name, 'c0', 'episode', 'run-a', 'mlp']);
    expect(await otherRun.exited()).toBe(2);
    expect(otherRun.stderr().trim()).toBe(
      'RUN_MISMATCH: the pool\'s versions are published by run "run-a", this actor belongs to run "run-b"',
    );
    expect(await otherKind.exited()).toBe(2);
    expect(otherKind.stderr().trim()).toBe(
      'ARCHITECTURE_MISMATCH: the learner\'s policy has kind "linear", this actor\'s has kind "mlp"',
    );
    expect(await pool.readNote('run')).toBe('run-a');
    await pool.close();
  });
});
