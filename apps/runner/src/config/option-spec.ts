import type { Command } from 'commander';
import { UsageError } from '../cli/usage-error.js';

/**
 * One configuration option, shared by the command line (`--batch-size 5`) and a JSON config file
 * (`{ "batchSize": 5 }`), so both are read and validated by the same code.
 */
export interface OptionSpec {
  /** Key in a config file and in commander's parsed options (camelCase of the flag). */
  readonly key: string;
  /** The flag, e.g. `--batch-size`. */
  readonly flag: string;
  /** Placeholder shown in `--help`, e.g. `C`. */
  readonly placeholder: string;
  /** One-line description for `--help`, naming what is allowed. */
  readonly description: string;
  /** Default value as the user would type it (shown by `--help`). */
  readonly defaultValue: string;
}

/** A raw option value with the name the user gave it (for error messages). */
export interface RawOption {
  /** The value: a string from the command line, any JSON value from a file. */
  readonly value: unknown;
  /** `--batch-size` from the command line, `batchSize in cfg.json` from a file, `--batch-size (default)`. */
  readonly label: string;
  /** Whether the user gave it (command line or file) rather than taking the default. */
  readonly explicit: boolean;
}

/**
 * Declares every spec as a commander option with its default, so `--help` lists each with its default.
 *
 * @param command - the commander command
 * @param specs - its options
 * @returns the command, for chaining
 * @example
 * ```ts
 * addOptions(new Command('train'), TRAIN_OPTIONS); // --method, --env, … each with its default
 * ```
 */
export function addOptions(command: Command, specs: readonly OptionSpec[]): Command {
  for (const spec of specs) {
    command.option(`${spec.flag} <${spec.placeholder}>`, spec.description, spec.defaultValue);
  }
  return command;
}

/**
 * Merges defaults, a config file's values and command-line values (later wins) into raw options that
 * remember where each value came from.
 *
 * @param specs - the options
 * @param command - the parsed commander command (its option values and their sources)
 * @param file - the config file's object and its name, when `--config` was given
 * @returns raw values by key
 * @throws {@link UsageError} when the file has a key that is not an option
 * @example
 * ```ts
 * const raw = collectOptions(TRAIN_OPTIONS, command.parse(['--keep', '2'], { from: 'user' }));
 * raw.keep; // { value: '2', label: '--keep', explicit: true }
 * raw.lr; // { value: '0.08', label: '--lr (default)', explicit: false }
 * ```
 */
export function collectOptions(
  specs: readonly OptionSpec[],
  command: Command,
  file?: { readonly values: Readonly<Record<string, unknown>>; readonly name: string },
): Record<string, RawOption> {
  const known = new Set(specs.map((s) => s.key));
  if (file !== undefined) {
    const unknown = Object.keys(file.values).filter((key) => !known.has(key));
    if (unknown.length > 0) {
      throw new UsageError(
        `${file.name} has unknown key ${JSON.stringify(unknown[0])}; allowed keys: ${[...known].join(', ')}`,
      );
    }
  }
  const parsed = command.opts<Record<string, unknown>>();
  const raw: Record<string, RawOption> = {};
  for (const spec of specs) {
    const source = command.getOptionValueSource(spec.key);
    if (source === 'cli' || source === 'env') {
      raw[spec.key] = { value: parsed[spec.key], label: spec.flag, explicit: true };
    } else if (file !== undefined && Object.hasOwn(file.values, spec.key)) {
      raw[spec.key] = { value: file.values[spec.key], label: `${spec.key} in ${file.name}`, explicit: true };
    } else {
      raw[spec.key] = { value: spec.defaultValue, label: `${spec.flag} (default)`, explicit: false };
    }
  }
  return raw;
}

/**
 * An option as the user gave it, for messages: `--size 3` from the command line, `"size": 3 in cfg.json`
 * from a config file, `--size 6 (default)` when left out.
 *
 * @param raw - the option's raw value and where it came from (from `collectOptions`)
 * @param spec - the option
 * @returns the text
 * @example
 * ```ts
 * describeOption({ value: '3', label: '--size', explicit: true }, SIZE_SPEC); // '--size 3'
 * ```
 */
export function describeOption(raw: RawOption, spec: OptionSpec): string {
  const { flag, key } = spec;
  if (!raw.explicit) return `${flag} ${String(raw.value)} (default)`;
  if (raw.label === flag) return `${flag} ${String(raw.value)}`;
  const file = raw.label.startsWith(`${key} in `) ? raw.label.slice(key.length + 4) : raw.label;
  return `"${key}": ${JSON.stringify(raw.value)} in ${file}`;
}
