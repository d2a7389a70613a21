import {
  type BandPoint,
  curveBand,
  formatInterval,
  learningCurveChart,
  markdownTable,
  renderSvg,
} from '@ftw/report';
import { Command } from 'commander';
import { optionWithoutValue, withHelp } from '../cli/help-text.js';
import { addJobsOption, readJobs } from '../cli/jobs-option.js';
import { addOutputOptions, readOutputOptions } from '../cli/output-options.js';
import { createProgress } from '../cli/progress.js';
import { UsageError } from '../cli/usage-error.js';
import { COMPARE_SCENARIOS } from '../config/compare-scenarios.js';
import { readChoice, readNumber, readSeeds } from '../config/read-value.js';
import { executeRun } from '../run/write-run.js';
import { SOKOBAN_SCENARIOS } from '../sokoban/sokoban-scenario.js';
import { describeEnvironment } from '../train/describe-config.js';
import type { SeedResult } from '../train/train-seed.js';
import { type CompareOptions, type MethodOutcome, runCompare, type ScenarioOutcome } from './run-compare.js';

function methodRow(m: MethodOutcome): string[] {
  const s = m.summary;
  return [
    m.label,
    formatInterval(s.finalOptimalProbability, 3),
    formatInterval(s.meanReward, 3),
    s.cumulativeRegret === null ? '—' : formatInterval(s.cumulativeRegret, 1),
    s.samplesTo90 === null
      ? `— (0/${s.seeds.length})`
      : `${formatInterval(s.samplesTo90, 0)} (${s.reached90}/${s.seeds.length})`,
    String(Math.round(s.environmentSteps)),
    String(s.seeds[0]!.updates * m.config.epochs),
  ];
}

/**
 * The comparison table of one scenario: mean ± 95% CI over seeds of each figure.
 *
 * @param outcome - the scenario's outcome
 * @returns a Markdown table
 * @example
 * ```ts
 * compareTable(outcomes[0]);
 * // | method | final P(optimal) | mean reward | cumulative regret | samples to 0.9 (reached) | env steps | grad steps |
 * ```
 */
export function compareTable(outcome: ScenarioOutcome): string {
  return markdownTable(
    [
      'method',
      'final P(optimal)',
      'mean reward',
      'cumulative regret',
      'samples to 0.9 (reached)',
      'env steps',
      'grad steps',
    ],
    outcome.methods.map(methodRow),
    ['l', 'r', 'r', 'r', 'r', 'r', 'r'],
  );
}

/**
 * Sentences on what the numbers show: the method with the highest mean final P(optimal), which methods'
 * 95% intervals overlap its interval (upper end ≥ its lower end: differences these seeds do not resolve),
 * and the method with the lowest mean cumulative regret.
 *
 * @param outcome - the scenario's outcome
 * @returns Markdown sentences (the winners in bold)
 * @example
 * ```ts
 * compareFindings(outcomes[0]);
 * // 'Highest final optimal-action probability: **ppo** (0.998 ± 0.001). Its 95% interval overlaps no other method’s. …'
 * ```
 */
export function compareFindings(outcome: ScenarioOutcome): string {
  const ranked = [...outcome.methods].sort(
    (a, b) => b.summary.finalOptimalProbability.mean - a.summary.finalOptimalProbability.mean,
  );
  const best = ranked[0]!;
  const b = best.summary.finalOptimalProbability;
  const overlapping = ranked
    .slice(1)
    .filter((m) => {
      const i = m.summary.finalOptimalProbability;
      return i.mean + i.halfWidth >= b.mean - b.halfWidth;
    })
    .map((m) => m.label);
  const withRegret = outcome.methods.filter((m) => m.summary.cumulativeRegret !== null);
  const regret = [...withRegret].sort(
    (x, y) => x.summary.cumulativeRegret!.mean - y.summary.cumulativeRegret!.mean,
  )[0];
  return [
    `Highest final optimal-action probability: **${best.label}** (${formatInterval(b, 3)}).`,
    overlapping.length === 0
      ? 'Its 95% interval overlaps no other method’s.'
      : `Its 95% interval overlaps those of ${overlapping.join(', ')}, so those differences are not resolved by these seeds.`,
    ...(regret === undefined
      ? []
      : [
          `Lowest cumulative regret: **${regret.label}** (${formatInterval(regret.summary.cumulativeRegret!, 1)}).`,
        ]),
  ].join(' ');
}

function scenarioCurves(
  outcome: ScenarioOutcome,
  pick: (m: SeedResult['metrics'][number]) => number,
): BandPoint[] {
  return outcome.methods.flatMap((m) => {
    const samples = m.results[0]!.metrics.map((x) => x.samples);
    const every = Math.max(1, Math.floor(samples.length / 150));
    return curveBand(
      m.label,
      samples,
      m.results.map((r) => r.metrics.map(pick)),
      every,
    );
  });
}

/**
 * The curves of a scenario's charts: per method, the mean over seeds with its 95% interval (`curveBand`) of
 * the optimal-action probability and, when every method has one, of the cumulative regret, against
 * environment samples, thinned to about 150 points per method.
 *
 * @param outcome - the scenario's outcome
 * @returns the two charts' points; `regret` null when some method has no regret
 * @example
 * ```ts
 * compareCurves(outcomes[0]).regret?.[0]; // { series: 'ftw-sampled', samples: 4, mean: …, lower: …, upper: … }
 * ```
 */
export function compareCurves(outcome: ScenarioOutcome): {
  readonly probability: BandPoint[];
  readonly regret: BandPoint[] | null;
} {
  const hasRegret = outcome.methods.every((m) => m.summary.cumulativeRegret !== null);
  return {
    probability: scenarioCurves(outcome, (m) => m.optimalProbability),
    regret: hasRegret ? scenarioCurves(outcome, (m) => m.regret!) : null,
  };
}

/**
 * `ftw compare`: FTW (sampled and expected selection) against REINFORCE with a baseline, GRPO-style and
 * PPO-clip on the same environments, seeds and sampling budgets, with the tie-heavy binary scenario.
 *
 * @returns the commander command
 * @example
 * ```ts
 * program.addCommand(compareCommand()); // ftw compare [--seeds 0..9] [--scenarios gaussian,tie-heavy]
 * ```
 */
export function compareCommand(): Command {
  const names = COMPARE_SCENARIOS.map((s) => s.name);
  const command = new Command('compare')
    .description('compare FTW with REINFORCE, GRPO and PPO at a matched sampling budget (mean ± 95% CI)')
    .option('--seeds <list>', 'seeds, the same for every method (at least 2 for intervals)', '0..9')
    .option('--scenarios <list>', `scenarios, comma-separated: ${names.join(', ')}`, names.join(','))
    .addOption(
      optionWithoutValue(
        '--optimizer <name>',
        "override every method's optimiser: sgd or adam",
        "the scenario's, adam",
      ),
    )
    .addOption(
      optionWithoutValue('--lr <rate>', "override every method's learning rate", "the scenario's, 0.05"),
    )
    .addOption(
      optionWithoutValue(
        '--scenario <name>',
        'async: asynchronous actors (lag, version bound, IS weights; Redis actors); sokoban: multi-step Sokoban, binary reward, a linear policy; sokoban-neural: the same methods with an MLP on 2000 generated levels, 500 held out; sokoban-goal-6x6, sokoban-goal-8x8: FTW and PPO with that MLP, 10^4 levels, 2·10^6 steps',
        'none: the bandit scenarios of --scenarios',
      ),
    )
    .addOption(
      optionWithoutValue(
        '--redis <url>',
        'with --scenario async: Redis for the real actors',
        'a private one',
      ),
    );
  addOutputOptions(command, 'compare');
  addJobsOption(command);
  withHelp(command, [
    'ftw compare --seeds 0..9',
    'ftw compare --scenarios tie-heavy --optimizer adam --lr 0.02 --name tie-adam',
    'ftw compare --scenario sokoban --seeds 0..9 --jobs auto',
  ]);
  command.action(async () => {
    const o = command.opts<Record<string, string | undefined>>();
    const jobs = readJobs(command);
    const seeds = readSeeds(o['seeds'], '--seeds');
    if (seeds.length < 2)
      throw new UsageError(`--seeds must list at least 2 seeds for intervals, got ${seeds.length}`);
    const sokoban = SOKOBAN_SCENARIOS.find((x) => x.name === o['scenario']);
    if (sokoban !== undefined) {
      const { compareSokoban } = await import('./compare-sokoban.js');
      const output = readOutputOptions(command);
      await executeRun(output, 'compare', async () => {
        // Iterations per run, for the progress bar: episodes average about 15 steps.
        const perRun = Math.ceil(sokoban.base.maxSamples! / (sokoban.base.rollouts * 15));
        const progress = createProgress({
          label: 'compare',
          total: sokoban.methods.length * seeds.length * perRun,
          quiet: output.quiet || output.json,
        });
        const result = await compareSokoban(seeds, progress, jobs, sokoban);
        progress.stop();
        return result;
      });
      return;
    }
    if (o['scenario'] !== 'async' && o['redis'] !== undefined) {
      throw new UsageError('--redis applies only with --scenario async');
    }
    if (o['scenario'] !== undefined) {
      readChoice(o['scenario'], '--scenario', ['async', ...SOKOBAN_SCENARIOS.map((x) => x.name)]);
      for (const flag of ['optimizer', 'lr'] as const) {
        if (o[flag] !== undefined) throw new UsageError(`--${flag} does not apply to --scenario async`);
      }
      if (jobs > 1) {
        throw new UsageError(
          `--jobs applies to synchronous training (seeds on worker threads), got --jobs ${jobs} with --scenario async`,
        );
      }
      // Loaded only for this scenario: it brings the Redis client.
      const { asyncComparisonResult, asyncProgressTotal, runAsyncComparison } = await import(
        './compare-async.js'
      );
      const output = readOutputOptions(command);
      await executeRun(output, 'compare', async () => {
        const progress = createProgress({
          label: 'compare',
          total: asyncProgressTotal(seeds.length),
          quiet: output.quiet || output.json,
        });
        const comparison = await runAsyncComparison(seeds, o['redis'] ?? 'private', progress);
        return asyncComparisonResult(comparison);
      });
      return;
    }
    const wanted = (o['scenarios'] ?? '')
      .split(',')
      .map((s, i) => readChoice(s.trim(), `--scenarios[${i}]`, names));
    const options: CompareOptions = {
      seeds,
      scenarios: COMPARE_SCENARIOS.filter((s) => wanted.includes(s.name)),
      ...(o['optimizer'] === undefined
        ? {}
        : { optimizer: readChoice(o['optimizer'], '--optimizer', ['sgd', 'adam'] as const) }),
      ...(o['lr'] === undefined ? {} : { lr: readNumber(o['lr'], '--lr', { min: 0, exclusiveMin: true }) }),
    };
    const output = readOutputOptions(command);
    await executeRun(output, 'compare', async () => {
      const total = options.scenarios.reduce((sum, s) => sum + s.methods.length * s.base.iterations, 0);
      const progress = createProgress({
        label: 'compare',
        total: total * seeds.length,
        quiet: output.quiet || output.json,
      });
      const outcomes = await runCompare(options, progress, jobs);
      progress.stop();
      const files: Record<string, string> = {};
      const sections: string[] = [];
      for (const outcome of outcomes) {
        const { scenario } = outcome;
        const budget = `${scenario.base.iterations} iterations × ${scenario.base.rollouts} rollouts = ${
          scenario.base.iterations * scenario.base.rollouts
        } samples per method and seed`;
        const subtitle = [describeEnvironment(scenario.base.environment), `${budget}, ${seeds.length} seeds`];
        const curves = compareCurves(outcome);
        files[`curves-${scenario.name}.svg`] = await renderSvg(
          learningCurveChart(curves.probability, {
            title: `Optimal-action probability (${scenario.name}; mean, 95% CI)`,
            subtitle,
            yTitle: 'P(optimal action)',
            unitInterval: true,
          }),
        );
        const hasRegret = curves.regret !== null;
        if (curves.regret !== null) {
          files[`regret-${scenario.name}.svg`] = await renderSvg(
            learningCurveChart(curves.regret, {
              title: `Cumulative regret (${scenario.name}; mean, 95% CI)`,
              subtitle,
              yTitle: 'cumulative expected regret',
            }),
          );
        }
        sections.push(
          [
            `## ${scenario.name}`,
            '',
            scenario.description,
            `Budget: ${budget}; optimiser ${options.optimizer ?? scenario.base.optimizer}, lr ${options.lr ?? scenario.base.lr}.`,
            '',
            compareTable(outcome),
            compareFindings(outcome),
            '',
            `![learning curves](curves-${scenario.name}.svg)`,
            '',
            ...(hasRegret ? [`![regret](regret-${scenario.name}.svg)`, ''] : []),
          ].join('\n'),
        );
      }
      const summary = {
        command: 'compare',
        seeds,
        scenarios: outcomes.map(({ scenario, methods }) => ({
          name: scenario.name,
          samplesPerSeed: scenario.base.iterations * scenario.base.rollouts,
          methods: methods.map((m) => ({ label: m.label, ...m.summary })),
        })),
      };
      const report = [
        '# ftw compare',
        '',
        'FTW against policy-gradient baselines on the same environments, seeds and sampling budgets (every',
        'method makes the same number of environment steps, in the same batches, with the same optimiser;',
        'PPO takes 4 gradient steps per batch, its usual setting, the others 1: see the "grad steps" column).',
        'Figures are means over seeds with 95% Student-t intervals; "samples to 0.9" averages the seeds that',
        'reached an optimal-action probability of 0.9 (how many did is in parentheses).',
        '',
        ...sections,
      ].join('\n');
      const artifacts = {
        config: {
          seeds,
          optimizer: options.optimizer ?? null,
          lr: options.lr ?? null,
          scenarios: outcomes.map(({ scenario, methods }) => ({
            name: scenario.name,
            methods: methods.map((m) => ({ label: m.label, config: m.config })),
          })),
        },
        metrics: outcomes.flatMap(({ scenario, methods }) =>
          methods.flatMap((m) =>
            m.results.flatMap((r) =>
              r.metrics.map((x) => ({ scenario: scenario.name, method: m.label, ...x })),
            ),
          ),
        ),
        summary,
        report,
        files,
      };
      const text = (path: string): string =>
        [
          ...outcomes.map(
            (outcome) =>
              `\n${outcome.scenario.name}: ${describeEnvironment(outcome.scenario.base.environment)}\n` +
              compareTable(outcome) +
              `${compareFindings(outcome).replaceAll('**', '')}\n`,
          ),
          `\nrun written to ${path}/\n`,
        ].join('');
      return { artifacts, text };
    });
  });
  return command;
}
