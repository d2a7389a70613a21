import { Command, CommanderError } from 'commander';
import { compareCommand } from '../commands/compare-command.js';
import { datasetCommand } from '../commands/dataset-command.js';
import { occupancyCommand } from '../commands/occupancy-command.js';
import { reproduceCommand } from '../commands/reproduce-command.js';
import { trainCommand } from '../commands/train-command.js';
import { viewCommand } from '../commands/view-command.js';
import { UsageError } from './usage-error.js';

/** Exit codes of the `ftw` CLI. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/**
 * Builds the `ftw` program with its commands.
 *
 * @returns the commander program (errors are thrown, not turned into `process.exit`)
 * @example
 * ```ts
 * await createProgram().parseAsync(['node', 'ftw', 'occupancy', '--quiet']); // writes runs/occupancy/
 * ```
 */
export function createProgram(): Command {
  const program = new Command('ftw')
    .description('Follow the Winners (FTW): reproduce, train, draw Figure 1 and compare with baselines')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => process.stdout.write(text),
      writeErr: (text) => process.stderr.write(text),
    });
  program.addCommand(reproduceCommand());
  program.addCommand(trainCommand());
  program.addCommand(occupancyCommand());
  program.addCommand(compareCommand());
  program.addCommand(viewCommand());
  program.addCommand(datasetCommand());
  for (const command of program.commands) {
    command
      .exitOverride()
      .showHelpAfterError('(run with --help for usage)')
      .configureOutput(program.configureOutput());
  }
  return program;
}

/**
 * Runs the CLI on `argv` (as `process.argv`: node, script, then arguments).
 *
 * Exit codes: 0 on success (and for `--help`), 2 for a bad flag, a bad config or an unknown command (the
 * message names it and what is allowed), 1 for a failure while running.
 *
 * @param argv - the process arguments
 * @returns the exit code
 * @example
 * ```ts
 * process.exitCode = await main(process.argv);
 * ```
 */
export async function main(argv: readonly string[]): Promise<number> {
  const program = createProgram();
  try {
    if (argv.length <= 2) {
      program.outputHelp({ error: true });
      return EXIT.usage;
    }
    await program.parseAsync(argv as string[]);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // commander has already printed its message (and the help hint).
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`error: ${error.message}\n(run with --help for usage)\n`);
      return EXIT.usage;
    }
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`ftw: the run failed: ${detail}\n`);
    return EXIT.failure;
  }
}
