import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { encodeKeyedPolicy, keyedCodec, PolicyPublisher, writeRunNotes } from '@ftw/actors';
import { PoolMirror, RedisPool, type RedisServer, startRedisServer } from '@ftw/redis-pool';
import { SOKOBAN_FEATURE_COUNT as FEATURE_COUNT, SokobanEnv } from '@ftw/sokoban';
import { SokobanEpisodeEnv } from '@ftw/sokoban/trainer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASYNC_REDIS_BASE } from '../commands/compare-async.js';
import type { TrainConfig } from '../config/train-config.js';
import { SOKOBAN_SCENARIO } from '../sokoban/sokoban-scenario.js';
import { POOL_NOTES } from './actor-protocol.js';
import type { AsyncOptions } from './async-options.js';
import { sourceLauncher } from './testing/source-launcher.js';

let server: RedisServer | undefined;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server?.stop();
});

const OPTIONS: AsyncOptions = {
  actors: 1,
  redis: 'private',
  lag: 0,
  hotLoad: 'episode',
  is: { kind: 'none' },
  horizon: 1,
};

/** Right (action 3) with logit 50: taken with probability 1 − 3e^−50, log-probability within 1e-20 of 0. */
const SURE = 50;

interface Pushed {
  readonly actions: Int32Array;
  readonly logProbs: Float64Array;
  readonly versions: Uint32Array;
  readonly observations?: Float64Array | undefined;
  readonly positions?: readonly string[] | undefined;
}

/** The run notes a learner of this policy kind leaves (an actor checks them before acting). */
const notes = (pool: RedisPool, kind: 'tabular' | 'linear') =>
  writeRunNotes(pool, 'test-run', {
    kind,
    numActions: 4,
    observationSize: kind === 'linear' ? FEATURE_COUNT : 1,
    parameters: kind === 'linear' ? 4 * FEATURE_COUNT : null,
  });

/**
 * Publishes `policy` as version 0 of a new pool, starts one real actor process (from the sources) on it and
 * returns the first 16 episodes it pushes.
 */
async function actorEpisodes(config: TrainConfig, policy: Uint8Array): Promise<Pushed[]> {
  const url = server!.url;
  const name = `actor-${config.policy ?? 'tabular'}-${Date.now().toString(36)}`;
  const pool = await RedisPool.open(url, { name, capacity: 1000 });
  const mirror = await PoolMirror.open(url, { name });
  await notes(pool, config.policy === 'linear' ? 'linear' : 'tabular');
  await pool.publishPolicy(0, policy);
  const child = sourceLauncher({ url, pool: name, config, options: OPTIONS, seed: 0, actor: 0 });
  try {
    const deadline = Date.now() + 60_000;
    while (mirror.pool.size < 16) {
      if (Date.now() > deadline) throw new Error(`the actor pushed ${mirror.pool.size} episodes in 60 s`);
      await mirror.sync({ blockMs: 500 });
    }
    expect(mirror.malformedCount).toBe(0);
    return Array.from({ length: 16 }, (_, p) => {
      const t = mirror.pool.at(p);
      return { ...t, positions: (t.metadata as { positions?: string[] } | undefined)?.positions };
    });
  } finally {
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
    await Promise.all([pool.close(), mirror.close()]);
  }
}

describe('an actor process with --env sokoban', () => {
  const environment = SOKOBAN_SCENARIO.base.environment;
  const config = (policy: 'tabular' | 'linear'): TrainConfig => {
    const { maxSamples: _, ...base } = SOKOBAN_SCENARIO.base;
    return { ...base, seeds: [0], iterations: 10, policy };
  };
  // The test numbers positions as a learner would: only the start position of each training level.
  const levels = new SokobanEpisodeEnv(environment as ConstructorParameters<typeof SokobanEpisodeEnv>[0], 0)
    .trainingLevels;
  const starts = levels.map((level, i) => `${i}|${new SokobanEnv({ level }).reset().observation.key}`);

  it('sends each step by name, and acts with the learner row of its position, uniform off the learner table', async () => {
    // Rows in the learner's numbering, here the reverse of the levels' order, so that a row read by the
    // actor's own id would be another position's.
    const names = [...starts].reverse();
    const parameters = new Float64Array(names.length * 4);
    for (let row = 0; row < names.length; row++) parameters[row * 4 + 3] = SURE;
    // One row less than the names: the last-named position has no row yet and must read as uniform.
    const published = encodeKeyedPolicy(parameters.subarray(0, parameters.length - 4), {
      count: names.length,
      nameOf: (id) => names[id]!,
    });
    const episodes = await actorEpisodes(config('tabular'), published);
    const check = new SokobanEpisodeEnv(environment as ConstructorParameters<typeof SokobanEpisodeEnv>[0], 0);
    let sure = 0;
    let uniform = 0;
    for (const e of episodes) {
      expect(e.observations).toBeUndefined();
      expect(e.positions).toHaveLength(e.actions.length);
      expect(starts).toContain(e.positions![0]);
      expect(Array.from(e.versions).every((v) => v === 0)).toBe(true);
      for (const [t, position] of e.positions!.entries()) {
        check.idOfPosition(position); // a training position of the same level set
        const row = names.indexOf(position);
        if (row !== -1 && row < names.length - 1) {
          expect(e.actions[t]).toBe(3);
          expect(e.logProbs[t]).toBeGreaterThan(-1e-20);
          sure++;
        } else {
          expect(e.logProbs[t]).toBe(-Math.log(4));
          uniform++;
        }
      }
    }
    expect(sure).toBeGreaterThan(0);
    expect(uniform).toBeGreaterThan(0);
  });

  it('acts with a linear policy on the features of its own position, and sends those features', async () => {
    // Bias feature (the last) of Right weighted SURE: Right everywhere.
    const weights = new Float64Array(4 * FEATURE_COUNT);
    weights[3 * FEATURE_COUNT + FEATURE_COUNT - 1] = SURE;
    const episodes = await actorEpisodes(config('linear'), new Uint8Array(weights.buffer));
    const check = new SokobanEpisodeEnv(environment as ConstructorParameters<typeof SokobanEpisodeEnv>[0], 0);
    // The features of each training level's start position, computed here from the names.
    const startIds = starts.map((name) => check.idOfPosition(name));
    const startFeatures = startIds.map((id) =>
      Array.from(check.featureData.subarray(id * FEATURE_COUNT, (id + 1) * FEATURE_COUNT)),
    );
    for (const e of episodes) {
      // No position numbering leaves the actor: each step is its F features (the bias last, 1).
      expect(e.positions).toBeUndefined();
      expect(e.observations).toHaveLength(e.actions.length * FEATURE_COUNT);
      expect(startFeatures).toContainEqual(Array.from(e.observations!.subarray(0, FEATURE_COUNT)));
      for (let t = 0; t < e.actions.length; t++) {
        expect(e.observations![t * FEATURE_COUNT + FEATURE_COUNT - 1]).toBe(1);
        expect(e.actions[t]).toBe(3);
        expect(e.logProbs[t]).toBeGreaterThan(-1e-20);
      }
    }
  });
});

describe('an actor process with per-step hot-loading', () => {
  it('takes up versions published mid-episode, as deltas, and acts at each step with the version it records', async () => {
    // The learner's table names the start position of each training level; version v makes action v % 4
    // sure there, so each such step says which version the actor acted with. Other positions are off the
    // table (uniform). Versions go out every 2 ms, through the learner's PolicyPublisher (deltas after
    // the first snapshot), while the actor plays episodes of up to 30 steps.
    const { maxSamples: _, ...base } = SOKOBAN_SCENARIO.base;
    const config: TrainConfig = { ...base, seeds: [0], iterations: 10, policy: 'tabular' };
    const environment = SOKOBAN_SCENARIO.base.environment;
    const levels = new SokobanEpisodeEnv(environment as ConstructorParameters<typeof SokobanEpisodeEnv>[0], 0)
      .trainingLevels;
    const names = levels.map((level, i) => `${i}|${new SokobanEnv({ level }).reset().observation.key}`);
    const rows = Int32Array.from(names.keys());
    const theta = new Float64Array(names.length * 4);
    const setVersion = (v: number) => {
      theta.fill(0);
      for (const row of rows) theta[row * 4 + (v % 4)] = SURE;
    };
    const url = server!.url;
    const name = `actor-step-${Date.now().toString(36)}`;
    const pool = await RedisPool.open(url, { name, capacity: 1000 });
    const mirror = await PoolMirror.open(url, { name });
    const positions = { count: names.length, nameOf: (id: number) => names[id]! };
    const publisher = new PolicyPublisher(pool, keyedCodec(positions, 4));
    await notes(pool, 'tabular');
    setVersion(0);
    await publisher.publish(0, theta, null);
    const child = sourceLauncher({
      url,
      pool: name,
      config,
      options: { ...OPTIONS, hotLoad: 'step' },
      seed: 0,
      actor: 0,
    });
    let stop = false;
    let version = 0;
    const publishing = (async () => {
      while (!stop) {
        setVersion(++version);
        await publisher.publish(version, theta, rows);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    try {
      const deadline = Date.now() + 60_000;
      while (mirror.pool.size < 64) {
        if (Date.now() > deadline) throw new Error(`the actor pushed ${mirror.pool.size} episodes in 60 s`);
        await mirror.sync({ blockMs: 200 });
      }
    } finally {
      stop = true;
      await publishing;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    }
    let spanning = 0;
    let onTable = 0;
    for (let p = 0; p < mirror.pool.size; p++) {
      const t = mirror.pool.at(p);
      const steps = (t.metadata as { positions: string[] }).positions;
      for (let i = 1; i < t.versions.length; i++)
        expect(t.versions[i]).toBeGreaterThanOrEqual(t.versions[i - 1]!);
      if (t.versions[0] !== t.versions.at(-1)) spanning++;
      for (const [i, position] of steps.entries()) {
        if (names.includes(position)) {
          expect(t.actions[i]).toBe(t.versions[i]! % 4);
          expect(t.logProbs[i]).toBeGreaterThan(-1e-20);
          onTable++;
        } else {
          expect(t.logProbs[i]).toBe(-Math.log(4));
        }
      }
    }
    expect(publisher.published.deltas).toBeGreaterThan(0);
    expect(onTable).toBeGreaterThanOrEqual(mirror.pool.size);
    // An actor that loaded only per episode would have none.
    expect(spanning).toBeGreaterThan(0);
    await Promise.all([pool.close(), mirror.close()]);
  });
});

describe('an actor process that joined from elsewhere (ftw actor)', () => {
  /** A pool with a learner's task and no learner, and an actor process that joined it (stderr kept). */
  async function joinedPool(label: string, waitMs: number, url = server!.url) {
    const name = `${label}-${Date.now().toString(36)}`;
    const pool = await RedisPool.open(url, { name, capacity: 1000 });
    const mirror = await PoolMirror.open(url, { name });
    // The contextual bandit's table: 2 tasks × 3 arms, all 0.
    await writeRunNotes(pool, name, { kind: 'tabular', numActions: 3, observationSize: 1, parameters: null });
    await pool.publishPolicy(0, new Uint8Array(new Float64Array(6).buffer));
    await pool.writeNote(POOL_NOTES.state, 'running');
    const task = {
      config: { ...ASYNC_REDIS_BASE, seeds: [0] },
      options: { ...OPTIONS, horizon: 4 },
      seed: 0,
      runId: name,
    };
    await pool.writeNote(POOL_NOTES.task, JSON.stringify(task));
    const child = spawn(
      process.execPath,
      [
        '--conditions=@ftw/source',
        '--import',
        './register-ts.mjs',
        'remote-actor-child.ts',
        url,
        name,
        String(waitMs),
      ],
      { cwd: fileURLToPath(new URL('./testing/', import.meta.url)), stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const output = { stderr: '' };
    child.stderr!.on('data', (chunk: Buffer) => {
      output.stderr += chunk.toString();
    });
    const close = async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      await Promise.all([pool.close(), mirror.close()]);
    };
    return { name, pool, mirror, child, output, close };
  }

  it('leaves with the reason, exit code 1, when the learner marks its pool failed', async () => {
    const joined = await joinedPool('failed', 30_000);
    try {
      while (joined.mirror.pool.size < 8) await joined.mirror.sync({ blockMs: 500 });
      await joined.pool.writeNote(POOL_NOTES.state, 'failed');
      const [code] = await once(joined.child, 'exit');
      expect(code).toBe(1);
      expect(joined.output.stderr).toContain(
        `LearnerStoppedError: the learner of pool ${joined.name} stopped: failed`,
      );
    } finally {
      await joined.close();
    }
  });

  it('gives up, exit code 1, on a learner that stopped without a word (no new policy for its wait)', async () => {
    // Nothing updates: the rate limiter is absent here, so the actor pushes freely, and no version comes.
    const joined = await joinedPool('silent', 3000);
    try {
      const [code] = await once(joined.child, 'exit');
      expect(code).toBe(1);
      expect(joined.output.stderr).toContain(
        `LearnerStoppedError: the learner of pool ${joined.name} published no new policy in 3 s`,
      );
    } finally {
      await joined.close();
    }
  });

  it('exits, code 1 with the reason, when its Redis goes away (it used to hang, reconnecting for ever)', async () => {
    const lost = await startRedisServer();
    const joined = await joinedPool('lost', 30_000, lost.url);
    try {
      while (joined.mirror.pool.size < 8) await joined.mirror.sync({ blockMs: 500 });
      const exited = once(joined.child, 'exit');
      await lost.kill();
      // Its commands give up after the connection's reconnectTimeoutMs (10 s); then nothing may hold it.
      const timeout = new Promise<unknown[]>((resolve) =>
        setTimeout(() => resolve(['still running']), 40_000),
      );
      expect((await Promise.race([exited, timeout]))[0], joined.output.stderr).toBe(1);
      expect(joined.output.stderr).toContain('CONNECTION_LOST');
    } finally {
      await joined.close();
      await lost.stop();
    }
  }, 60_000);
});
