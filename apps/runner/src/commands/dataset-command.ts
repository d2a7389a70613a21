import { statSync } from 'node:fs';
import { AgentDataError, buildDataset, formatIssue, type LineIssue, type LineWarning } from '@ftw/agent-data';
import { Command } from 'commander';
import { optionWithoutValue, withHelp } from '../cli/help-text.js';
import { createProgress } from '../cli/progress.js';
import { UsageError } from '../cli/usage-error.js';
import { datasetErrorMessage } from '../dataset/dataset-error-message.js';
import { datasetSummary } from '../dataset/dataset-summary.js';
import { readDatasetOptions } from '../dataset/read-dataset-options.js';
import { seededStreams } from '../random/seeded-streams.js';

/** Inputs at least this large get a progress bar (smaller ones finish before a bar would draw). */
const PROGRESS_BYTES = 16 * 1024 * 1024;
/** Bad lines printed one by one; the rest are counted. */
const SHOWN_ISSUES = 20;

/**
 * `ftw dataset`: turns a log of agent runs into an FTW-weighted fine-tuning file with `@ftw/agent-data`
 * (newest N runs, J minibatches of C, top K, written as OpenAI, TRL or ART JSONL with a manifest beside
 * it), printing a summary table. Exit codes: 0 done, 1 failure, 2 bad flag or bad input (a missing
 * file, strict mode's first bad line, no valid run, fewer runs than C, no run selected without
 * `--allow-empty`, an output path that cannot be written or exists without `--force`). The same seed and
 * input give a byte-identical file and manifest.
 *
 * @returns the commander command
 * @example
 * ```ts
 * program.addCommand(datasetCommand());
 * // ftw dataset --input runs.jsonl --capacity 1000 --batch-size 8 --keep 2 --batches 64 --format openai --out sft.jsonl
 * ```
 */
export function datasetCommand(): Command {
  const command = new Command('dataset')
    .description(
      'turn logged agent runs into an FTW-weighted fine-tuning file (OpenAI, TRL or ART JSONL) with a manifest',
    )
    .requiredOption('--input <file>', 'JSONL log of agent runs')
    .option('--from <shape>', 'log shape: ftw, openai, ai-sdk, ai-sdk-ui, agents or art', 'ftw')
    .requiredOption('--capacity <N>', 'keep the newest N runs (FIFO window)')
    .requiredOption('--batch-size <C>', 'runs per minibatch')
    .requiredOption('--keep <K>', 'runs kept per minibatch (the K best)')
    .requiredOption('--batches <J>', 'minibatches')
    .option(
      '--selection <mode>',
      'sampled (J seeded minibatches) or expected (exact expected counts)',
      'sampled',
    )
    .addOption(
      optionWithoutValue('--threshold <x>', 'only runs with a reward strictly above x may be kept', 'none'),
    )
    .addOption(
      optionWithoutValue(
        '--tie-break <keys>',
        'order runs of equal reward: fewer-turns, fewer-tool-calls, newer, older (comma-separated)',
        'none: ties broken at random',
      ),
    )
    .option('--per-task', 'select within each task separately', false)
    .addOption(
      optionWithoutValue(
        '--success-above <x>',
        'a run succeeds when its reward is above x (for the report)',
        '--threshold, else the lowest reward',
      ),
    )
    .addOption(
      optionWithoutValue(
        '--current-logprobs <file>',
        'JSONL of current-policy log-probs { id, logprobs: number[][] } for importance diagnostics',
        'none',
      ),
    )
    .option(
      '--strict',
      'stop at the first bad line or run warning (no final answer, undeclared tool, duplicate call id) with exit 2',
      false,
    )
    .option('--seed <seed>', 'seed of the minibatch draws and of the rounding', '0')
    .requiredOption('--format <format>', 'output: openai, trl or art')
    .requiredOption(
      '--out <file>',
      'output JSONL file in an existing folder (the manifest is written beside it)',
    )
    .option('--force', 'replace --out and its manifest when they exist', false)
    .option('--allow-empty', 'write an empty file when no run is selected (else exit 2)', false)
    .option('--quiet', 'print no progress and no table', false)
    .option('--json', 'print the manifest (without the per-run list) as JSON on stdout', false);
  withHelp(command, [
    'ftw dataset --input runs.jsonl --from ai-sdk --capacity 1000 --batch-size 8 --keep 2 --batches 500 --threshold 0 --tie-break fewer-turns --format openai --out sft.jsonl',
    'ftw dataset --input runs.jsonl --capacity 1000 --batch-size 8 --keep 2 --batches 64 --selection expected --format trl --out data/trl.jsonl --force',
  ]);
  command.action(async () => {
    const flags = readDatasetOptions(command.opts<Record<string, unknown>>());
    const size = statSync(flags.input).size;
    const progress = createProgress({
      label: 'dataset',
      total: size,
      quiet: flags.quiet || flags.json || size < PROGRESS_BYTES,
    });
    let reported = 0;
    let lastBytes = 0;
    const onIssue = (issue: LineIssue): void => {
      if (reported++ < SHOWN_ISSUES) process.stderr.write(`${formatIssue(issue)}\n`);
    };
    let warned = 0;
    const onWarning = (warning: LineWarning): void => {
      if (warned++ < SHOWN_ISSUES) process.stderr.write(`warning: ${formatIssue(warning)}\n`);
    };
    const { quiet, json, seed, ...options } = flags;
    let built: Awaited<ReturnType<typeof buildDataset>>;
    try {
      built = await buildDataset({
        ...options,
        seed,
        random: seededStreams(seed).selection,
        onIssue,
        onWarning,
        onProgress: (stats) => {
          progress.tick(stats.bytes - lastBytes);
          lastBytes = stats.bytes;
        },
      });
    } catch (error) {
      // Bad input is a usage problem (exit 2); anything else is a failure of the run (exit 1).
      if (error instanceof AgentDataError) throw new UsageError(datasetErrorMessage(error, flags));
      if (
        (error as NodeJS.ErrnoException).code === 'ENOENT' &&
        (error as NodeJS.ErrnoException).path === flags.input
      ) {
        throw new UsageError(`--input must be an existing file, got ${JSON.stringify(flags.input)}`);
      }
      throw error;
    } finally {
      progress.stop();
    }
    if (reported > SHOWN_ISSUES)
      process.stderr.write(`… and ${reported - SHOWN_ISSUES} more bad lines (skipped)\n`);
    if (warned > SHOWN_ISSUES)
      process.stderr.write(`… and ${warned - SHOWN_ISSUES} more run warnings (see the manifest)\n`);
    const { manifest, manifestFile } = built;
    if (json) {
      const { selected: _selected, ...summary } = manifest;
      process.stdout.write(`${JSON.stringify({ ...summary, manifestFile }, null, 2)}\n`);
    } else if (!quiet) {
      process.stdout.write(datasetSummary(manifest, manifestFile));
    } else {
      for (const warning of manifest.report.warnings) process.stderr.write(`warning: ${warning}\n`);
    }
  });
  return command;
}
