import { UsageError } from '../cli/usage-error.js';
import { readTextFile } from './read-text-file.js';

/**
 * Reads a JSON configuration file: an object whose keys are option names (`batchSize`, `lr`, …). A
 * byte-order mark at its start is ignored.
 *
 * @param path - the file given to `--config`
 * @returns the object and the name to use in messages
 * @throws {@link UsageError} when the file cannot be read, is not JSON, or is not a JSON object
 * @example
 * ```ts
 * readConfigFile('cfg.json'); // { values: { keep: 2 }, name: 'cfg.json' }
 * ```
 */
export function readConfigFile(path: string): { values: Record<string, unknown>; name: string } {
  let text: string;
  try {
    text = readTextFile(path);
  } catch (error) {
    const reason = error instanceof Error && 'code' in error ? String(error.code) : 'unreadable';
    throw new UsageError(`--config must name a readable JSON file, got ${JSON.stringify(path)} (${reason})`);
  }
  let values: unknown;
  try {
    values = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(`--config file ${JSON.stringify(path)} is not valid JSON: ${reason}`);
  }
  if (typeof values !== 'object' || values === null || Array.isArray(values)) {
    throw new UsageError(`--config file ${JSON.stringify(path)} must hold a JSON object of options`);
  }
  return { values: values as Record<string, unknown>, name: path };
}
