import { join } from 'node:path';
import { formatInterval, markdownTable, meanInterval } from '@ftw/report';
import { SokobanEpisodeEnv } from '@ftw/sokoban/trainer';
import type { Policy } from '@ftw/trainer';
import { Command } from 'commander';
import { optionWithoutValue, withHelp } from '../cli/help-text.js';
import { addOutputOptions, readOutputOptions } from '../cli/output-options.js';
import { UsageError } from '../cli/usage-error.js';
import { readTextFile } from '../config/read-text-file.js';
import { readInteger } from '../config/read-value.js';
import { ENVIRONMENTS, type EnvironmentConfig, type TrainConfig } from '../config/train-config.js';
import { executeRun, textThenPath } from '../run/write-run.js';
import { createEncodedEnvironments, createEnvironment } from '../train/create-environment.js';
import { createPolicy } from '../train/create-policy.js';
import { describeEnvironment, scoreName } from '../train/describe-config.js';
import { isNetworkPolicy, loadNetworks } from '../train/network-module.js';
import { restorePolicy, type SavedPolicy } from '../train/saved-policy.js';

/** One evaluated seed. */
interface EvaluatedSeed {
  readonly seed: number;
  readonly score: number;
  /** Sokoban: greedy success on the held-out levels; null for a bandit. */
  readonly heldOutSuccess: number | null;
}

function readJson(path: string): unknown {
  let text: string;
  try {
    text = readTextFile(path);
  } catch {
    throw new UsageError(
      `${path} is missing: ftw evaluate reads a run folder written by ftw train or reproduce`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The run's environment, from its config.json. */
function runEnvironment(run: string): EnvironmentConfig {
  const path = join(run, 'config.json');
  const config = readJson(path);
  const environment = isRecord(config) ? config['environment'] : undefined;
  if (!isRecord(environment) || !(ENVIRONMENTS as readonly unknown[]).includes(environment['kind'])) {
    throw new UsageError(`${path} has no "environment" of a kind ftw trains on (${ENVIRONMENTS.join(', ')})`);
  }
  return environment as unknown as EnvironmentConfig;
}

/** The run's policy and network settings, from its config.json (read after {@link runEnvironment}). */
function runPolicy(run: string): Partial<TrainConfig> {
  const { policy, network } = readJson(join(run, 'config.json')) as Partial<TrainConfig>;
  return { ...(policy === undefined ? {} : { policy }), ...(network === undefined ? {} : { network }) };
}

/** The saved policies of a run, each line checked. */
function readPolicies(run: string): SavedPolicy[] {
  const path = join(run, 'policies.ndjson');
  let text: string;
  try {
    text = readTextFile(path);
  } catch {
    throw new UsageError(
      `${path} is missing: the run was not written by ftw train or reproduce, or by a version before policies.ndjson`,
    );
  }
  const lines = text.split('\n').filter((line) => line.length > 0);
  if (lines.length === 0) throw new UsageError(`${path} holds no policy`);
  return lines.map((line, i) => {
    const where = `${path}:${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new UsageError(`${where} is not valid JSON: ${(error as Error).message}`);
    }
    const p = isRecord(value) ? value : {};
    const integer = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0;
    const ok =
      integer(p['seed']) &&
      (p['kind'] === 'tabular' || p['kind'] === 'linear' || p['kind'] === 'network') &&
      integer(p['numActions']) &&
      Array.isArray(p['parameters']) &&
      // A network's weights are checked as it loads, by @ftw/tfjs (NON_FINITE_WEIGHT names the index).
      (p['kind'] === 'network' ||
        p['parameters'].every((x) => typeof x === 'number' && Number.isFinite(x))) &&
      (p['featureCount'] === undefined || integer(p['featureCount'])) &&
      (p['positions'] === undefined ||
        (Array.isArray(p['positions']) && p['positions'].every((x) => typeof x === 'string')));
    if (!ok) {
      throw new UsageError(
        `${where} is not a saved policy { seed, kind: "tabular" | "linear" | "network", numActions, parameters: number[], featureCount?, positions?: string[] }`,
      );
    }
    return p as unknown as SavedPolicy;
  });
}

/**
 * The environment to evaluate on: the run's own, or for Sokoban its level set with the held-out levels
 * drawn from another seed and count (`--level-seed`, `--held-out`). A tabular policy's positions name the
 * run's training levels, so it is refused any level set but the run's.
 */
function evaluationEnvironment(
  environment: EnvironmentConfig,
  levelSeed: number | undefined,
  heldOut: number | undefined,
  policies: readonly SavedPolicy[],
): EnvironmentConfig {
  if (levelSeed === undefined && heldOut === undefined) return environment;
  if (environment.kind !== 'sokoban') {
    throw new UsageError(
      `--level-seed and --held-out apply to a Sokoban run, got a run of --env ${environment.kind}`,
    );
  }
  if (
    levelSeed !== undefined &&
    levelSeed !== environment.levelSeed &&
    policies.some((p) => p.kind === 'tabular')
  ) {
    throw new UsageError(
      `--level-seed ${levelSeed}: a tabular policy knows only the positions of the run's own training levels (level seed ${environment.levelSeed}); evaluate it without --level-seed, or train --policy linear, whose features carry to new levels`,
    );
  }
  return {
    ...environment,
    ...(levelSeed === undefined ? {} : { levelSeed }),
    ...(heldOut === undefined ? {} : { heldOut }),
  };
}

/**
 * Scores each saved policy with the environment's own evaluation (bandits: P(optimal action); Sokoban:
 * greedy success on the training levels, and on the held-out ones).
 *
 * @param environment - where to evaluate
 * @param policies - the run's saved policies
 * @returns one figure per seed
 */
export async function evaluatePolicies(
  environment: EnvironmentConfig,
  policies: readonly SavedPolicy[],
  run: Partial<TrainConfig> = {},
): Promise<EvaluatedSeed[]> {
  if (policies.some((p) => p.kind === 'network')) await loadNetworks();
  return policies.map((saved, i) => {
    if (saved.kind === 'network') {
      if (environment.kind !== 'sokoban' || !isNetworkPolicy(run.policy)) {
        throw new UsageError(`policies.ndjson:${i + 1} holds a network; the run's config.json names none`);
      }
      const encoding = run.policy === 'cnn' ? 'grid' : 'features';
      const env = createEncodedEnvironments(environment, encoding, saved.seed, 1)[0]!;
      // The policy the run's configuration describes, loaded with the line: a line of another
      // architecture, weight count or a NaN weight is refused by @ftw/tfjs, naming the field.
      const policy = createPolicy(run, env) as Policy & { load(record: unknown): void; dispose(): void };
      try {
        policy.load(saved);
      } catch (error) {
        policy.dispose();
        const typed = error as Error & { code?: string };
        if (typed.name !== 'TfjsPolicyError') throw error;
        throw new UsageError(`policies.ndjson:${i + 1}: ${typed.name} ${typed.message}`, { helpHint: false });
      }
      const { score, details } = env.evaluate(policy);
      policy.dispose();
      return { seed: saved.seed, score, heldOutSuccess: details.heldOutSuccess };
    }
    // A fresh environment per policy: Sokoban positions are numbered again from the policy's names.
    const env =
      environment.kind === 'sokoban'
        ? new SokobanEpisodeEnv(environment, saved.seed)
        : createEnvironment(environment, saved.seed);
    const { score, details } = env.evaluate(restorePolicy(saved, env));
    return { seed: saved.seed, score, heldOutSuccess: details?.['heldOutSuccess'] ?? null };
  });
}

/**
 * `ftw evaluate <run>`: scores the policies a run ended with (its `policies.ndjson`) on the run's
 * environment, or for Sokoban on held-out levels of another level seed (`--level-seed`, `--held-out`):
 * does a linear policy carry to levels it never saw? Writes `runs/evaluate/`.
 *
 * @returns the commander command
 * @example
 * ```ts
 * program.addCommand(evaluateCommand()); // ftw evaluate runs/sokoban-linear --level-seed 7 --held-out 100
 * ```
 */
export function evaluateCommand(): Command {
  const command = new Command('evaluate')
    .description(
      "score the policies a run ended with (its policies.ndjson) on the run's environment, or on new Sokoban levels",
    )
    .argument('<run>', 'a run folder written by ftw train or reproduce')
    .addOption(
      optionWithoutValue(
        '--level-seed <seed>',
        'sokoban: draw the held-out levels from this level seed (linear policies)',
        "the run's",
      ),
    )
    .addOption(optionWithoutValue('--held-out <count>', 'sokoban: number of held-out levels', "the run's"));
  addOutputOptions(command, 'evaluate');
  withHelp(command, [
    'ftw evaluate runs/train',
    'ftw evaluate runs/sokoban-linear --level-seed 1 --held-out 100 --name sokoban-unseen',
  ]);
  command.action(async (run: string) => {
    const opts = command.opts<{ levelSeed?: string; heldOut?: string }>();
    const levelSeed =
      opts.levelSeed === undefined ? undefined : readInteger(opts.levelSeed, '--level-seed', { min: 0 });
    const heldOut =
      opts.heldOut === undefined
        ? undefined
        : readInteger(opts.heldOut, '--held-out', { min: 1, max: 10_000 });
    const output = readOutputOptions(command);
    const policies = readPolicies(run);
    const runEnv = runEnvironment(run);
    const environment = evaluationEnvironment(runEnv, levelSeed, heldOut, policies);
    await executeRun(output, 'evaluate', async () => {
      const seeds = await evaluatePolicies(environment, policies, runPolicy(run));
      const sokoban = environment.kind === 'sokoban';
      // With another level seed even the "training" levels are new to the policy: say so.
      const unseen =
        environment.kind === 'sokoban' &&
        runEnv.kind === 'sokoban' &&
        environment.levelSeed !== runEnv.levelSeed
          ? environment
          : null;
      const label =
        unseen === null
          ? scoreName(environment).label
          : `success on the ${unseen.levels} first levels of level seed ${unseen.levelSeed} (unseen)`;
      const heldOutLabel =
        unseen === null
          ? 'success on held-out levels'
          : `success on its ${unseen.heldOut} held-out levels (unseen)`;
      const score = meanInterval(seeds.map((s) => s.score));
      const heldOutSuccess = sokoban ? meanInterval(seeds.map((s) => s.heldOutSuccess ?? 0)) : null;
      const rows = seeds.map((s) => [
        String(s.seed),
        s.score.toFixed(4),
        ...(sokoban ? [(s.heldOutSuccess ?? 0).toFixed(4)] : []),
      ]);
      rows.push([
        'mean ± 95% CI',
        formatInterval(score, 4),
        ...(heldOutSuccess ? [formatInterval(heldOutSuccess, 4)] : []),
      ]);
      const table = markdownTable(['seed', label, ...(sokoban ? [heldOutLabel] : [])], rows, [
        'l',
        'r',
        ...(sokoban ? ['r' as const] : []),
      ]);
      const where = describeEnvironment(environment);
      const summary = { command: 'evaluate', run, environment, seeds, score, heldOutSuccess };
      return {
        artifacts: {
          config: {
            command: 'evaluate',
            run,
            environment,
            levelSeed: levelSeed ?? null,
            heldOut: heldOut ?? null,
          },
          metrics: seeds,
          summary,
          report: [`# ftw evaluate`, '', `The policies of \`${run}\` on ${where}.`, '', table].join('\n'),
          files: {},
        },
        text: textThenPath([`ftw evaluate: ${run}`, `  ${where}`, '', table.trimEnd(), '']),
      };
    });
  });
  return command;
}
