import { Command } from 'commander';
import { withHelp } from '../cli/help-text.js';
import { UsageError } from '../cli/usage-error.js';
import { readInteger } from '../config/read-value.js';

/**
 * `ftw actor`: an actor process of an asynchronous run, started on any machine that reaches the run's
 * Redis. It joins the pool the learner printed (`ftw train … --redis <url>`; `--actors 0` starts none on
 * the learner's machine), acts with the policies the learner publishes and pushes whole episodes, then
 * follows the learner to the pool of each next seed, and exits 0 once the learner is done with the last.
 *
 * @returns the commander command
 * @example
 * ```ts
 * program.addCommand(actorCommand()); // ftw actor --redis redis://10.0.0.5:6379 --pool ftw-4242-m3x-seed0
 * ```
 */
export function actorCommand(): Command {
  const command = new Command('actor')
    .description(
      'act in an asynchronous run from any machine: join the pool its learner printed, follow it to the end',
    )
    .requiredOption(
      '--redis <url>',
      "the run's Redis: redis:// or rediss://, or redis+cluster://host:port[,host:port…] for a cluster",
    )
    .requiredOption(
      '--pool <name>',
      'the pool the learner printed (the first seed; the actor follows the others)',
    )
    .option(
      '--wait <seconds>',
      'how long to wait for the pool and its task (the learner may start later), and for a new policy before giving up',
      '600',
    );
  withHelp(command, ['ftw actor --redis redis://10.0.0.5:6379 --pool ftw-4242-m3x-seed0']);
  command.action(async () => {
    const opts = command.opts<{ redis: string; pool: string; wait: string }>();
    if (!/^rediss?(\+cluster)?:\/\//.test(opts.redis)) {
      throw new UsageError(`--redis must be a redis[s][+cluster]:// URL, got ${JSON.stringify(opts.redis)}`);
    }
    const wait = readInteger(opts.wait, '--wait', { min: 0, max: 86_400 });
    // Loaded here only: it brings the Redis client.
    const [{ runRemoteActor }, { ActorsError }] = await Promise.all([
      import('../async/redis-actor.js'),
      import('@ftw/actors'),
    ]);
    await runRemoteActor(opts.redis, opts.pool, wait * 1000, (line) =>
      process.stderr.write(`ftw actor: ${line}\n`),
    ).catch((error: unknown) => {
      // A pool of another run, or a learner whose policy this actor would misread: bad input, exit code 2.
      if (error instanceof ActorsError && error.code !== 'NO_RUN_NOTES') {
        throw new UsageError(error.message, { helpHint: false });
      }
      throw error;
    });
  });
  return command;
}
