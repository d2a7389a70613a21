import { basename } from 'node:path';
import { type RunData, reportPage, VIEWABLE_COMMANDS } from '@ftw/report';
import type { OutputOptions } from '../cli/output-options.js';
import { runInterruptTasks } from './interrupt-tasks.js';
import { ndjsonChunks } from './ndjson.js';
import { provenance } from './provenance.js';
import { REPORT_OPTIONS } from './report-options.js';
import { RunDirectory } from './run-directory.js';

/** What a command produces; {@link writeRun} lays it out in `runs/<name>/`. */
export interface RunArtifacts {
  /** The fully resolved configuration (seeds included); provenance is added under `provenance`. */
  readonly config: Readonly<Record<string, unknown>>;
  /** One JSON object per line of `metrics.ndjson`. */
  readonly metrics: readonly object[];
  /** `summary.json`: deterministic, no timestamps. */
  readonly summary: unknown;
  /** `report.md`, which embeds the SVG files by relative link. */
  readonly report: string;
  /** More files (SVG charts, CSV tables) by relative path. */
  readonly files: Readonly<Record<string, string>>;
  /**
   * Milliseconds spent training (the seeds' training loops, nothing else), written to `timing.json` as
   * `trainingMs` so that the process time can be compared with it (`bench/train-process.mjs`). Commands
   * that do not train leave it out.
   */
  readonly trainingMs?: number;
}

/** A run in progress: its folder is open until the command's result is written. */
export interface OpenRun {
  /** Writes the artifacts and renames the folder into place; resolves to the final path. */
  finish(artifacts: RunArtifacts): Promise<string>;
  /** Removes the temporary folder (a failed or interrupted run). */
  discard(): void;
}

/** Serialises with two-space indentation and a final newline; non-finite numbers become null. */
function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * Opens a run: validates the name and creates the hidden temporary folder, before any computing, so a bad
 * `--name` fails at once and an interrupted run (SIGINT, SIGTERM) leaves nothing behind.
 *
 * The finished folder holds `config.json` (resolved configuration, seeds, package versions, git commit),
 * `metrics.ndjson`, `summary.json`, `report.md`, for train, compare and reproduce `report.html` (the run's
 * `ftw view` page), the extra files, and `timing.json` (start, end and duration of the run, and for
 * training runs `trainingMs`, the part spent in the training loops; kept apart so that the other files
 * are byte-identical between two runs of the same command).
 *
 * @param output - the shared output flags
 * @param command - the command's name, recorded in `config.json`
 * @returns the open run
 * @throws {@link UsageError} for an invalid `--name`; `OutputPathError` for an `--out` that cannot hold the
 *   run, or a file or folder at `<out>/<name>` that is not an earlier run (without `--force`)
 * @example
 * ```ts
 * const run = openRun({ out: 'runs', name: 'reproduce', quiet: false, json: false }, 'reproduce');
 * await run.finish({ config: {}, metrics: [], summary: {}, report: '# r\n', files: {} }); // '/…/runs/reproduce'
 * ```
 */
export function openRun(output: OutputOptions, command: string): OpenRun {
  const dir = RunDirectory.open(output.out, output.name, output.force === true);
  const started = new Date();
  // Git runs in the background while the command computes; a failed run ignores its answer.
  const origin = provenance();
  // Marked as handled: a run that fails before finishing never reads it.
  origin.catch(() => undefined);
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    interrupted = true;
    dir.discard();
    // What the command registered (a learner marks its pool), then the exit; a second signal ends it at once.
    void runInterruptTasks().then(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const detach = (): void => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  return {
    async finish(artifacts) {
      // Interrupted while the work ended: the folder is gone and the process is about to exit.
      if (interrupted) return new Promise<string>(() => {});
      // Files are written by the thread pool while the rest is computed (the metrics while the page is).
      const pending: Promise<void>[] = [];
      try {
        pending.push(dir.writeChunksInBackground('metrics.ndjson', ndjsonChunks(artifacts.metrics)));
        const config = { command, ...artifacts.config, provenance: await origin };
        const write = (file: string, content: string): void => {
          pending.push(dir.writeInBackground(file, content));
        };
        write('config.json', json(config));
        write('summary.json', json(artifacts.summary));
        write('report.md', artifacts.report);
        if ((VIEWABLE_COMMANDS as readonly string[]).includes(command)) {
          const run = { name: basename(dir.path), config, metrics: artifacts.metrics as RunData['metrics'] };
          write('report.html', reportPage([{ ...run, summary: artifacts.summary }], REPORT_OPTIONS));
        }
        for (const [file, content] of Object.entries(artifacts.files)) write(file, content);
        await Promise.all(pending);
        const finished = new Date();
        dir.write(
          'timing.json',
          json({
            startedAt: started.toISOString(),
            finishedAt: finished.toISOString(),
            durationMs: finished.getTime() - started.getTime(),
            ...(artifacts.trainingMs === undefined ? {} : { trainingMs: Math.round(artifacts.trainingMs) }),
          }),
        );
        return dir.commit();
      } catch (error) {
        // No write may still be running when the folder is removed.
        await Promise.allSettled(pending);
        dir.discard();
        throw error;
      } finally {
        detach();
      }
    },
    discard() {
      dir.discard();
      detach();
    },
  };
}

/** What a command's work hands back to {@link executeRun}. */
export interface RunResult {
  /** The files of the run; `artifacts.summary` is also what `--json` prints. */
  readonly artifacts: RunArtifacts;
  /** The text printed without `--json` or `--quiet`, given the run's final path. */
  readonly text: (path: string) => string;
}

/**
 * The text of a run that ends by saying where it was written: `lines`, then `run written to <path>/`.
 *
 * @param lines - what the command prints before (each a line; '' for a blank one)
 * @returns {@link RunResult.text}
 * @example
 * ```ts
 * textThenPath(['ftw evaluate: runs/x', ''])('runs/evaluate'); // 'ftw evaluate: runs/x\n\nrun written to runs/evaluate/\n'
 * ```
 */
export function textThenPath(lines: readonly string[]): (path: string) => string {
  return (path) => [...lines, `run written to ${path}/`, ''].join('\n');
}

/**
 * Runs a command's work inside an open run: writes the artifacts, then prints the summary as JSON
 * (`--json`), the command's text, or nothing (`--quiet`). On any failure the unfinished folder is removed
 * and the error rethrown, so nothing half-written looks like a finished run.
 *
 * @param output - the output options (folder, name, quiet, json)
 * @param command - the command's name, recorded in config.json
 * @param work - computes the run; it may report progress, and must not print its result itself
 * @returns the final path of the run
 * @example
 * ```ts
 * await executeRun(output, 'train', async () => ({ artifacts, text: (path) => `run written to ${path}/\n` }));
 * ```
 */
export async function executeRun(
  output: OutputOptions,
  command: string,
  work: () => Promise<RunResult>,
): Promise<string> {
  const run = openRun(output, command);
  let result: RunResult;
  let path: string;
  try {
    result = await work();
    path = await run.finish(result.artifacts);
  } catch (error) {
    run.discard();
    throw error;
  }
  if (output.json) process.stdout.write(json(result.artifacts.summary));
  else if (!output.quiet) process.stdout.write(result.text(path));
  return path;
}
