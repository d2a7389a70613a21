import { type Command, Help, Option } from 'commander';

/**
 * An option that has no value unless given, with what that means shown as its default in `--help`
 * (`(default: none)`); commander shows a default only for an option that has a value.
 *
 * @param flags - commander's flags, e.g. `--threshold <x>`
 * @param description - what the option does
 * @param omitted - what happens without it, e.g. `none` or `the run's`
 * @returns the option, for `command.addOption`
 * @example
 * ```ts
 * command.addOption(optionWithoutValue('--config <file>', 'JSON file of options', 'none'));
 * // --help: --config <file>  JSON file of options (default: none)
 * ```
 */
export function optionWithoutValue(flags: string, description: string, omitted: string): Option {
  return new Option(flags, description).default(undefined, omitted);
}

/**
 * The help of every `ftw` command: each option ends with its default, `(required)` for a required one, and
 * the command's examples follow the options.
 *
 * @param command - a command (or the program)
 * @param examples - command lines shown under "Examples:"
 * @returns the command, for chaining
 * @example
 * ```ts
 * withHelp(viewCommand(), ['ftw view runs/reproduce --out runs/view.html']);
 * ```
 */
export function withHelp(command: Command, examples: readonly string[]): Command {
  command.configureHelp({
    optionDescription(this: Help, option: Option): string {
      const text = Help.prototype.optionDescription.call(this, option);
      if (option.mandatory) return `${text} (required)`;
      if (option.defaultValue === undefined && option.defaultValueDescription !== undefined) {
        return `${text} (default: ${option.defaultValueDescription})`;
      }
      return text;
    },
  });
  if (examples.length > 0) {
    command.addHelpText('after', `\nExamples:\n${examples.map((line) => `  ${line}`).join('\n')}`);
  }
  return command;
}
