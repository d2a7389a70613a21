import { Worker } from 'node:worker_threads';
import type { Progress } from '../cli/progress.js';
import type { TrainConfig } from '../config/train-config.js';
import { yieldToEventLoop } from '../run/yield-to-event-loop.js';
import { isNetworkPolicy, loadNetworks } from '../train/network-module.js';
import { type PackedMetrics, packMetrics, unpackMetrics } from '../train/packed-metrics.js';
import { type SeedResult, trainSeed } from '../train/train-seed.js';

/** One seed of one configuration to train. */
export interface SeedJob {
  readonly config: TrainConfig;
  readonly seed: number;
  /** Shown with the progress bar while it trains (e.g. `seed 3 (4/10)`). */
  readonly detail: string;
}

/** What {@link trainSeeds} gives back. */
export interface TrainedSeeds {
  /** One result per job, in the jobs' order, whatever order they finished in. */
  readonly results: readonly SeedResult[];
  /**
   * Milliseconds of training: the time spent in `trainSeed` with one job at a time; the wall time from the
   * first seed sent to the last result received with several.
   */
  readonly trainingMs: number;
}

/** The `workerData` that makes the CLI's entry run seeds ({@link runSeedWorker}) instead of a command. */
export const SEED_WORKER = 'ftwSeedWorker';

/** Starts a thread that runs {@link runSeedWorker}, with `workerData` as given. */
export type SeedWorkerFactory = (workerData: unknown) => Worker;

/** The CLI's own entry (`process.argv[1]`) again, on a thread: it sees {@link SEED_WORKER} and runs seeds. */
export const cliSeedWorker: SeedWorkerFactory = (workerData) => new Worker(process.argv[1]!, { workerData });

/**
 * Milliseconds of training between two turns of the event loop, when seeds train on this thread. Often
 * enough for Ctrl-C and the progress bar; rare enough that the garbage collection V8 schedules for idle
 * moments does not move out of the training into the turns (a turn after each of 100 short seeds ran some
 * 60–90 ms of it there).
 */
const YIELD_INTERVAL_MS = 20;

/** How often a worker reports the iterations it has done, at most. */
const TICK_INTERVAL_MS = 50;

/** Messages from a seed worker. */
type FromWorker =
  | { readonly kind: 'ready' }
  | { readonly kind: 'ticks'; readonly job: number; readonly ticks: number }
  | {
      readonly kind: 'result';
      readonly job: number;
      /** With `packed`, its `metrics` are empty: they are in `packed`. */
      readonly result: SeedResult;
      readonly packed?: PackedMetrics;
    };

/** Messages to a seed worker: a job to run, or null when there is none left. */
type ToWorker = { readonly job: number; readonly config: TrainConfig; readonly seed: number } | null;

/**
 * Trains seeds, on this thread (`threads` 1) or on `threads` worker threads at once. Each seed's training
 * depends on its configuration and seed only, so the results are the same bit for bit either way, and come
 * back in the jobs' order. Workers take the next job as they finish one, so uneven seeds share out.
 *
 * On this thread it yields to the event loop every 20 ms of training, so that an interrupt (Ctrl-C) is
 * handled promptly; worker threads end with the process.
 *
 * @param jobs - the seeds to train
 * @param threads - how many at once: 1 on this thread, more on worker threads (at most one per job)
 * @param progress - advanced by one per iteration
 * @param worker - how a worker thread starts (the CLI's entry by default; tests start the built CLI)
 * @returns the results, in order, and the time spent training
 * @throws the first error of a worker (the others are stopped)
 * @example
 * ```ts
 * const { results } = await trainSeeds([0, 1, 2, 3].map((seed) => ({ config, seed, detail: `seed ${seed}` })), 2);
 * ```
 */
export async function trainSeeds(
  jobs: readonly SeedJob[],
  threads: number,
  progress?: Progress,
  worker: SeedWorkerFactory = cliSeedWorker,
): Promise<TrainedSeeds> {
  if (threads <= 1 || jobs.length <= 1) return trainHere(jobs, progress);
  const results: SeedResult[] = new Array(jobs.length);
  const workers: Worker[] = [];
  let next = 0;
  const start = performance.now();
  const run = (thread: Worker) =>
    new Promise<void>((resolve, reject) => {
      const give = (): void => {
        const job = next < jobs.length ? next++ : -1;
        const message: ToWorker = job < 0 ? null : { job, config: jobs[job]!.config, seed: jobs[job]!.seed };
        thread.postMessage(message);
      };
      thread.on('message', (message: FromWorker) => {
        if (message.kind === 'ready') give();
        else if (message.kind === 'ticks') progress?.tick(message.ticks, jobs[message.job]!.detail);
        else {
          const { result, packed } = message;
          results[message.job] =
            packed === undefined ? result : { ...result, metrics: unpackMetrics(packed) };
          give();
        }
      });
      thread.once('error', reject);
      thread.once('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`a seed worker exited with code ${code}`)),
      );
    });
  try {
    await Promise.all(
      Array.from({ length: Math.min(threads, jobs.length) }, () => {
        const thread = worker({ [SEED_WORKER]: true });
        workers.push(thread);
        return run(thread);
      }),
    );
  } catch (error) {
    await Promise.all(workers.map((w) => w.terminate()));
    throw error;
  }
  return { results, trainingMs: performance.now() - start };
}

/** The seeds in turn on this thread. */
async function trainHere(jobs: readonly SeedJob[], progress: Progress | undefined): Promise<TrainedSeeds> {
  const results: SeedResult[] = [];
  let trainingMs = 0;
  if (jobs.some((job) => isNetworkPolicy(job.config.policy))) await loadNetworks();
  let lastYield = performance.now();
  for (const { config, seed, detail } of jobs) {
    const start = performance.now();
    results.push(trainSeed(config, seed, () => progress?.tick(1, detail)));
    trainingMs += performance.now() - start;
    if (performance.now() - lastYield >= YIELD_INTERVAL_MS) {
      await yieldToEventLoop();
      lastYield = performance.now();
    }
  }
  return { results, trainingMs };
}

/**
 * The body of a seed worker (a thread started with {@link SEED_WORKER} in its `workerData`): asks for a
 * job, trains it, sends its result and its iterations done (every 50 ms at most), until told there is none
 * left.
 *
 * @param port - the worker's `parentPort`
 */
export function runSeedWorker(port: import('node:worker_threads').MessagePort): void {
  port.on('message', async (message: ToWorker) => {
    if (message === null) {
      port.close();
      return;
    }
    const { job, config, seed } = message;
    if (isNetworkPolicy(config.policy)) await loadNetworks();
    let ticks = 0;
    let last = performance.now();
    const result = trainSeed(config, seed, () => {
      ticks++;
      const now = performance.now();
      if (now - last >= TICK_INTERVAL_MS) {
        port.postMessage({ kind: 'ticks', job, ticks } satisfies FromWorker);
        ticks = 0;
        last = now;
      }
    });
    if (ticks > 0) port.postMessage({ kind: 'ticks', job, ticks } satisfies FromWorker);
    // The rows as columns, moved rather than cloned: rebuilding them from a structured clone would cost the
    // main thread about as much as training them cost this thread (see PackedMetrics).
    const packed = packMetrics(result.metrics);
    if (packed === null) port.postMessage({ kind: 'result', job, result } satisfies FromWorker);
    else {
      port.postMessage(
        { kind: 'result', job, result: { ...result, metrics: [] }, packed } satisfies FromWorker,
        [packed.values.buffer, packed.flags.buffer, packed.details.buffer],
      );
    }
  });
  port.postMessage({ kind: 'ready' } satisfies FromWorker);
}
