import { availableParallelism } from 'node:os';
import type { Command } from 'commander';
import { UsageError } from './usage-error.js';

/**
 * Declares `--jobs <n>` on a command that trains seeds: how many train at once, on worker threads (see
 * `trainSeeds`). The results are the same bit for bit whatever the number.
 *
 * @param command - the commander command
 * @returns the command, for chaining
 * @example
 * ```ts
 * addJobsOption(new Command('train')); // ftw train --jobs 4
 * ```
 */
export function addJobsOption(command: Command): Command {
  return command.option(
    '--jobs <n>',
    'seeds trained at once on worker threads, or auto (one per core); the same results bit for bit',
    '1',
  );
}

/**
 * Reads `--jobs` from a parsed command: an integer, or `auto` for the number of cores Node reports
 * (`os.availableParallelism()`).
 *
 * @param command - the parsed commander command
 * @returns the number of seeds to train at once, an integer in [1, 256]
 * @throws UsageError naming `--jobs` and the value when it is neither such an integer nor `auto`
 */
export function readJobs(command: Command): number {
  const value = command.opts<{ jobs: unknown }>().jobs;
  if (value === 'auto') return Math.min(256, Math.max(1, availableParallelism()));
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= 1 && n <= 256)) {
    throw new UsageError(`--jobs must be an integer in [1, 256] or auto, got ${JSON.stringify(value)}`);
  }
  return n;
}
