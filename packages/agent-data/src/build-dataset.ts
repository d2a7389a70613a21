import { rename, rm, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { AgentDataError } from './agent-data-error.js';
import { collectWindow } from './collect-window.js';
import { type ImportanceDiagnostics, importanceDiagnostics } from './importance-diagnostics.js';
import type { InputFormat } from './input-format.js';
import {
  type LineIssue,
  type LineWarning,
  openTrajectories,
  type ReadStats,
  type WarningTally,
} from './open-trajectories.js';
import type { RunWarningKind } from './run-warnings.js';
import { type DatasetSelectionOptions, type SelectionReport, selectDataset } from './select-dataset.js';
import { type OutputFormat, writeDataset, writtenCounts } from './write-dataset.js';

/** Everything {@link buildDataset} needs. */
export interface BuildDatasetOptions extends DatasetSelectionOptions {
  /** The log: a JSONL file path. */
  readonly input: string;
  /** Its shape. @defaultValue 'ftw' */
  readonly from?: InputFormat;
  /** Stop at the first bad line or run warning (see `openTrajectories`). @defaultValue false */
  readonly strict?: boolean;
  /**
   * Write an empty file when the selection keeps no run; otherwise that is an `EMPTY_DATASET` error and
   * nothing is written. @defaultValue false
   */
  readonly allowEmpty?: boolean;
  /** N, the newest runs kept. */
  readonly capacity: number;
  /** Output format. */
  readonly format: OutputFormat;
  /** Output file; the manifest is written beside it ({@link manifestPath}). */
  readonly out: string;
  /** Randomness: the minibatch draws (sampled) and the rounding uniform (expected, openai/art). */
  readonly random: () => number;
  /** The seed that made `random`, recorded in the manifest. @defaultValue null */
  readonly seed?: number | null;
  /** Current-policy log-probabilities (JSONL) for the importance diagnostics. @defaultValue none */
  readonly currentLogprobs?: string;
  /** Every skipped line. */
  readonly onIssue?: (issue: LineIssue) => void;
  /** Every warning of a valid run. */
  readonly onWarning?: (warning: LineWarning) => void;
  /** Read progress after each chunk. */
  readonly onProgress?: (stats: Readonly<ReadStats>) => void;
}

/** The manifest written beside a dataset: enough to audit and reproduce it. */
export interface DatasetManifest {
  readonly generator: '@ftw/agent-data';
  readonly configuration: Record<string, unknown>;
  readonly seed: number | null;
  readonly input: {
    readonly file: string;
    readonly sha256: string;
    readonly bytes: number;
    readonly lines: number;
    readonly valid: number;
    readonly skipped: number;
    /** Valid runs read with each warning, and their first lines (see `RUN_WARNINGS`). */
    readonly warnings: Readonly<Record<RunWarningKind, Readonly<WarningTally>>>;
  };
  readonly window: {
    readonly size: number;
    readonly evicted: number;
    readonly firstLine: number;
    readonly lastLine: number;
  };
  readonly output: {
    readonly file: string;
    readonly format: OutputFormat;
    readonly lines: number;
    readonly sha256: string;
  };
  readonly report: SelectionReport;
  readonly importance: ImportanceDiagnostics | null;
  /** Every run with a count above 0, in window order: its count and what was written (copies or weight). */
  readonly selected: readonly { readonly id: string; readonly count: number; readonly written: number }[];
}

/** The result of {@link buildDataset}. */
export interface BuiltDataset {
  readonly manifest: DatasetManifest;
  readonly manifestFile: string;
  readonly stats: Readonly<ReadStats>;
}

/**
 * The manifest's path beside an output file: `sft.jsonl` → `sft.manifest.json`.
 * @param out - the output file
 * @returns the manifest file
 * @example
 * ```ts
 * manifestPath('data/sft.jsonl'); // 'data/sft.manifest.json'
 * ```
 */
export function manifestPath(out: string): string {
  return `${out.replace(/\.jsonl?$/i, '')}.manifest.json`;
}

/**
 * The whole path from a log to a fine-tuning file: stream the log ({@link openTrajectories}), keep the
 * newest N ({@link collectWindow}), weight them by FTW ({@link selectDataset}), write the file
 * ({@link writeDataset}) and its manifest (configuration, seed, input SHA-256, every selected id with its
 * count, the report, and the importance diagnostics when `currentLogprobs` is given). Memory is bounded by
 * N, not by the log. The same input, options and random stream give byte-identical files.
 *
 * Both files are written to temporary files renamed into place; when the manifest cannot be written, the
 * dataset written before it is removed, so a failure leaves neither.
 *
 * @param options - input, window, selection, output and randomness
 * @returns the manifest and read statistics
 * @throws what its steps throw: RangeError/TypeError for bad options, AgentDataError for bad data, and
 *   AgentDataError `EMPTY_DATASET` (before writing anything) when no line would be written and
 *   `allowEmpty` is not set
 * @example
 * ```ts
 * await buildDataset({ input: 'runs.jsonl', from: 'ai-sdk', capacity: 1000, batches: 64, batchSize: 8,
 *   keep: 2, format: 'openai', out: 'sft.jsonl', random: uniform, seed: 0 });
 * // writes sft.jsonl (128 lines) and sft.manifest.json
 * ```
 */
export async function buildDataset(options: BuildDatasetOptions): Promise<BuiltDataset> {
  const stream = openTrajectories(options.input, {
    from: options.from ?? 'ftw',
    strict: options.strict === true,
    ...(options.onIssue === undefined ? {} : { onIssue: options.onIssue }),
    ...(options.onWarning === undefined ? {} : { onWarning: options.onWarning }),
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
  });
  const window = await collectWindow(stream, { capacity: options.capacity });
  const items = window.items.map((w) => w.trajectory);
  const mode = options.mode ?? 'sampled';
  const selection: DatasetSelectionOptions = {
    batches: options.batches,
    batchSize: options.batchSize,
    keep: options.keep,
    mode,
    threshold: options.threshold,
    tieBreak: options.tieBreak ?? [],
    perTask: options.perTask === true,
    successAbove: options.successAbove,
  };
  const { counts, report } = selectDataset(items, selection, options.random);
  const u = mode === 'expected' && options.format !== 'trl' ? options.random() : undefined;
  // Without a threshold every minibatch keeps exactly K, so the counts total J·K per group.
  const total = options.threshold === undefined ? options.batches * options.keep * report.groups : undefined;
  const writeOptions = {
    format: options.format,
    ...(u === undefined ? {} : { u }),
    ...(total === undefined ? {} : { total }),
  };
  if (options.allowEmpty !== true && writtenCounts(counts, writeOptions).every((c) => !(c > 0))) {
    throw new AgentDataError('EMPTY_DATASET', emptyReason(items, options.threshold, mode));
  }
  // Read before anything is written: a bad log-probability file must not leave a dataset behind.
  const importance =
    options.currentLogprobs === undefined
      ? null
      : await importanceDiagnostics(items, counts, options.currentLogprobs);
  const written = await writeDataset(options.out, items, counts, writeOptions);
  const stats = stream.stats;
  const selected: { id: string; count: number; written: number }[] = [];
  items.forEach((t, i) => {
    if (counts[i]! > 0 || written.written[i]! > 0)
      selected.push({ id: t.id, count: counts[i]!, written: written.written[i]! });
  });
  const manifest: DatasetManifest = {
    generator: '@ftw/agent-data',
    configuration: {
      from: options.from ?? 'ftw',
      strict: options.strict === true,
      capacity: options.capacity,
      batches: options.batches,
      batchSize: options.batchSize,
      keep: options.keep,
      selection: mode,
      threshold: options.threshold ?? null,
      tieBreak: options.tieBreak ?? [],
      perTask: options.perTask === true,
      successAbove: report.successAbove,
      format: options.format,
      roundingUniform: u ?? null,
    },
    seed: options.seed ?? null,
    input: {
      file: basename(options.input),
      sha256: stats.sha256 ?? '',
      bytes: stats.bytes,
      lines: stats.lines,
      valid: stats.valid,
      skipped: stats.skipped,
      warnings: stats.warnings,
    },
    window: {
      size: items.length,
      evicted: window.evicted,
      firstLine: window.items[0]!.line,
      lastLine: window.items[window.items.length - 1]!.line,
    },
    output: {
      file: basename(options.out),
      format: options.format,
      lines: written.lines,
      sha256: written.sha256,
    },
    report,
    importance,
    selected,
  };
  const manifestFile = manifestPath(options.out);
  const temporary = `${manifestFile}.tmp-${process.pid}`;
  try {
    await writeFile(temporary, `${JSON.stringify(manifest, null, 2)}\n`);
    await rename(temporary, manifestFile);
  } catch (error) {
    await rm(temporary, { force: true });
    await rm(options.out, { force: true });
    throw error;
  }
  return { manifest, manifestFile, stats };
}

/** Why a selection keeps nothing, naming the threshold (the one option that can empty it) and its value. */
function emptyReason(
  items: readonly { readonly reward: number }[],
  threshold: number | undefined,
  mode: 'sampled' | 'expected',
): string {
  let highest = Number.NEGATIVE_INFINITY;
  let above = 0;
  for (const { reward } of items) {
    if (reward > highest) highest = reward;
    if (threshold !== undefined && reward > threshold) above++;
  }
  if (threshold === undefined) return 'no run was selected';
  if (above === 0) {
    return `no run was selected: no run of the window has a reward above threshold (${threshold}); the highest is ${highest}`;
  }
  return `no run was selected: ${above} of the window's ${items.length} runs have a reward above threshold (${threshold}), and ${
    mode === 'sampled' ? 'no minibatch drew one' : 'their expected counts round to no copy'
  }`;
}
