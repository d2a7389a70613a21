import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  type BuildDatasetOptions,
  INPUT_FORMATS,
  type InputFormat,
  manifestPath,
  OUTPUT_FORMATS,
  type OutputFormat,
  TIE_BREAK_KEYS,
  type TieBreakKey,
} from '@ftw/agent-data';
import { UsageError } from '../cli/usage-error.js';
import { MAX_SEED, readChoice, readInteger, readNumber } from '../config/read-value.js';
import { checkOutputFile } from '../run/output-path.js';

/** The validated flags of `ftw dataset` (everything but the random stream, made from `seed`). */
export type DatasetFlags = Omit<BuildDatasetOptions, 'random' | 'onIssue' | 'onProgress' | 'seed'> & {
  readonly seed: number;
  readonly quiet: boolean;
  readonly json: boolean;
};

/**
 * Reads and checks the flags of `ftw dataset`: every number and word through the runner's readers, the
 * tie-break list against the package's keys, K ≤ C, that the input file exists and is not the output, and
 * that the output and its manifest can be written (see `checkOutputFile`; `--force` replaces them).
 *
 * @param o - commander's parsed options (strings, booleans)
 * @returns the validated flags
 * @throws {@link UsageError} naming the flag, the value and what is allowed; `OutputPathError` for an
 *   output or manifest path that cannot be written
 * @example
 * ```ts
 * readDatasetOptions({ input: 'runs.jsonl', capacity: '1000', batchSize: '8', keep: '2', batches: '64',
 *   format: 'openai', out: 'sft.jsonl', from: 'ftw', selection: 'sampled', seed: '0' }).keep; // 2
 * ```
 */
export function readDatasetOptions(o: Record<string, unknown>): DatasetFlags {
  const input = readPath(o['input'], '--input');
  if (!existsSync(input) || !statSync(input).isFile()) {
    throw new UsageError(`--input must be an existing file, got ${JSON.stringify(input)}`);
  }
  const out = readPath(o['out'], '--out');
  if (resolve(out) === resolve(input)) throw new UsageError('--out must differ from --input');
  const force = o['force'] === true;
  const batchSize = readInteger(o['batchSize'], '--batch-size', { min: 1, max: 2 ** 31 });
  const keep = readInteger(o['keep'], '--keep', { min: 1, max: batchSize });
  const threshold = o['threshold'] === undefined ? undefined : readNumber(o['threshold'], '--threshold');
  const successAbove =
    o['successAbove'] === undefined ? undefined : readNumber(o['successAbove'], '--success-above');
  const currentLogprobs =
    o['currentLogprobs'] === undefined ? undefined : readPath(o['currentLogprobs'], '--current-logprobs');
  if (currentLogprobs !== undefined && !existsSync(currentLogprobs)) {
    throw new UsageError(
      `--current-logprobs must be an existing file, got ${JSON.stringify(currentLogprobs)}`,
    );
  }
  const flags: DatasetFlags = {
    input,
    from: readChoice(o['from'], '--from', INPUT_FORMATS) as InputFormat,
    strict: o['strict'] === true,
    capacity: readInteger(o['capacity'], '--capacity', { min: 1, max: 2 ** 31 }),
    batchSize,
    keep,
    batches: readInteger(o['batches'], '--batches', { min: 1, max: 100_000_000 }),
    mode: readChoice(o['selection'], '--selection', ['sampled', 'expected'] as const),
    threshold,
    successAbove,
    tieBreak: readTieBreak(o['tieBreak']),
    perTask: o['perTask'] === true,
    seed: readInteger(o['seed'], '--seed', { max: MAX_SEED }),
    format: readChoice(o['format'], '--format', OUTPUT_FORMATS) as OutputFormat,
    out,
    allowEmpty: o['allowEmpty'] === true,
    ...(currentLogprobs === undefined ? {} : { currentLogprobs }),
    quiet: o['quiet'] === true,
    json: o['json'] === true,
  };
  // The paths last: every other flag is checked before a file is probed.
  checkOutputFile({ label: '--out', path: out }, force);
  checkOutputFile({ label: 'the manifest beside --out', path: manifestPath(out) }, force);
  return flags;
}

function readPath(value: unknown, label: string): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new UsageError(`${label} must be a file path, got ${JSON.stringify(value)}`);
  return value;
}

function readTieBreak(value: unknown): TieBreakKey[] {
  if (value === undefined || value === '') return [];
  const keys = String(value)
    .split(',')
    .map((k) => k.trim());
  for (const key of keys) {
    if (!(TIE_BREAK_KEYS as readonly string[]).includes(key)) {
      throw new UsageError(
        `--tie-break must be a comma-separated list of ${TIE_BREAK_KEYS.join(', ')}, got ${JSON.stringify(value)}`,
      );
    }
  }
  return keys as TieBreakKey[];
}
