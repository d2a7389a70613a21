import type { AgentDataError } from '@ftw/agent-data';
import type { DatasetFlags } from './read-dataset-options.js';

/** The package's option names in its messages, written `name (value)`, and the flags that set them. */
const FLAGS: Readonly<Record<string, string>> = {
  batchSize: '--batch-size',
  capacity: '--capacity',
  threshold: '--threshold',
};

/** What to do, by code, in the flags' words. */
const REMEDIES: Readonly<Partial<Record<AgentDataError['code'], string>>> = {
  POOL_TOO_SMALL: 'give a smaller --batch-size, a larger --capacity or a log of more runs',
  EMPTY_DATASET: 'lower --threshold, or add --allow-empty to write an empty file',
};

/**
 * The message `ftw dataset` prints for a domain error of `@ftw/agent-data`: the input file, then the
 * package's message with its option names (`batchSize (8)`) turned into the flags the user typed
 * (`--batch-size 8`), then what to do.
 *
 * @param error - what `buildDataset` threw
 * @param flags - the command's flags (for the input's name)
 * @returns one line
 * @example
 * ```ts
 * datasetErrorMessage(new AgentDataError('POOL_TOO_SMALL', 'the window holds 3 runs, fewer than batchSize (5)'), flags);
 * // 'runs.jsonl: the window holds 3 runs, fewer than --batch-size 5; give a smaller --batch-size, a larger --capacity or a log of more runs'
 * ```
 */
export function datasetErrorMessage(error: AgentDataError, flags: Pick<DatasetFlags, 'input'>): string {
  const message = error.message.replace(
    /\b([a-z][A-Za-z]*) \(([^()]*)\)/g,
    (whole, name: string, value: string) => (Object.hasOwn(FLAGS, name) ? `${FLAGS[name]} ${value}` : whole),
  );
  const remedy = REMEDIES[error.code];
  return `${flags.input}: ${message}${remedy === undefined ? '' : `; ${remedy}`}`;
}
