import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { main } from './main.js';

/** `SEED_WORKER` of commands/train-seeds.ts, spelled here so that a command's start loads none of the training. */
const SEED_WORKER: typeof import('./commands/train-seeds.js').SEED_WORKER = 'ftwSeedWorker';

if (!isMainThread && (workerData as Record<string, unknown> | null)?.[SEED_WORKER] === true) {
  // A thread of `--jobs N`: it trains the seeds it is sent (see trainSeeds).
  const { runSeedWorker } = await import('./commands/train-seeds.js');
  runSeedWorker(parentPort!);
} else {
  // A closed pipe (`ftw train --help | head`) is not an error of the run.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });

  process.exitCode = await main(process.argv);
}
