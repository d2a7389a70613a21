import { formatInterval } from './format-interval.js';
import { type MeanInterval, meanInterval } from './mean-interval.js';
import { metricLabel } from './metric-label.js';
import type { RunData } from './run-data.js';

/** A table of the page: a title, column headers and rows of text (the first column names the group). */
export interface SummaryTable {
  readonly title: string;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/** What {@link summaryTables} needs of a group. */
export interface SummaryMember {
  readonly label: string;
  readonly run: RunData;
  /** The group's string fields in `metrics.ndjson` (a compare run's scenario and method). */
  readonly strings: Readonly<Record<string, string>>;
  readonly seeds: readonly {
    readonly seed: number;
    readonly values: ReadonlyMap<string, readonly number[]>;
  }[];
}

const SUMMARY_LABELS: Readonly<Record<string, string>> = {
  finalOptimalProbability: 'final P(optimal)',
  finalSuccessRate: 'final success rate',
  meanReward: 'mean reward',
  cumulativeRegret: 'cumulative regret',
  samplesTo90: 'samples to 0.9',
  reached90: 'seeds reaching 0.9',
  environmentSteps: 'env steps per seed',
  updatesPerSeed: 'updates per seed',
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isInterval(value: unknown): value is MeanInterval {
  return (
    isRecord(value) &&
    typeof value['n'] === 'number' &&
    typeof value['mean'] === 'number' &&
    typeof value['halfWidth'] === 'number'
  );
}

/** Mean ± half-width with about four significant digits of the mean (exponents for tiny or huge means). */
export function formatSignificant(interval: MeanInterval): string {
  const m = Math.abs(interval.mean);
  if (m !== 0 && (m < 1e-3 || m >= 1e7)) {
    const mean = interval.mean.toExponential(3);
    return interval.n < 2 ? mean : `${mean} ± ${interval.halfWidth.toExponential(1)}`;
  }
  const magnitude = interval.mean === 0 ? 0 : Math.floor(Math.log10(Math.abs(interval.mean)));
  return formatInterval(interval, Math.max(0, Math.min(8, 3 - magnitude)));
}

/** The summary object of one group: a compare run's method entry, or the run's summary itself. */
function groupSummary(member: SummaryMember): Record<string, unknown> {
  const summary = member.run.summary;
  if (!isRecord(summary)) return {};
  const scenarios = summary['scenarios'];
  if (Array.isArray(scenarios) && member.strings['scenario'] !== undefined) {
    const scenario = scenarios.find((s) => isRecord(s) && s['name'] === member.strings['scenario']);
    const methods = isRecord(scenario) && Array.isArray(scenario['methods']) ? scenario['methods'] : [];
    const method = methods.find((m) => isRecord(m) && m['label'] === member.strings['method']);
    return isRecord(method) ? method : {};
  }
  return summary;
}

/** Columns of the summary table: figures with intervals, then plain counts, in first-seen order. */
function summaryColumns(summaries: readonly Record<string, unknown>[]): string[] {
  const intervals: string[] = [];
  const counts: string[] = [];
  for (const s of summaries) {
    for (const [k, v] of Object.entries(s)) {
      if ((isInterval(v) || v === null) && !intervals.includes(k)) intervals.push(k);
      else if (typeof v === 'number' && !counts.includes(k)) counts.push(k);
    }
  }
  // A null column is kept only where some group has an interval there (samples to 0.9 when none reached it).
  const kept = intervals.filter((k) => summaries.some((s) => isInterval(s[k])));
  return [...kept, ...counts];
}

function label(key: string): string {
  return SUMMARY_LABELS[key] ?? metricLabel(key).axis;
}

/**
 * The tables of one environment's section: each group's figures from `summary.json` (every interval
 * `{ n, mean, halfWidth }` it holds, as mean ± 95% CI, and its plain counts), and the final value of each
 * per-iteration metric over seeds (mean ± 95% Student-t CI of each seed's last recorded value), computed
 * here so that metrics a summary does not list still get their interval.
 *
 * @param members - the groups of the environment
 * @param metrics - the metric keys, in display order
 * @returns the summary table (when a summary has figures) and the final-values table
 * @example
 * ```ts
 * summaryTables(members, ['optimalProbability'])[1].rows[0]; // ['reproduce', '0.9684 ± 0.0018']
 * ```
 */
export function summaryTables(members: readonly SummaryMember[], metrics: readonly string[]): SummaryTable[] {
  const tables: SummaryTable[] = [];
  const summaries = members.map(groupSummary);
  const columns = summaryColumns(summaries);
  if (columns.length > 0) {
    tables.push({
      title: 'Summary (summary.json): mean ± 95% CI over seeds',
      columns: ['run', ...columns.map(label)],
      rows: members.map((m, i) => [
        m.label,
        ...columns.map((k) => {
          const v = summaries[i]![k];
          if (isInterval(v)) return formatSignificant(v);
          if (typeof v === 'number') return String(v);
          return '—';
        }),
      ]),
    });
  }
  const finals = metrics.map((metric) =>
    members.map((m) => {
      const last = m.seeds.flatMap((s) => {
        const values = s.values.get(metric) ?? [];
        for (let i = values.length - 1; i >= 0; i--) if (Number.isFinite(values[i]!)) return [values[i]!];
        return [];
      });
      return last.length === 0
        ? '—'
        : `${formatSignificant(meanInterval(last))}${last.length < m.seeds.length ? ` (${last.length} seeds)` : ''}`;
    }),
  );
  const shown = metrics.map((_, j) => j).filter((j) => finals[j]!.some((v) => v !== '—'));
  if (shown.length > 0) {
    tables.push({
      title: 'Final value of each metric (last recorded iteration): mean ± 95% CI over seeds',
      columns: ['run', ...shown.map((j) => metricLabel(metrics[j]!).axis)],
      rows: members.map((m, i) => [m.label, ...shown.map((j) => finals[j]![i]!)]),
    });
  }
  return tables;
}
