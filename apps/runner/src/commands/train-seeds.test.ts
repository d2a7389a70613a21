import { MessageChannel, Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { REPRODUCE_CONFIG } from '../config/reproduce-config.js';
import { type PackedMetrics, unpackMetrics } from '../train/packed-metrics.js';
import { type SeedResult, trainSeed } from '../train/train-seed.js';
import { runSeedWorker, SEED_WORKER, type SeedJob, trainSeeds } from './train-seeds.js';

const config = { ...REPRODUCE_CONFIG, iterations: 30 };
const jobs: SeedJob[] = [0, 1, 2, 3, 4, 5].map((seed) => ({ config, seed, detail: `seed ${seed}` }));

/** A worker thread (plain JavaScript) that speaks the seed workers' protocol with the given reply. */
function fakeWorker(onJob: string) {
  return (workerData: unknown) => {
    expect(workerData).toEqual({ [SEED_WORKER]: true });
    return new Worker(
      `const { parentPort } = require('node:worker_threads');
       parentPort.on('message', (m) => {
         if (m === null) return parentPort.close();
         ${onJob}
       });
       parentPort.postMessage({ kind: 'ready' });`,
      { eval: true },
    );
  };
}

describe('trainSeeds', () => {
  it('on one thread, gives what trainSeed gives, seed by seed, and ticks once per iteration', async () => {
    let ticks = 0;
    const { results, trainingMs } = await trainSeeds(jobs, 1, { tick: (n) => void (ticks += n), stop() {} });
    expect(results).toEqual(jobs.map((j) => trainSeed(j.config, j.seed)));
    expect(ticks).toBe(6 * 30);
    expect(trainingMs).toBeGreaterThan(0);
  });

  it("keeps the jobs' order whatever order the threads finish in, and passes their ticks on", async () => {
    // Later jobs finish first: job k answers after (6 − k) × 15 ms.
    let ticks = 0;
    const details: string[] = [];
    const { results } = await trainSeeds(
      jobs,
      3,
      {
        tick(n, detail) {
          ticks += n;
          details.push(detail!);
        },
        stop() {},
      },
      fakeWorker(`setTimeout(() => {
          parentPort.postMessage({ kind: 'ticks', job: m.job, ticks: 2 });
          parentPort.postMessage({ kind: 'result', job: m.job, result: { seed: m.seed * 10 } });
        }, (6 - m.job) * 15);`),
    );
    expect(results.map((r) => r.seed)).toEqual([0, 10, 20, 30, 40, 50]);
    expect(ticks).toBe(12);
    expect(new Set(details)).toEqual(new Set(jobs.map((j) => j.detail)));
  });

  it("fails with a thread's error, or when a thread exits before the end, and stops the others", async () => {
    await expect(
      trainSeeds(jobs, 2, undefined, fakeWorker(`throw new Error('no such level');`)),
    ).rejects.toThrow('no such level');
    await expect(trainSeeds(jobs, 2, undefined, fakeWorker('process.exit(3);'))).rejects.toThrow(
      'a seed worker exited with code 3',
    );
  });
});

describe('runSeedWorker', () => {
  it('trains the jobs it is sent and answers with trainSeed’s result, its metric rows packed into columns', async () => {
    const { port1, port2 } = new MessageChannel();
    runSeedWorker(port1);
    const messages: {
      kind: string;
      job?: number;
      ticks?: number;
      result?: SeedResult;
      packed?: PackedMetrics;
    }[] = [];
    const done = new Promise<void>((resolve) => {
      port2.on('message', (m: (typeof messages)[number]) => {
        messages.push(m);
        if (m.kind === 'ready') port2.postMessage({ job: 7, config, seed: 3 });
        if (m.kind === 'result') resolve();
      });
    });
    await done;
    port2.postMessage(null);
    port2.close();
    expect(messages[0]).toEqual({ kind: 'ready' });
    const ticks = messages.filter((m) => m.kind === 'ticks').reduce((n, m) => n + m.ticks!, 0);
    expect(ticks).toBe(30);
    expect(messages.every((m) => m.kind === 'ready' || m.job === 7)).toBe(true);
    const { result, packed } = messages.at(-1)!;
    const expected = trainSeed(config, 3);
    expect(result).toEqual({ ...expected, metrics: [] });
    expect(Object.keys(result!)).toEqual(Object.keys(expected));
    expect(unpackMetrics(packed!)).toEqual(expected.metrics);
  });
});
