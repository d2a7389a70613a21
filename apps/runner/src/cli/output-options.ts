import type { Command } from 'commander';

/** Where a run is written and what it prints: the flags every command shares. */
export interface OutputOptions {
  /** Folder that holds runs. */
  readonly out: string;
  /** The run's folder name under `out`. */
  readonly name: string;
  /** Print no progress and no table. */
  readonly quiet: boolean;
  /** Print the summary as JSON on stdout (and nothing else there). */
  readonly json: boolean;
  /** Replace what is at `<out>/<name>` even when it is not an earlier run. @defaultValue false */
  readonly force?: boolean;
}

/**
 * Declares `--out`, `--name`, `--force`, `--quiet` and `--json` on a command.
 *
 * @param command - the commander command
 * @param defaultName - the run name used when `--name` is not given (the command's name)
 * @returns the command, for chaining
 * @example
 * ```ts
 * addOutputOptions(new Command('reproduce'), 'reproduce'); // --out runs, --name reproduce, --quiet, --json
 * ```
 */
export function addOutputOptions(command: Command, defaultName: string): Command {
  return command
    .option('--out <dir>', 'folder that holds runs', 'runs')
    .option(
      '--name <name>',
      'run name: the run is written to <out>/<name>/ (replacing an earlier run)',
      defaultName,
    )
    .option('--force', 'replace a file or folder at <out>/<name> that is not an earlier run', false)
    .option('--quiet', 'print no progress and no table', false)
    .option('--json', 'print the summary as JSON on stdout', false);
}

/**
 * Reads the shared output flags from a parsed command.
 *
 * @param command - the parsed commander command
 * @returns the output options (the run name is validated when the run directory is opened)
 * @example
 * ```ts
 * readOutputOptions(command); // { out: 'runs', name: 'reproduce', quiet: false, json: true, force: false }
 * ```
 */
export function readOutputOptions(command: Command): OutputOptions {
  const o = command.opts<{ out: string; name: string; quiet: boolean; json: boolean; force: boolean }>();
  return {
    out: o.out,
    name: o.name,
    quiet: o.quiet === true,
    json: o.json === true,
    force: o.force === true,
  };
}
