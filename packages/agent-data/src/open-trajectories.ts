import { AgentDataError } from './agent-data-error.js';
import { type InputFormat, importerFor } from './input-format.js';
import { isTrajectory } from './is-trajectory.js';
import { type JsonlProgress, newJsonlProgress, readJsonlLines } from './jsonl-lines.js';
import { kind } from './record-fields.js';
import { RUN_WARNINGS, type RunWarningKind, runWarnings } from './run-warnings.js';
import { shapeHint } from './shape-hint.js';
import { type Trajectory, trajectorySchema } from './trajectory-schema.js';

/** Lines kept per warning kind in {@link ReadStats} (the count goes on; memory stays bounded). */
export const WARNING_LINES_KEPT = 100;

/** The runs of one warning kind: how many, and the first {@link WARNING_LINES_KEPT} lines. */
export interface WarningTally {
  count: number;
  readonly lines: number[];
}

/** A bad line: where it is and why it was skipped. */
export interface LineIssue {
  /** The input's name (the path, or `options.name`). */
  readonly file: string;
  /** 1-based line number. */
  readonly line: number;
  /** Why: invalid JSON, a missing field, a schema violation (with its path). */
  readonly reason: string;
}

/** A valid trajectory with the line it came from (the FIFO order of runs that carry no order field). */
export interface LoggedTrajectory {
  readonly trajectory: Trajectory;
  readonly line: number;
  /**
   * The line's text when it is exactly the trajectory's JSON (a native line that passed the fast check
   * unchanged), so that a window can hold the flat string instead of the object graph.
   */
  readonly text?: string;
}

/** Counts of a read, final once the iteration has ended. */
export interface ReadStats extends JsonlProgress {
  /** Valid trajectories read. */
  valid: number;
  /** Bad lines skipped (over-long lines included). */
  skipped: number;
  /** Valid runs with each warning (see `RUN_WARNINGS`), with their first lines. */
  readonly warnings: Record<RunWarningKind, WarningTally>;
}

/** A warning about a valid run: where it is, its kind and what (the field path and the value). */
export interface LineWarning extends LineIssue {
  readonly kind: RunWarningKind;
}

/** Options of {@link openTrajectories}. */
export interface OpenOptions {
  /** The input's shape. @defaultValue 'ftw' */
  readonly from?: InputFormat;
  /**
   * Throw an {@link AgentDataError} at the first bad line (`BAD_LINE`) instead of skipping it, and at the
   * first run with a warning (`RUN_WARNING`) instead of counting it. @defaultValue false
   */
  readonly strict?: boolean;
  /** The input's name in issues. @defaultValue the path, or `'<stream>'` */
  readonly name?: string;
  /** Called for every skipped line (not in strict mode). */
  readonly onIssue?: (issue: LineIssue) => void;
  /** Called for every warning of a valid run (not in strict mode). */
  readonly onWarning?: (warning: LineWarning) => void;
  /** Called after each chunk read (for a progress bar). */
  readonly onProgress?: (stats: Readonly<ReadStats>) => void;
  /** Lines longer than this are skipped as bad. @defaultValue 64 MiB */
  readonly maxLineBytes?: number;
}

/** An async iterable of trajectories that keeps its read statistics. */
export interface TrajectoryStream extends AsyncIterable<LoggedTrajectory> {
  /** Lines, bytes, valid and skipped counts, and the input's SHA-256 once read to the end. */
  readonly stats: Readonly<ReadStats>;
}

/**
 * Streams the trajectories of a JSONL log, one line at a time (memory bounded by the longest line): each
 * line is parsed, imported from its shape ({@link importerFor}) and validated by {@link trajectorySchema}.
 * A bad line is reported as `file:line: reason` to `onIssue`, skipped and counted, or, with `strict`,
 * ends the read with an {@link AgentDataError} `BAD_LINE` carrying the same text.
 *
 * @param input - a file path, or an async iterable of chunks (a `Readable`)
 * @param options - shape, strictness, callbacks
 * @returns the stream; iterate it once
 * @throws RangeError for an unknown `from` (at once); AgentDataError `BAD_LINE` (while iterating, strict)
 * @example
 * ```ts
 * const runs = openTrajectories('runs.jsonl', { from: 'ai-sdk', onIssue: (i) => console.warn(formatIssue(i)) });
 * for await (const { trajectory } of runs) console.log(trajectory.id, trajectory.reward);
 * runs.stats; // { lines: 1000, valid: 998, skipped: 2, bytes: 1234567, sha256: '…', overlong: 0 }
 * ```
 */
export function openTrajectories(
  input: string | AsyncIterable<Uint8Array | string>,
  options: OpenOptions = {},
): TrajectoryStream {
  const importer = importerFor(options.from ?? 'ftw');
  const file = options.name ?? (typeof input === 'string' ? input : '<stream>');
  const from = options.from ?? 'ftw';
  const warnings = {} as Record<RunWarningKind, WarningTally>;
  for (const k of RUN_WARNINGS) warnings[k] = { count: 0, lines: [] };
  const stats: ReadStats = { ...newJsonlProgress(), valid: 0, skipped: 0, warnings };
  const strict = options.strict === true;
  const report = (line: number, reason: string): void => {
    stats.skipped++;
    const issue = { file, line, reason };
    if (strict) throw new AgentDataError('BAD_LINE', formatIssue(issue));
    options.onIssue?.(issue);
  };
  const check = (trajectory: Trajectory, line: number): void => {
    for (const { kind: warning, detail } of runWarnings(trajectory)) {
      const reason = `${warning}: ${detail}`;
      if (strict) throw new AgentDataError('RUN_WARNING', formatIssue({ file, line, reason }));
      const tally = warnings[warning];
      tally.count++;
      if (tally.lines.length < WARNING_LINES_KEPT) tally.lines.push(line);
      options.onWarning?.({ file, line, reason, kind: warning });
    }
  };
  const withHint = (reason: string, value: unknown): string => {
    const hint = shapeHint(value, from);
    return hint === undefined ? reason : `${reason}; ${hint}`;
  };
  async function* iterate(): AsyncGenerator<LoggedTrajectory> {
    const lines = readJsonlLines(input, stats, {
      ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
      onOverlong: (line) =>
        report(line, `line longer than ${options.maxLineBytes ?? 64 * 1024 * 1024} bytes`),
      onChunk: () => options.onProgress?.(stats),
    });
    for await (const { text, line } of lines) {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        report(line, `invalid JSON: ${(error as Error).message}`);
        continue;
      }
      let candidate: unknown;
      try {
        candidate = importer(value, line);
      } catch (error) {
        if (error instanceof AgentDataError) throw error;
        report(line, withHint((error as Error).message, value));
        continue;
      }
      // The fast check accepts exactly what zod would return unchanged; anything else goes to zod.
      if (isTrajectory(candidate)) {
        check(candidate, line);
        stats.valid++;
        yield candidate === value ? { trajectory: candidate, line, text } : { trajectory: candidate, line };
        continue;
      }
      const parsed = trajectorySchema.safeParse(candidate);
      if (!parsed.success) {
        report(line, withHint(describeIssues(parsed.error.issues, candidate, from), value));
        continue;
      }
      check(parsed.data, line);
      stats.valid++;
      yield { trajectory: parsed.data, line };
    }
  }
  return { stats, [Symbol.asyncIterator]: iterate };
}

/**
 * Formats a bad line the way compilers do, so editors can jump to it.
 *
 * @param issue - the issue
 * @returns `file:line: reason`
 * @example
 * ```ts
 * formatIssue({ file: 'runs.jsonl', line: 3, reason: 'reward is missing' }); // 'runs.jsonl:3: reward is missing'
 * ```
 */
export function formatIssue(issue: LineIssue): string {
  return `${issue.file}:${issue.line}: ${issue.reason}`;
}

function describeIssues(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  candidate: unknown,
  from: string,
): string {
  const first = issues[0];
  if (first === undefined) return 'not a trajectory';
  const path = first.path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
    .join('')
    .replace(/^\./, '');
  let value: unknown = candidate;
  for (const key of first.path) value = (value as Record<PropertyKey, unknown> | undefined)?.[key];
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  // Paths name the imported record; for a foreign shape, say so.
  const imported = from === 'ftw' ? '' : ` (in the record imported from ${from})`;
  return `${path === '' ? 'record' : path}${imported}: ${first.message}, got ${kind(value)}${more}`;
}
