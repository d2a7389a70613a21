import { formatInterval } from '@ftw/report';
import { Command } from 'commander';
import { withHelp } from '../cli/help-text.js';
import { addJobsOption, readJobs } from '../cli/jobs-option.js';
import { addOutputOptions, readOutputOptions } from '../cli/output-options.js';
import { createProgress } from '../cli/progress.js';
import { REFERENCE_RESULT, REPRODUCE_CONFIG } from '../config/reproduce-config.js';
import { executeRun } from '../run/write-run.js';
import { describeEnvironment, describeMethod } from '../train/describe-config.js';
import { runTraining, seedTable, trainingArtifacts } from './training-run.js';

/**
 * `ftw reproduce`: the small reproduction's experiment, exactly (see `REPRODUCE_CONFIG`); prints the
 * optimal-arm probability per seed and their mean, and writes `runs/reproduce/`.
 *
 * @returns the commander command
 * @example
 * ```ts
 * program.addCommand(reproduceCommand()); // ftw reproduce [--out dir] [--name name] [--quiet] [--json]
 * ```
 */
export function reproduceCommand(): Command {
  const command = new Command('reproduce').description(
    'run the small reproduction exactly: two-armed Gaussian bandit, FTW N=128 C=5 K=1 J=4, seeds 0,1,2',
  );
  addOutputOptions(command, 'reproduce');
  addJobsOption(command);
  withHelp(command, ['ftw reproduce', 'ftw reproduce --jobs auto --name reproduce-2 --json']);
  command.action(async () => {
    const output = readOutputOptions(command);
    const jobs = readJobs(command);
    const config = REPRODUCE_CONFIG;
    await executeRun(output, 'reproduce', async () => {
      const progress = createProgress({
        label: 'reproduce',
        total: config.iterations * config.seeds.length,
        quiet: output.quiet || output.json,
      });
      const started = performance.now();
      const outcome = await runTraining(config, progress, jobs);
      const computeMs = performance.now() - started;
      progress.stop();
      const s = outcome.summary;
      const summary = {
        command: 'reproduce',
        optimalArmProbability: {
          perSeed: Object.fromEntries(s.seeds.map((r) => [String(r.seed), r.finalOptimalProbability])),
          mean: s.finalOptimalProbability.mean,
          ci95: s.finalOptimalProbability.halfWidth,
        },
        referenceResult: REFERENCE_RESULT,
        updatesPerSeed: s.seeds[0]!.updates,
        ...s,
      };
      const intro = [
        'The small reproduction of Follow the Winners (arXiv 2610.03361, Algorithm 2) on a synthetic bandit:',
        `one trajectory per iteration into a FIFO pool; ${s.seeds[0]!.updates} updates per seed, each imitating`,
        `the best of J = 4 random minibatches of C = 5 under a KL pull towards uniform. The reference`,
        `implementation reached about ${REFERENCE_RESULT}; this run: ${formatInterval(s.finalOptimalProbability, 4)}.`,
      ].join('\n');
      return {
        artifacts: await trainingArtifacts('reproduce', outcome, summary, intro),
        text: (path) =>
          [
            'ftw reproduce: the small FTW reproduction',
            `  ${describeEnvironment(config.environment)}`,
            `  ${describeMethod(config)}`,
            '',
            seedTable(outcome).trimEnd(),
            '',
            `mean optimal-arm probability: ${s.finalOptimalProbability.mean.toFixed(4)} ` +
              `(95% CI ± ${s.finalOptimalProbability.halfWidth.toFixed(4)}, seeds ${config.seeds.join(', ')}); ` +
              `reference implementation ≈ ${REFERENCE_RESULT}`,
            `computed in ${computeMs.toFixed(0)} ms; run written to ${path}/`,
            '',
          ].join('\n'),
      };
    });
  });
  return command;
}
