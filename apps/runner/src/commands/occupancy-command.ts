import { markdownTable, type OccupancyPoint, occupancyChart, renderSvg } from '@ftw/report';
import { monteCarloOccupancy, rankOccupancy } from '@ftw/selection';
import { Command } from 'commander';
import { withHelp } from '../cli/help-text.js';
import { addOutputOptions, readOutputOptions } from '../cli/output-options.js';
import { type BatchKeepPair, readPairs } from '../config/read-pairs.js';
import { MAX_SEED, readInteger } from '../config/read-value.js';
import { seededStreams } from '../random/seeded-streams.js';
import { executeRun } from '../run/write-run.js';

/** The resolved configuration of `ftw occupancy`. */
export interface OccupancyConfig {
  /** Pool size N. */
  readonly n: number;
  /** The (C, K) pairs drawn. */
  readonly pairs: readonly BatchKeepPair[];
  /** Monte Carlo minibatches per pair. */
  readonly draws: number;
  /** Seed of the Monte Carlo stream. */
  readonly seed: number;
  /** Monte Carlo points are drawn at ranks 1, 1 + k, 1 + 2k, … (the CSV has every rank). */
  readonly pointsEvery: number;
}

/** Per-pair results of `ftw occupancy` (its `summary.json`). */
export interface OccupancySummary {
  readonly n: number;
  readonly draws: number;
  readonly seed: number;
  readonly pairs: readonly {
    readonly batchSize: number;
    readonly keep: number;
    /** P(1 | N, C, K), the best trajectory's share. */
    readonly top: number;
    /** Σ_r P(r): 1 up to rounding. */
    readonly sum: number;
    /** max_r |Monte Carlo − exact|. */
    readonly maxAbsError: number;
  }[];
}

/** Everything `ftw occupancy` computes, before it is written out. */
export interface OccupancyResult {
  readonly summary: OccupancySummary;
  /** `occupancy.csv`: n,batchSize,keep,rank,exact,monteCarlo (shortest round-trip decimals). */
  readonly csv: string;
  /** Every rank of every pair, with both values (the run's `metrics.ndjson`). */
  readonly rows: readonly {
    readonly batchSize: number;
    readonly keep: number;
    readonly rank: number;
    readonly exact: number;
    readonly monteCarlo: number;
  }[];
  /** The chart's points (Monte Carlo values only every `pointsEvery` ranks). */
  readonly points: readonly OccupancyPoint[];
}

/**
 * Computes Figure 1: for every (C, K) pair, `@ftw/selection`'s exact `rankOccupancy(n, C, K)` and its
 * `monteCarloOccupancy` estimate from `draws` minibatches (one seeded stream, pairs in order).
 *
 * @param config - the resolved configuration
 * @returns summary, CSV text and chart points
 * @example
 * ```ts
 * computeOccupancy({ n: 8, pairs: [{ batchSize: 2, keep: 1 }], draws: 1000, seed: 0, pointsEvery: 1 })
 *   .summary.pairs[0].top; // 0.25 (= C / (K N))
 * ```
 */
export function computeOccupancy(config: OccupancyConfig): OccupancyResult {
  const random = seededStreams(config.seed).selection;
  const lines = ['n,batchSize,keep,rank,exact,monteCarlo'];
  const points: OccupancyPoint[] = [];
  const rows: OccupancyResult['rows'][number][] = [];
  const pairs = config.pairs.map(({ batchSize, keep }) => {
    const exact = rankOccupancy(config.n, batchSize, keep);
    const simulated = monteCarloOccupancy(config.n, batchSize, keep, config.draws, random);
    let sum = 0;
    let maxAbsError = 0;
    for (let r = 0; r < config.n; r++) {
      const p = exact[r]!;
      const q = simulated[r]!;
      sum += p;
      maxAbsError = Math.max(maxAbsError, Math.abs(q - p));
      lines.push(`${config.n},${batchSize},${keep},${r + 1},${p},${q}`);
      rows.push({ batchSize, keep, rank: r + 1, exact: p, monteCarlo: q });
      points.push({
        pair: `C=${batchSize}, K=${keep}`,
        rank: r + 1,
        exact: p,
        monteCarlo: r % config.pointsEvery === 0 ? q : null,
      });
    }
    return { batchSize, keep, top: exact[0]!, sum, maxAbsError };
  });
  return {
    summary: { n: config.n, draws: config.draws, seed: config.seed, pairs },
    csv: `${lines.join('\n')}\n`,
    rows,
    points,
  };
}

function report(config: OccupancyConfig, summary: OccupancySummary): string {
  const table = markdownTable(
    ['C', 'K', 'P(r = 1)', 'Σ P(r)', 'max error of MC'],
    summary.pairs.map((p) => [
      String(p.batchSize),
      String(p.keep),
      p.top.toFixed(5),
      p.sum.toFixed(12),
      p.maxAbsError.toExponential(2),
    ]),
    ['r', 'r', 'r', 'r', 'r'],
  );
  return [
    `# Figure 1: selection probability by rank (N = ${config.n})`,
    '',
    'Drawing C of N trajectories uniformly without replacement and keeping the K with the highest return',
    'selects the trajectory of rank r with probability (Eq. 5 of arXiv 2610.03361)',
    '',
    '    P(r | N, C, K) = 1 / (K · binom(N, C)) · Σ_{k=1..K} binom(r−1, k−1) · binom(N−r, C−k)',
    '',
    `Lines are \`rankOccupancy\` from \`@ftw/selection\`; points are \`monteCarloOccupancy\` over ${config.draws}`,
    `minibatches per pair (seed ${config.seed}). C sets how concentrated selection is; a larger K softens it.`,
    '',
    '![Figure 1](figure-1.svg)',
    '',
    table,
    'All values: [occupancy.csv](occupancy.csv).',
    '',
  ].join('\n');
}

function print(config: OccupancyConfig, summary: OccupancySummary, path: string): string {
  const rows = summary.pairs.map((p) => [
    String(p.batchSize),
    String(p.keep),
    p.top.toFixed(5),
    p.maxAbsError.toExponential(2),
  ]);
  return (
    `Figure 1, N = ${config.n}, ${config.draws} Monte Carlo minibatches per pair\n` +
    markdownTable(['C', 'K', 'P(r = 1)', 'max error of MC'], rows, ['r', 'r', 'r', 'r']) +
    `written to ${path}/ (figure-1.svg, occupancy.csv, report.md)\n`
  );
}

/**
 * `ftw occupancy`: draws the paper's Figure 1 (exact curves with Monte Carlo points) as SVG and CSV.
 *
 * @returns the commander command
 * @example
 * ```ts
 * program.addCommand(occupancyCommand()); // ftw occupancy [--n 128] [--pairs 4:1,…] [--draws 100000]
 * ```
 */
export function occupancyCommand(): Command {
  const command = new Command('occupancy')
    .description('draw Figure 1: P(r | N, C, K) by rank, exact curves with Monte Carlo points (SVG + CSV)')
    .option('--n <N>', 'pool size N', '128')
    .option('--pairs <list>', 'C:K pairs, comma-separated', '4:1,5:1,5:3,8:2,16:4,32:8')
    .option('--draws <count>', 'Monte Carlo minibatches per pair', '100000')
    .option('--seed <seed>', 'seed of the Monte Carlo draws', '0')
    .option('--points-every <ranks>', 'draw a Monte Carlo point every this many ranks', '4');
  addOutputOptions(command, 'occupancy');
  withHelp(command, [
    'ftw occupancy',
    'ftw occupancy --n 64 --pairs 5:1,8:2 --draws 1000000 --name fig1-n64',
  ]);
  command.action(async () => {
    const o = command.opts<Record<string, string>>();
    const n = readInteger(o['n'], '--n', { min: 1, max: 100_000 });
    const config: OccupancyConfig = {
      n,
      pairs: readPairs(o['pairs'], '--pairs', n),
      draws: readInteger(o['draws'], '--draws', { min: 1, max: 100_000_000 }),
      seed: readInteger(o['seed'], '--seed', { max: MAX_SEED }),
      pointsEvery: readInteger(o['pointsEvery'], '--points-every', { min: 1, max: n }),
    };
    const output = readOutputOptions(command);
    await executeRun(output, 'occupancy', async () => {
      const result = computeOccupancy(config);
      const svg = await renderSvg(occupancyChart(config.n, result.points, config.draws));
      return {
        artifacts: {
          config: { ...config },
          metrics: result.rows,
          summary: result.summary,
          report: report(config, result.summary),
          files: { 'figure-1.svg': svg, 'occupancy.csv': result.csv },
        },
        text: (path) => print(config, result.summary, path),
      };
    });
  });
  return command;
}
