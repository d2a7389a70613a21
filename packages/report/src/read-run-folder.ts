import { closeSync, createReadStream, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { RunData } from './run-data.js';
import { RunFolderError } from './run-folder-error.js';

/**
 * The `ftw` commands whose run folders have learning curves: those {@link readRunFolder} reads.
 *
 * @example
 * ```ts
 * VIEWABLE_COMMANDS.includes('occupancy' as never); // false
 * ```
 */
export const VIEWABLE_COMMANDS = ['train', 'compare', 'reproduce'] as const;

const REQUIRED_FIELDS = ['seed', 'iteration', 'samples'] as const;
const BYTE_ORDER_MARK = 0xfeff;

/**
 * A file's text as UTF-8 without the byte-order mark some editors write at its start (Windows Notepad,
 * PowerShell's `Out-File`), which `JSON.parse` would otherwise refuse.
 */
function readTextFile(path: string): string {
  const text = readFileSync(path, 'utf8');
  return text.charCodeAt(0) === BYTE_ORDER_MARK ? text.slice(1) : text;
}

function readJson(path: string, file: string): unknown {
  let text: string;
  try {
    text = readTextFile(join(path, file));
  } catch {
    throw new RunFolderError(
      `${path} is not an ftw run: it has no ${file} (a run folder holds config.json, metrics.ndjson and summary.json, as written by ftw train, compare or reproduce)`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new RunFolderError(`${join(path, file)} is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * Checks one line of `metrics.ndjson` and returns it; the run's format is what this runner writes.
 *
 * @param row - the parsed line
 * @param where - file and line number for the message
 * @returns the row
 * @throws {@link RunFolderError} when it is not an object with numeric seed, iteration and samples
 */
function checkMetricRow(row: unknown, where: string): Record<string, unknown> {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) {
    throw new RunFolderError(`${where} must be a JSON object, got ${JSON.stringify(row)?.slice(0, 80)}`);
  }
  const record = row as Record<string, unknown>;
  for (const field of REQUIRED_FIELDS) {
    if (typeof record[field] !== 'number' || !Number.isFinite(record[field])) {
      throw new RunFolderError(
        `${where} has no numeric "${field}" field (got ${JSON.stringify(record[field]) ?? 'nothing'}): the run was written by an older ftw, whose metrics did not record seed, iteration and environment steps (samples) on every line; run it again with this version`,
      );
    }
  }
  return record;
}

/**
 * Reads a run folder written by `ftw train`, `compare` or `reproduce` for `ftw view`: `config.json`,
 * `summary.json` and `metrics.ndjson` (streamed line by line: 100 seeds × 10^4 iterations is a million
 * lines).
 *
 * @param path - the run's folder
 * @returns the run, named after its folder
 * @throws {@link RunFolderError} naming the folder and what is wrong: not a folder, not a run
 * (no config.json, metrics.ndjson or summary.json), a run of another command (occupancy: no curves), a run
 * of an older format (no command in config.json, metric lines without seed/iteration/samples), bad JSON
 * (with its line number), or no metrics at all. A last line cut short (not JSON, and no line end after
 * it: a run killed while writing) is no error: it is left out and named in the run's `notices`.
 * @example
 * ```ts
 * (await readRunFolder('runs/reproduce')).metrics.length; // 720 (3 seeds × 240 iterations)
 * ```
 */
export async function readRunFolder(path: string): Promise<RunData> {
  const absolute = resolve(path);
  let isDirectory = false;
  try {
    isDirectory = statSync(absolute).isDirectory();
  } catch {
    throw new RunFolderError(`run folder ${JSON.stringify(path)} does not exist`);
  }
  if (!isDirectory)
    throw new RunFolderError(`${JSON.stringify(path)} is not a folder (ftw view takes run folders)`);
  const config = readJson(path, 'config.json');
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new RunFolderError(
      `${join(path, 'config.json')} must hold a JSON object, got ${JSON.stringify(config)?.slice(0, 80)}`,
    );
  }
  const command = (config as Record<string, unknown>)['command'];
  if (command === undefined) {
    throw new RunFolderError(
      `${path} was written by an older ftw: its config.json has no "command" field; run it again with this version`,
    );
  }
  if (!(VIEWABLE_COMMANDS as readonly unknown[]).includes(command)) {
    throw new RunFolderError(
      `${path} is a run of "ftw ${String(command)}", which has no learning curves; ftw view shows runs of ${VIEWABLE_COMMANDS.join(', ')}`,
    );
  }
  const summary = readJson(path, 'summary.json');
  const file = join(path, 'metrics.ndjson');
  try {
    statSync(file);
  } catch {
    throw new RunFolderError(`${path} is not a finished ftw run: it has no metrics.ndjson`);
  }
  const metrics: Record<string, unknown>[] = [];
  const lines = createInterface({
    input: createReadStream(file, 'utf8'),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let number = 0;
  // A line that is not JSON: an error, unless it is the last line and has no line end (a run killed while
  // writing it), which is reported and left out.
  let cut: { number: number; error: Error } | undefined;
  const notJson = ({ number, error }: { number: number; error: Error }): RunFolderError =>
    new RunFolderError(`${file} line ${number} is not valid JSON: ${error.message}`);
  for await (const raw of lines) {
    number++;
    const line = number === 1 && raw.charCodeAt(0) === BYTE_ORDER_MARK ? raw.slice(1) : raw;
    if (line.trim() === '') continue;
    if (cut !== undefined) throw notJson(cut);
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch (error) {
      cut = { number, error: error as Error };
      continue;
    }
    metrics.push(checkMetricRow(row, `${file} line ${number}`));
  }
  const notices: string[] = [];
  if (cut !== undefined) {
    if (endsWithLineBreak(file)) throw notJson(cut);
    notices.push(
      `${basename(absolute)}: the last line of metrics.ndjson (line ${cut.number}) is cut short, as when a run is killed while writing; the ${metrics.length} complete lines are drawn`,
    );
  }
  if (metrics.length === 0) throw new RunFolderError(`${file} is empty: the run recorded no iteration`);
  return {
    name: basename(absolute),
    config: config as Record<string, unknown>,
    metrics,
    summary,
    ...(notices.length > 0 ? { notices } : {}),
  };
}

/** Whether a file's last byte is a line feed. */
function endsWithLineBreak(file: string): boolean {
  const size = statSync(file).size;
  if (size === 0) return true;
  const fd = openSync(file, 'r');
  try {
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}
