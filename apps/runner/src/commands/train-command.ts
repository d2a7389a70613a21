import { resolve } from 'node:path';
import { formatInterval } from '@ftw/report';
import { Command } from 'commander';
import {
  ASYNC_OPTIONS,
  type AsyncOptions,
  DEFAULT_CHECKPOINT_EVERY,
  resolveAsyncOptions,
} from '../async/async-options.js';
import { optionWithoutValue, withHelp } from '../cli/help-text.js';
import { addJobsOption, readJobs } from '../cli/jobs-option.js';
import { addOutputOptions, type OutputOptions, readOutputOptions } from '../cli/output-options.js';
import { createProgress } from '../cli/progress.js';
import { UsageError } from '../cli/usage-error.js';
import { addOptions, collectOptions } from '../config/option-spec.js';
import { readConfigFile } from '../config/read-config-file.js';
import { resolveTrainConfig, TRAIN_OPTIONS, type TrainConfig } from '../config/train-config.js';
import { executeRun, textThenPath } from '../run/write-run.js';
import { checkSokobanLevels } from '../sokoban/check-sokoban-levels.js';
import { heldOutLines, heldOutSummary } from '../sokoban/held-out-summary.js';
import { describeEnvironment, describeMethod, scoreName } from '../train/describe-config.js';
import type { RedisCheckpoint } from './async-training-run.js';
import { runTraining, seedTable, trainingArtifacts } from './training-run.js';

/**
 * The variable that makes this process an actor of an asynchronous run (`ACTOR_VARIABLE` of
 * `../async/redis-actor.js`, whose type pins the same literal). Written out here so that a plain run does
 * not load the actor's module, and with it the Redis client.
 */
const ACTOR_VARIABLE: typeof import('../async/actor-protocol.js').ACTOR_VARIABLE = 'FTW_ASYNC_ACTOR';

/**
 * `ftw train`: any configuration, from flags or a JSON file (`--config`; flags override it), one run per
 * seed; writes `runs/<name>/`.
 *
 * @returns the commander command
 * @example
 * ```ts
 * program.addCommand(trainCommand()); // ftw train [--config file] [--method …] … [--seeds 0..9]
 * ```
 */
export function trainCommand(): Command {
  const command = new Command('train').description(
    'train any configuration (FTW or a baseline) from flags or a JSON file; defaults are the reproduction',
  );
  command.addOption(
    optionWithoutValue(
      '--config <file>',
      'JSON file of options (keys as below in camelCase); flags override it',
      'none',
    ),
  );
  addOptions(command, TRAIN_OPTIONS);
  addOptions(command, ASYNC_OPTIONS);
  command.addOption(
    optionWithoutValue(
      '--resume <dir>',
      "go on with the asynchronous run whose --checkpoint folder this is, with the run's options (--redis may give the URL again, with its password)",
      'none',
    ),
  );
  addOutputOptions(command, 'train');
  addJobsOption(command);
  withHelp(command, [
    'ftw train --env tie-heavy --keep 3 --threshold 0 --iterations 400 --seeds 0..9 --name tie-k3',
    'ftw train --env sokoban --size 6 --boxes 2 --policy linear --seeds 0..4 --name sokoban-linear',
    'ftw train --env sokoban --policy linear --level-set split --levels 10000 --held-out 500 --level-cache .cache/levels',
    'ftw train --config cfg.json --lr 0.05 --jobs auto',
    'ftw train --env sokoban --policy mlp --actors 2 --redis redis://10.0.0.5:6379 --checkpoint ckpt --name big',
    'ftw train --resume ckpt',
  ]);
  command.action(async () => {
    const actorTask = process.env[ACTOR_VARIABLE];
    if (actorTask !== undefined) {
      const { exitWithLearner, followTasks } = await import('../async/redis-actor.js');
      exitWithLearner();
      return followTasks(JSON.parse(actorTask));
    }
    const resume = command.opts<{ resume?: string }>().resume;
    if (resume !== undefined) return resumeTraining(command, resume);
    const path = command.opts<{ config?: string }>().config;
    const file = path === undefined ? undefined : readConfigFile(path);
    const raw = collectOptions(TRAIN_OPTIONS, command, file);
    const config = resolveTrainConfig(raw);
    if (config.environment.kind === 'sokoban') {
      const warning = checkSokobanLevels(config.environment, raw);
      if (warning !== null) process.stderr.write(`ftw train: warning: ${warning}\n`);
    }
    const output = readOutputOptions(command);
    const jobs = readJobs(command);
    const asynchronous = resolveAsyncOptions(collectOptions(ASYNC_OPTIONS, command), config);
    if (asynchronous !== null && jobs > 1) {
      throw new UsageError(
        `--jobs applies to synchronous training (seeds on worker threads), got --jobs ${jobs} with asynchronous actors`,
      );
    }
    if (asynchronous !== null && raw.envs?.explicit === true) {
      throw new UsageError(
        `--envs applies to lockstep environments in one process; each actor process steps one environment, got --envs ${raw.envs.value} with --actors ${asynchronous.actors}`,
      );
    }
    if (asynchronous?.redis === null && config.network !== undefined) {
      throw new UsageError(
        `--policy ${config.policy} runs with actor processes (--redis) or lockstep environments (--envs), not in the simulation (--lag)`,
      );
    }
    if (asynchronous !== null) return trainAsynchronously(config, asynchronous, output);
    await executeRun(output, 'train', async () => {
      const progress = createProgress({
        label: 'train',
        total: config.iterations * config.seeds.length,
        quiet: output.quiet || output.json,
      });
      const outcome = await runTraining(config, progress, jobs);
      progress.stop();
      const env = config.environment;
      const heldOut =
        env.kind === 'sokoban' && env.levelSet === 'split' && env.heldOut > 0
          ? heldOutSummary(outcome.results, env.heldOut)
          : null;
      const summary = { command: 'train', ...outcome.summary, ...(heldOut === null ? {} : { heldOut }) };
      const intro = `A training run of \`ftw train\` (${config.seeds.length} seeds).`;
      return {
        artifacts: await trainingArtifacts('train', outcome, summary, intro),
        text: textThenPath([
          `ftw train: ${describeEnvironment(config.environment)}`,
          `  ${describeMethod(config)}`,
          '',
          seedTable(outcome).trimEnd(),
          '',
          `final ${scoreName(config.environment).label}: ${formatInterval(outcome.summary.finalOptimalProbability, 4)} (95% CI)`,
          ...(heldOut === null ? [] : heldOutLines(heldOut)),
        ]),
      };
    });
  });
  return command;
}

/**
 * An asynchronous run (`--actors`, `--redis`, `--lag`), or one resumed from its learner's checkpoint
 * (`from`); with `--checkpoint`, the checkpoint is removed once the run is written.
 */
async function trainAsynchronously(
  config: TrainConfig,
  asynchronous: AsyncOptions,
  output: OutputOptions,
  from?: RedisCheckpoint,
): Promise<void> {
  // Loaded only for an asynchronous run: it brings the Redis client.
  const { asyncRunResult, runAsyncTraining } = await import('./async-training-run.js');
  await executeRun(output, 'train', async () => {
    const progress = createProgress({
      label: 'train',
      total: config.iterations * config.seeds.length,
      quiet: output.quiet || output.json,
    });
    // Always said when no actor starts here (the run waits for actors from elsewhere), else unless --quiet.
    const onJoin = (join: string) => {
      if (asynchronous.actors === 0 || !(output.quiet || output.json)) {
        process.stderr.write(`ftw: actor processes on other machines can join with: ${join}\n`);
      }
    };
    // The checkpoint keeps the run's folder as an absolute path: a resume may start elsewhere.
    const run = { out: resolve(output.out), name: output.name, ...(from === undefined ? {} : { from }) };
    const outcome = await runAsyncTraining(config, asynchronous, progress, undefined, onJoin, run);
    progress.stop();
    return asyncRunResult(outcome);
  });
  if (asynchronous.checkpoint !== undefined) {
    const { removeCheckpoint } = await import('../async/learner-checkpoint.js');
    removeCheckpoint(asynchronous.checkpoint.dir);
  }
}

/** Flags that `--resume` takes besides itself: the rest come from the checkpoint. */
const RESUME_FLAGS = ['--resume', '--redis', '--quiet', '--json'];

/**
 * `ftw train --resume <dir>`: the asynchronous run whose learner left its checkpoint in `dir` goes on from
 * it, on the same Redis pools, and is written where the run would have been.
 *
 * @throws UsageError for another training flag, a checkpoint that cannot be read, or a Redis URL whose
 *   password the checkpoint does not keep and `--redis` does not give
 */
async function resumeTraining(command: Command, dir: string): Promise<void> {
  const given = command.options
    .filter((option) => command.getOptionValueSource(option.attributeName()) === 'cli')
    .map((option) => option.long!)
    .filter((flag) => !RESUME_FLAGS.includes(flag));
  if (given.length > 0) {
    throw new UsageError(
      `--resume takes the run's options from its checkpoint; drop ${given.join(', ')} (only ${RESUME_FLAGS.slice(1).join(', ')} apply)`,
    );
  }
  const { readCheckpoint } = await import('../async/learner-checkpoint.js');
  const checkpoint = readCheckpoint(dir) as RedisCheckpoint;
  const redis =
    command.getOptionValueSource('redis') === 'cli'
      ? command.opts<{ redis: string }>().redis
      : checkpoint.options.redis!;
  if (redis.includes(':***@')) {
    throw new UsageError(
      `--resume ${dir}: the checkpoint keeps the Redis URL without its password (${redis}); give it with --redis`,
      { helpHint: false },
    );
  }
  const o = command.opts<{ quiet?: boolean; json?: boolean }>();
  const output = {
    out: checkpoint.out,
    name: checkpoint.name,
    quiet: o.quiet === true,
    json: o.json === true,
  };
  const every = checkpoint.options.checkpoint?.every ?? DEFAULT_CHECKPOINT_EVERY;
  const options = { ...checkpoint.options, redis, checkpoint: { dir, every } };
  await trainAsynchronously(checkpoint.config, options, output, checkpoint);
}
