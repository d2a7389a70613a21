import { Command, CommanderError } from 'commander';
import { describeFailure } from './cli/describe-failure.js';
import { withHelp } from './cli/help-text.js';
import { UsageError } from './cli/usage-error.js';

/** Exit codes of the `ftw` CLI. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/**
 * Every command of `ftw`, in the order of the help, each loaded on demand: a command imports only what it
 * uses (`ftw train` never loads Redis, Zod or the dataset reader), so start-up does not grow with the CLI.
 */
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  reproduce: async () => (await import('./commands/reproduce-command.js')).reproduceCommand(),
  train: async () => (await import('./commands/train-command.js')).trainCommand(),
  occupancy: async () => (await import('./commands/occupancy-command.js')).occupancyCommand(),
  compare: async () => (await import('./commands/compare-command.js')).compareCommand(),
  evaluate: async () => (await import('./commands/evaluate-command.js')).evaluateCommand(),
  view: async () => (await import('./commands/view-command.js')).viewCommand(),
  dataset: async () => (await import('./commands/dataset-command.js')).datasetCommand(),
  actor: async () => (await import('./commands/actor-command.js')).actorCommand(),
};

/**
 * Builds the `ftw` program with its commands.
 *
 * @param only - the name of the one command to load (the one being run); every command when omitted or
 *   unknown (for the help, or the error that lists the commands)
 * @returns the commander program (errors are thrown, not turned into `process.exit`)
 * @example
 * ```ts
 * await (await createProgram('occupancy')).parseAsync(['node', 'ftw', 'occupancy', '--quiet']); // writes runs/occupancy/
 * ```
 */
export async function createProgram(only?: string): Promise<Command> {
  const program = new Command('ftw')
    .description('Follow the Winners (FTW): reproduce, train, draw Figure 1 and compare with baselines')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => process.stdout.write(text),
      writeErr: (text) => process.stderr.write(text),
    });
  withHelp(program, [
    'ftw reproduce                      # the small reproduction, written to runs/reproduce/',
    'ftw train --env tie-heavy --keep 3 --threshold 0 --seeds 0..9 --name tie-k3',
    'ftw view runs/reproduce runs/tie-k3 --out runs/view.html',
    'ftw <command> --help               # the options of a command, each with its default',
  ]);
  const names = only !== undefined && Object.hasOwn(COMMANDS, only) ? [only] : Object.keys(COMMANDS);
  for (const command of await Promise.all(names.map((name) => COMMANDS[name]!()))) {
    program.addCommand(command);
  }
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
 * Exit codes: 0 on success (and for `--help`), 2 for a bad flag, a bad config, an unknown command (the
 * message names it and what is allowed) or a Redis URL of the wrong kind, 1 for a failure while running.
 *
 * @param argv - the process arguments
 * @returns the exit code
 * @example
 * ```ts
 * process.exitCode = await main(process.argv);
 * ```
 */
export async function main(argv: readonly string[]): Promise<number> {
  const program = await createProgram(argv[2]);
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
    const code = (error as { code?: string } | null)?.code ?? '';
    if (error instanceof UsageError || code === 'CLUSTER_NODE' || code === 'NOT_A_CLUSTER') {
      const hint = error instanceof UsageError && error.helpHint ? '(run with --help for usage)\n' : '';
      process.stderr.write(`error: ${(error as Error).message}\n${hint}`);
      return EXIT.usage;
    }
    process.stderr.write(`ftw: the run failed: ${describeFailure(error)}\n`);
    return EXIT.failure;
  }
}
