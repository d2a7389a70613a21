import { describeValue } from '@ftw/internal';
import { expectedCounts, type RandomSource, rankOccupancy, selectElites } from '@ftw/selection';
import { AgentDataError } from './agent-data-error.js';
import { cutTieProbability, shortfallProbability } from './cut-statistics.js';
import { rankValues, TIE_BREAK_KEYS, type TieBreakKey } from './tie-break.js';
import type { Trajectory } from './trajectory-schema.js';

/** How {@link selectDataset} weights a window of runs. */
export interface DatasetSelectionOptions {
  /** J, minibatches (per task with `perTask`). */
  readonly batches: number;
  /** C, runs per minibatch, drawn uniformly without replacement. */
  readonly batchSize: number;
  /** K, runs kept per minibatch (the K highest rewards). */
  readonly keep: number;
  /**
   * `sampled`: draw the J minibatches (integer counts, seeded); `expected`: the exact expected counts
   * J·K·P (fractional, no randomness), the zero-variance limit. @defaultValue 'sampled'
   */
  readonly mode?: 'sampled' | 'expected';
  /** Only runs whose reward is strictly above it may be kept. @defaultValue undefined */
  readonly threshold?: number | undefined;
  /** Keys that order runs of equal reward before the random tie-break. @defaultValue [] */
  readonly tieBreak?: readonly TieBreakKey[];
  /** Select within each task separately (each task its own J minibatches). @defaultValue false */
  readonly perTask?: boolean;
  /**
   * A run counts as a success when its reward is strictly above this, for the report.
   * @defaultValue the threshold, else the lowest reward in the window
   */
  readonly successAbove?: number | undefined;
}

/** One row of the rank table: the runs whose rank falls in a tenth of their group. */
export interface RankBin {
  /** First rank of the bin as a percentage of the group (0 = best). */
  readonly fromPercent: number;
  /** End of the bin, exclusive, as a percentage. */
  readonly toPercent: number;
  /** Selections of the runs in the bin (the counts written out). */
  readonly selected: number;
  /** J·K·Σ P(r) over the bin's ranks: Eq. 5 with distinct rewards and no threshold. */
  readonly eq5: number;
  /** Exact expected selections of the bin with this window's ties and threshold. */
  readonly expected: number;
}

/** What a selection did, for people: the FTW diagnostics of a dataset. */
export interface SelectionReport {
  readonly mode: 'sampled' | 'expected';
  /** Runs in the window. */
  readonly n: number;
  /** Groups selected (1, or the tasks with at least C runs). */
  readonly groups: number;
  /** Tasks with fewer than C runs, skipped (per-task only). */
  readonly skippedTasks: readonly { readonly task: string; readonly size: number }[];
  /** Σ counts: J·K per group without a threshold. */
  readonly total: number;
  /** Runs with a count above 0. */
  readonly selectedRuns: number;
  /** Selections by rank against Eq. 5, ten bins. */
  readonly rankBins: readonly RankBin[];
  /**
   * P(the K-th and (K+1)-th rewards of a minibatch are equal, and above the threshold when there is one),
   * mean over groups: how often the cut falls inside a tie and is decided at random.
   */
  readonly tieRateAtCut: number;
  /** The same after the tie-break keys: how often the random tie-break still decides. */
  readonly tieRateAfterKeys: number;
  /** The reward a success must exceed. */
  readonly successAbove: number;
  /** Runs in the window that succeeded. */
  readonly successes: number;
  /** Selections of failed runs, and their share of all selections. */
  readonly eliteFailures: number;
  readonly eliteFailureShare: number;
  /** C · successes / n, mean over groups: successes a minibatch holds on average. */
  readonly meanSuccessesPerBatch: number;
  /** P(a minibatch holds fewer than K successes), mean over groups. */
  readonly shortfallProbability: number;
  /** Plain-language warnings (the Sokoban collapse regime, skipped tasks). */
  readonly warnings: readonly string[];
}

/** Counts per window item and the report. */
export interface DatasetSelection {
  /** counts[i] for window item i: integers in sampled mode, fractional in expected mode. */
  readonly counts: Float64Array;
  readonly report: SelectionReport;
}

const BINS = 10;

/**
 * FTW selection over a window of logged runs, through `@ftw/selection`: J minibatches of C runs, the K
 * best of each (`selectElites`, seeded), or the exact expected counts (`expectedCounts`), optionally
 * within each task, with a reward threshold and tie-break keys. Returns how often each run is imitated
 * and a report: selections by rank against Eq. 5 (`rankOccupancy`), the tie rate at the cut, how many
 * selections are failures, and a warning when K exceeds the successes a minibatch typically holds — the
 * regime of the paper's Sokoban collapse (K = 3, C = 5 on binary rewards), where the top K must include
 * failures.
 *
 * Cost: O(n log n) per group (the report's exact expected counts), plus O(n + J·C) for the sampled draw.
 *
 * @param items - the window's trajectories, oldest first
 * @param options - J, C, K, mode, threshold, tie-break keys, per-task
 * @param random - a `() => number` on [0, 1) or a pure-rand generator (sampled mode only; groups draw in
 * order of first appearance)
 * @returns counts and report
 * @throws TypeError/RangeError naming a bad option; AgentDataError `POOL_TOO_SMALL` when no group holds C runs
 * @example
 * ```ts
 * const { counts, report } = selectDataset(window.items.map((w) => w.trajectory),
 *   { batches: 64, batchSize: 8, keep: 2 }, xoroshiro128plus(0));
 * report.total; // 128
 * ```
 */
export function selectDataset(
  items: readonly Trajectory[],
  options: DatasetSelectionOptions,
  random?: RandomSource,
): DatasetSelection {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`options must be an object, got ${describeValue(options)}`);
  }
  const mode = options.mode ?? 'sampled';
  if (mode !== 'sampled' && mode !== 'expected') {
    throw new RangeError(`mode must be 'sampled' or 'expected', got ${describeValue(mode)}`);
  }
  if (mode === 'sampled' && random === undefined) throw new TypeError('random is required in sampled mode');
  const tieBreak = options.tieBreak ?? [];
  for (const key of tieBreak) {
    if (!(TIE_BREAK_KEYS as readonly string[]).includes(key)) {
      throw new RangeError(
        `tieBreak must hold keys among ${TIE_BREAK_KEYS.join(', ')}, got ${describeValue(key)}`,
      );
    }
  }
  const { batches, batchSize, keep, threshold } = options;
  for (const [name, value] of [
    ['batches', batches],
    ['batchSize', batchSize],
    ['keep', keep],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 1)
      throw new RangeError(`${name} must be a positive integer, got ${describeValue(value)}`);
  }
  if (keep > batchSize) throw new RangeError(`keep must be <= batchSize (${batchSize}), got ${keep}`);
  if (threshold !== undefined && !Number.isFinite(threshold)) {
    throw new RangeError(`threshold must be a finite number, got ${describeValue(threshold)}`);
  }
  const n = items.length;
  let lowest = Number.POSITIVE_INFINITY;
  for (const t of items) lowest = Math.min(lowest, t.reward);
  const successAbove = options.successAbove ?? threshold ?? lowest;
  if (!Number.isFinite(successAbove))
    throw new RangeError(`successAbove must be a finite number, got ${describeValue(successAbove)}`);

  const groups = groupIndices(items, options.perTask === true);
  const counts = new Float64Array(n);
  const skippedTasks: { task: string; size: number }[] = [];
  const bins = Array.from({ length: BINS }, () => ({ selected: 0, eq5: 0, expected: 0 }));
  let used = 0;
  let tieRate = 0;
  let tieRateKeys = 0;
  let meanSuccesses = 0;
  let shortfall = 0;
  let successes = 0;
  for (const t of items) if (t.reward > successAbove) successes++;

  for (const [task, members] of groups) {
    const size = members.length;
    if (size < batchSize) {
      skippedTasks.push({ task, size });
      continue;
    }
    used++;
    const groupItems = members.map((i) => items[i]!);
    const rewards = Float64Array.from(groupItems, (t) => t.reward);
    const ranked = rankValues(groupItems, tieBreak, threshold);
    const selection = { batches, batchSize, keep, threshold: ranked.threshold };
    const expected = expectedCounts(ranked.values, selection);
    const groupCounts =
      mode === 'expected' ? expected : selectElites(ranked.values, selection, random!).counts;
    for (let j = 0; j < size; j++) counts[members[j]!] = groupCounts[j]!;

    // Rank table: positions by value, best first (ties in window order).
    const occupancy = rankOccupancy(size, batchSize, keep);
    const order = Array.from({ length: size }, (_, j) => j).sort(
      (a, b) => ranked.values[b]! - ranked.values[a]! || a - b,
    );
    for (let p = 0; p < size; p++) {
      const bin = bins[Math.floor((p * BINS) / size)]!;
      const j = order[p]!;
      bin.selected += groupCounts[j]!;
      bin.expected += expected[j]!;
      bin.eq5 += batches * keep * occupancy[p]!;
    }
    // Ties at or below the threshold are not cut (none of their runs is kept): only those above count.
    tieRate += cutTieProbability(rewards, batchSize, keep, threshold);
    tieRateKeys +=
      tieBreak.length === 0
        ? cutTieProbability(rewards, batchSize, keep, threshold)
        : cutTieProbability(ranked.values, batchSize, keep, ranked.threshold);
    let s = 0;
    for (const r of rewards) if (r > successAbove) s++;
    meanSuccesses += (batchSize * s) / size;
    shortfall += shortfallProbability(size, s, batchSize, keep);
  }
  if (used === 0) {
    throw new AgentDataError(
      'POOL_TOO_SMALL',
      options.perTask === true
        ? `no task has batchSize (${batchSize}) runs in the window; the largest has ${Math.max(...skippedTasks.map((s) => s.size))}`
        : `the window holds ${n} runs, fewer than batchSize (${batchSize})`,
    );
  }
  let total = 0;
  let selectedRuns = 0;
  let eliteFailures = 0;
  for (let i = 0; i < n; i++) {
    const c = counts[i]!;
    total += c;
    if (c > 0) selectedRuns++;
    if (!(items[i]!.reward > successAbove)) eliteFailures += c;
  }
  const report = {
    mode,
    n,
    groups: used,
    skippedTasks,
    total,
    selectedRuns,
    rankBins: bins.map((b, k) => ({
      fromPercent: (k * 100) / BINS,
      toPercent: ((k + 1) * 100) / BINS,
      ...b,
    })),
    tieRateAtCut: tieRate / used,
    tieRateAfterKeys: tieRateKeys / used,
    successAbove,
    successes,
    eliteFailures,
    eliteFailureShare: total > 0 ? eliteFailures / total : 0,
    meanSuccessesPerBatch: meanSuccesses / used,
    shortfallProbability: shortfall / used,
    warnings: [] as string[],
  };
  if (eliteFailures > 0 && keep > report.meanSuccessesPerBatch) {
    report.warnings.push(
      `K = ${keep} exceeds the ${report.meanSuccessesPerBatch.toFixed(2)} successes (reward > ${successAbove}) a minibatch of C = ${batchSize} holds on average; ` +
        `${(100 * report.shortfallProbability).toFixed(0)}% of minibatches hold fewer than K, so ${(100 * report.eliteFailureShare).toFixed(1)}% of the selections imitate failures ` +
        `(the paper's Sokoban collapse, K = 3 and C = 5 on binary rewards). Set a threshold (e.g. --threshold ${successAbove}), lower K or raise C.`,
    );
  }
  if (skippedTasks.length > 0) {
    report.warnings.push(
      `${skippedTasks.length} task(s) with fewer than C = ${batchSize} runs in the window were skipped (${skippedTasks
        .slice(0, 3)
        .map((s) => `${JSON.stringify(s.task.length > 30 ? `${s.task.slice(0, 30)}…` : s.task)}: ${s.size}`)
        .join(', ')}${skippedTasks.length > 3 ? ', …' : ''}).`,
    );
  }
  return { counts, report };
}

/** Window indices by group: one group, or one per task in order of first appearance. */
function groupIndices(items: readonly Trajectory[], perTask: boolean): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  items.forEach((t, i) => {
    const key = perTask ? t.task : '';
    let members = groups.get(key);
    if (members === undefined) groups.set(key, (members = []));
    members.push(i);
  });
  return groups;
}
