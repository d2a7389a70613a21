import { COMMON_GRID_POINTS, commonStepGrid, lastAtOrBefore, sameSteps } from './common-step-grid.js';
import { metricLabel, sortMetrics } from './metric-label.js';
import { minMaxBuckets } from './min-max-buckets.js';
import type { RunData } from './run-data.js';
import { seedBand } from './seed-band.js';
import { type SummaryTable, summaryTables } from './summary-tables.js';

/** One drawn curve: a seed's curve, or a group's mean with its 95% band (`s` null). */
export interface CurveData {
  /** Index of the group in {@link ViewModel.groups}. */
  readonly g: number;
  /** The seed, or null for the mean over seeds. */
  readonly s: number | null;
  /** Environment steps of each kept point. */
  readonly x: readonly number[];
  /** The metric (mean for a mean curve) at each kept point. */
  readonly y: readonly number[];
  /** Lower and upper ends of the 95% interval (mean curves of two seeds or more). */
  readonly lo?: readonly number[];
  readonly hi?: readonly number[];
}

/** One learning-curve chart: one metric in one environment. */
export interface ChartData {
  readonly metric: string;
  readonly title: string;
  readonly axis: string;
  readonly unitInterval: boolean;
  readonly curves: readonly CurveData[];
}

/** A curve group: one configuration of one run (a `train` run has one, a `compare` run one per method). */
export interface GroupData {
  /** Legend label, unique in the page: run, then scenario and method where there are several. */
  readonly label: string;
  readonly run: string;
  readonly method: string;
  readonly seeds: readonly number[];
  /** Index in {@link ViewModel.environments}. */
  readonly environment: number;
  /** Colour of its curves. */
  readonly color: string;
}

/** Runs on one environment: their curves are overlaid. */
export interface EnvironmentData {
  readonly label: string;
  readonly charts: readonly ChartData[];
  /** Summary figures of each group (from `summary.json`), and each metric's final value. */
  readonly tables: readonly SummaryTable[];
}

/** Everything the page shows, computed in Node and embedded in the page as JSON. */
export interface ViewModel {
  readonly title: string;
  /** What could not be compared, and why; shown at the top of the page. */
  readonly notices: readonly string[];
  readonly runs: readonly { readonly name: string; readonly command: string }[];
  readonly groups: readonly GroupData[];
  readonly environments: readonly EnvironmentData[];
  /** Configuration keys whose values differ between groups: columns are groups, rows keys. */
  readonly configDiff: {
    readonly keys: readonly string[];
    readonly values: readonly (readonly string[])[];
    /** How many keys are identical in every group (not listed). */
    readonly identical: number;
  };
  /** Initial inputs of the Figure 1 widget, from the first FTW configuration. */
  readonly figure1: {
    readonly n: number;
    readonly c: number;
    readonly k: number;
    readonly threshold: number | null;
  };
}

/**
 * Points per chart shared by the per-seed curves (each keeps its minima and maxima per bucket). Vega costs
 * some 30 µs of CPU per drawn point here, so a chart stays near 3,000 seed points: 100 seeds get 15
 * buckets each (their curves make a cloud whose envelope is kept), 10 seeds 150, 3 seeds 300.
 */
const SEED_POINTS_PER_CHART = 3_000;
/** Bounds on the buckets of one seed's curve. */
const SEED_BUCKETS = { min: 15, max: 300 } as const;
/** Buckets of a mean curve (two points each at most). */
const MEAN_BUCKETS = 250;
/** Significant digits kept of each value: invisible on a chart, a third of the page's bytes. */
const DIGITS = 5;
const FIXED_FIELDS = new Set(['seed', 'iteration', 'samples']);
/** Objects of a row that are records, not metrics: a Redis run's `replay` (stream ids and draw counts). */
const RECORD_FIELDS = new Set(['replay']);
/** Tableau 10, then the light halves of Tableau 20: colours are given per environment, in group order. */
const PALETTE = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#59a14f',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
  '#a0cbe8',
  '#ffbe7d',
  '#8cd17d',
  '#b6992d',
  '#f1ce63',
  '#86bcb6',
  '#d37295',
  '#fabfd2',
  '#d4a6c8',
  '#d7b5a6',
];

/** 10^0 … 10^22, the powers of ten a double holds exactly. */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));

/**
 * `Number(v.toPrecision(5))` (NaN and ±Infinity kept, −0 becomes 0), without formatting a string for most
 * values: v is scaled by an exact power of ten to m ∈ [10^4, 10^5) and rounded to the integer n, then
 * n / 10^k is one correctly rounded division, the double nearest the decimal n·10^−k that toPrecision
 * prints. The scaling rounds once (relative error ≤ 2^−53, under 2e−11 at m < 10^5), so the integer is the
 * exact one unless m lies within 1e−6 of a half; there, and near the range's ends, toPrecision decides.
 */
function round(v: number): number {
  if (!Number.isFinite(v)) return v;
  if (v === 0) return 0;
  const a = Math.abs(v);
  const k = DIGITS - 1 - Math.floor(Math.log10(a));
  if (k >= -22 && k <= 22) {
    const m = k >= 0 ? a * POWERS_OF_TEN[k]! : a / POWERS_OF_TEN[-k]!;
    const fraction = m - Math.floor(m);
    if (m >= 10_000 && m < 99_999 && Math.abs(fraction - 0.5) > 1e-6) {
      const n = Math.round(m);
      const r = k >= 0 ? n / POWERS_OF_TEN[k]! : n * POWERS_OF_TEN[-k]!;
      return v < 0 ? -r : r;
    }
  }
  return Number(v.toPrecision(DIGITS));
}

/** A seed's curve: x and one array per metric, NaN where the metric was null. */
interface SeedSeries {
  readonly seed: number;
  readonly x: number[];
  readonly values: Map<string, number[]>;
}

interface Group {
  readonly run: RunData;
  readonly strings: Readonly<Record<string, string>>;
  readonly config: Readonly<Record<string, unknown>>;
  readonly method: string;
  readonly environmentKey: string;
  readonly environmentLabel: string;
  readonly seeds: Map<number, SeedSeries>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON with sorted keys: equal configurations give equal strings. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isRecord(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Options of {@link viewModel} and `reportPage`. */
export interface ViewModelOptions {
  /**
   * Names a run's environment (its configuration's `environment` object) in section titles and notices,
   * e.g. `Gaussian bandit, means 1, 0.3, sd 0.2`. An exception, a non-string or a text containing
   * `undefined` (a kind it does not know) falls back to the default.
   *
   * @defaultValue the environment's fields, `kind` first as it is, e.g. `gaussian, means 1, 0.3, sds 0.2, 0.2`
   */
  readonly describeEnvironment?: (environment: Readonly<Record<string, unknown>>) => string;
}

function environmentLabel(environment: unknown, options: ViewModelOptions): string {
  if (!isRecord(environment)) return 'unknown environment';
  if (options.describeEnvironment !== undefined) {
    try {
      const text = options.describeEnvironment(environment) as unknown;
      if (typeof text === 'string' && !text.includes('undefined')) return text;
    } catch {
      // An environment kind the caller does not describe: fall back to its fields.
    }
  }
  return Object.entries(environment)
    .map(([k, v]) => (k === 'kind' ? String(v) : `${k} ${Array.isArray(v) ? v.join(', ') : canonical(v)}`))
    .join(', ');
}

/** The configuration of one group: a compare run's method configuration, or the run's own. */
function groupConfig(run: RunData, strings: Readonly<Record<string, string>>): Record<string, unknown> {
  const { scenarios, ...rest } = run.config;
  if (Array.isArray(scenarios) && strings['scenario'] !== undefined) {
    const scenario = scenarios.find((s) => isRecord(s) && s['name'] === strings['scenario']);
    const methods = isRecord(scenario) && Array.isArray(scenario['methods']) ? scenario['methods'] : [];
    const method = methods.find((m) => isRecord(m) && m['label'] === strings['method']);
    if (isRecord(method) && isRecord(method['config'])) {
      return { ...rest, scenario: strings['scenario'], label: strings['method'], ...method['config'] };
    }
  }
  return { ...run.config };
}

/**
 * Where a row's metric values go, in one pass over its fields and without allocating: its numbers and nulls,
 * with those of nested objects under dotted keys (Sokoban records `evaluation: { heldOutSuccess }`, which
 * becomes `evaluation.heldOutSuccess`); seed, iteration and samples are not metrics.
 *
 * Rows of one run share their fields in one order, so each series remembers the column of the field met at
 * each position of the walk and finds it again by comparing one key, not by a map lookup or by building
 * the dotted key anew per row.
 */
class RowColumns {
  /**
   * The fields met at each position of the walk over a row, and their columns (null for seed, iteration
   * and samples, which are not metrics), of the last row.
   */
  private readonly keys: string[] = [];
  private readonly columns: (number[] | null)[] = [];
  private position = 0;

  constructor(
    private readonly series: SeedSeries,
    private readonly metricKeys: Set<string>,
    private readonly dotted: Map<string, Map<string, string>>,
  ) {}

  /** Appends the row's metric values to their columns (the row is the series' `t`-th). */
  add(row: Readonly<Record<string, unknown>>, t: number): void {
    this.position = 0;
    this.visit(row, '', t);
  }

  private visit(value: Readonly<Record<string, unknown>>, prefix: string, t: number): void {
    for (const k in value) {
      const v = value[k];
      if (typeof v === 'number' || v === null) {
        const p = this.position++;
        let column: number[] | null;
        if (this.keys[p] === k && prefix === '') column = this.columns[p] as number[] | null;
        else {
          column =
            prefix === '' && FIXED_FIELDS.has(k)
              ? null
              : this.column(prefix === '' ? k : this.dottedKey(prefix, k), t);
          // Nested fields are looked up by their dotted key every time (few rows have them).
          this.keys[p] = prefix === '' ? k : '';
          this.columns[p] = column;
        }
        if (column === null) continue;
        while (column.length < t) column.push(Number.NaN);
        column.push(typeof v === 'number' ? v : Number.NaN);
      } else if (typeof v === 'object' && !Array.isArray(v) && !(prefix === '' && RECORD_FIELDS.has(k))) {
        this.visit(v as Readonly<Record<string, unknown>>, prefix === '' ? k : this.dottedKey(prefix, k), t);
      }
    }
  }

  private column(key: string, t: number): number[] {
    let column = this.series.values.get(key);
    if (column === undefined) {
      column = new Array<number>(t).fill(Number.NaN);
      this.series.values.set(key, column);
      this.metricKeys.add(key);
    }
    return column;
  }

  /** `prefix.k`, built once per pair. */
  private dottedKey(prefix: string, k: string): string {
    let inner = this.dotted.get(prefix);
    if (inner === undefined) this.dotted.set(prefix, (inner = new Map()));
    let key = inner.get(k);
    if (key === undefined) inner.set(k, (key = `${prefix}.${k}`));
    return key;
  }
}

/**
 * The string fields of a run's rows that name configurations (a compare run's scenario and method): those
 * that never change from one iteration of a seed to the next. A field that does (a level name per episode,
 * say) labels rows, not configurations, and would split every curve apart, so it is left out.
 */
function groupingFields(run: RunData): string[] {
  const fields = new Set<string>();
  const varying = new Set<string>();
  let previous: Readonly<Record<string, unknown>> | undefined;
  for (const row of run.metrics) {
    const next =
      previous !== undefined &&
      row['seed'] === previous['seed'] &&
      row['iteration'] === (previous['iteration'] as number) + 1;
    for (const k in row) {
      const v = row[k];
      if (typeof v !== 'string') continue;
      fields.add(k);
      if (next && previous![k] !== v) varying.add(k);
    }
    previous = row;
  }
  return [...fields].filter((k) => !varying.has(k)).sort();
}

/** True when two rows have the same values in the grouping fields. */
function sameStrings(
  a: Readonly<Record<string, unknown>>,
  b: Readonly<Record<string, unknown>>,
  keys: readonly string[],
): boolean {
  for (const k of keys) if (a[k] !== b[k]) return false;
  return true;
}

/**
 * Splits each run's metric rows into groups (by their string fields: scenario, method) and seeds, in one
 * pass: the group and the seed's series are looked up again only when a row's strings or seed differ from
 * the previous row's (rows come seed by seed).
 */
function collectGroups(
  runs: readonly RunData[],
  metricKeys: Set<string>,
  options: ViewModelOptions,
): Group[] {
  const groups: Group[] = [];
  const dotted = new Map<string, Map<string, string>>();
  for (const run of runs) {
    const keys = groupingFields(run);
    const byKey = new Map<string, Group>();
    const columnsOf = new Map<SeedSeries, RowColumns>();
    let previous: Readonly<Record<string, unknown>> | undefined;
    let group: Group | undefined;
    let series: SeedSeries | undefined;
    let columns: RowColumns | undefined;
    for (const row of run.metrics) {
      if (group === undefined || !sameStrings(row, previous!, keys)) {
        const strings: Record<string, string> = {};
        for (const k of keys) if (typeof row[k] === 'string') strings[k] = row[k];
        const key = canonical(strings);
        group = byKey.get(key);
        if (group === undefined) {
          const config = groupConfig(run, strings);
          const environment = config['environment'];
          group = {
            run,
            strings,
            config,
            method:
              strings['method'] ??
              (typeof config['method'] === 'string' ? config['method'] : String(run.config['command'])),
            environmentKey: canonical(environment ?? null),
            environmentLabel: environmentLabel(environment, options),
            seeds: new Map(),
          };
          byKey.set(key, group);
          groups.push(group);
        }
        series = undefined;
      }
      previous = row;
      const seed = row['seed'] as number;
      if (series === undefined || series.seed !== seed) {
        series = group.seeds.get(seed);
        if (series === undefined) {
          series = { seed, x: [], values: new Map() };
          group.seeds.set(seed, series);
        }
        columns = columnsOf.get(series);
        if (columns === undefined)
          columnsOf.set(series, (columns = new RowColumns(series, metricKeys, dotted)));
      }
      const t = series.x.length;
      series.x.push(row['samples'] as number);
      columns!.add(row, t);
    }
  }
  return groups;
}

/** A metric's values at each of the seed's points (NaN where absent); the stored column itself when whole. */
function column(series: SeedSeries, metric: string): readonly number[] {
  const values = series.values.get(metric) ?? [];
  if (values.length === series.x.length) return values;
  const out = values.slice(0, series.x.length);
  while (out.length < series.x.length) out.push(Number.NaN);
  return out;
}

/** Whether every seed has the same environment steps; asked once per group, not once per metric. */
const sharedGrids = new WeakMap<readonly SeedSeries[], boolean>();
function sameGrid(seeds: readonly SeedSeries[]): boolean {
  let same = sharedGrids.get(seeds);
  if (same !== undefined) return same;
  same = sameSteps(seeds.map((s) => s.x));
  sharedGrids.set(seeds, same);
  return same;
}

/**
 * Each seed's value on a common grid of environment steps: the value of the last iteration completed at or
 * before each step (seeds whose episodes differ in length do not share their grid).
 */
function commonGrid(seeds: readonly SeedSeries[], metric: string): { x: number[]; curves: number[][] } {
  const x = commonStepGrid(seeds.map((s) => s.x));
  const curves = seeds.map((s) => {
    const values = column(s, metric);
    const at = lastAtOrBefore(s.x, x);
    return x.map((_, t) => (at[t]! < 0 ? Number.NaN : values[at[t]!]!));
  });
  return { x, curves };
}

function meanCurve(
  g: number,
  seeds: readonly SeedSeries[],
  metric: string,
  notes: Set<string>,
  label: string,
): CurveData | null {
  let x: readonly number[];
  let curves: (readonly number[])[];
  if (sameGrid(seeds)) {
    x = seeds[0]!.x;
    curves = seeds.map((s) => column(s, metric));
  } else {
    ({ x, curves } = commonGrid(seeds, metric));
    notes.add(
      `The seeds of ${label} do not share their environment steps (episodes of different lengths): their mean is taken on a common grid of ${COMMON_GRID_POINTS} steps, each seed contributing the value of its last iteration at or before the step.`,
    );
  }
  const band = seedBand(curves);
  const keep = minMaxBuckets(band.mean, MEAN_BUCKETS);
  if (keep.length === 0) return null;
  const curve: CurveData = {
    g,
    s: null,
    x: keep.map((i) => x[i]!),
    y: keep.map((i) => round(band.mean[i]!)),
  };
  if (seeds.length < 2) return curve;
  // The band keeps its envelope over each bucket, so thinning never hides spread between seeds.
  const lo: number[] = [];
  const hi: number[] = [];
  for (let j = 0; j < keep.length; j++) {
    const start = j === 0 ? keep[0]! : keep[j - 1]! + 1;
    const end = j === keep.length - 1 ? keep[j]! : keep[j + 1]! - 1;
    let min = band.lower[keep[j]!]!;
    let max = band.upper[keep[j]!]!;
    for (let i = start; i <= end; i++) {
      if (Number.isFinite(band.lower[i]!)) {
        min = Math.min(min, band.lower[i]!);
        max = Math.max(max, band.upper[i]!);
      }
    }
    lo.push(round(min));
    hi.push(round(max));
  }
  return { ...curve, lo, hi };
}

/** Flattens a configuration to `a.b.c` keys with printable values. */
function flatten(value: unknown, prefix: string, out: Map<string, string>): void {
  if (isRecord(value) && Object.keys(value).length > 0) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix === '' ? k : `${prefix}.${k}`, out);
    return;
  }
  out.set(prefix, typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null'));
}

function configDiff(groups: readonly Group[]): ViewModel['configDiff'] {
  const flat = groups.map((g) => {
    const out = new Map<string, string>();
    flatten(g.config, '', out);
    return out;
  });
  const keys = [...new Set(flat.flatMap((f) => [...f.keys()]))].sort();
  const differing = keys.filter((k) => new Set(flat.map((f) => f.get(k) ?? '—')).size > 1);
  return {
    keys: differing,
    values: differing.map((k) => flat.map((f) => f.get(k) ?? '—')),
    identical: keys.length - differing.length,
  };
}

function figure1Defaults(groups: readonly Group[]): ViewModel['figure1'] {
  const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 1;
  for (const { config: c } of groups) {
    const [n, cc, k] = [c['capacity'], c['batchSize'], c['keep']];
    if (
      c['method'] === 'ftw' &&
      isCount(n) &&
      isCount(cc) &&
      isCount(k) &&
      k <= cc &&
      cc <= n &&
      n <= 100_000
    ) {
      return { n, c: cc, k, threshold: typeof c['threshold'] === 'number' ? c['threshold'] : null };
    }
  }
  return { n: 128, c: 5, k: 1, threshold: null };
}

/**
 * Lays runs side by side for the page: splits their metric rows into groups (one per configuration: a
 * `compare` run has one per scenario and method) and seeds, sorts groups into environments (curves are
 * overlaid only within one environment), discovers every numeric per-iteration metric, and builds one
 * chart per metric and environment with each seed's curve and each group's mean with its 95% Student-t band
 * (see {@link seedBand}), thinned by {@link minMaxBuckets} so that 100 seeds × 10^4 iterations still make
 * a light page. Also the summary tables, the configuration keys that differ and what could not be compared.
 *
 * @param runs - the runs, already read and checked (see `readRunFolder`)
 * @param options - how to name environments (see {@link ViewModelOptions})
 * @returns the page's model (plain JSON)
 * @throws nothing of its own: the runs' rows were checked by `readRunFolder` (numeric seed, iteration and
 *   samples); other fields are drawn when numeric and left out otherwise
 * @example
 * ```ts
 * const model = viewModel([await readRunFolder('runs/reproduce')]);
 * model.environments[0].charts.map((c) => c.metric); // ['optimalProbability', 'reward', 'regret', …]
 * ```
 */
export function viewModel(runs: readonly RunData[], options: ViewModelOptions = {}): ViewModel {
  const metricKeys = new Set<string>();
  const groups = collectGroups(runs, metricKeys, options);
  const notes = new Set<string>();
  const labels = groups.map((g) => {
    const parts = [g.run.name];
    const scenario = g.strings['scenario'];
    if (scenario !== undefined) parts.push(scenario);
    if (g.method !== g.run.name) parts.push(g.method);
    return parts.join(' · ');
  });
  for (const [i, label] of labels.entries()) {
    if (labels.indexOf(label) !== i) labels[i] = `${label} (${i + 1})`;
  }
  const environmentKeys = [...new Set(groups.map((g) => g.environmentKey))];
  const metrics = sortMetrics(metricKeys);
  // One array per group, so that what is known of its seeds (a shared grid) is worked out once.
  const seedLists = groups.map((g) => [...g.seeds.values()]);
  const environments: EnvironmentData[] = environmentKeys.map((key) => {
    const members = groups.map((g, i) => [g, i] as const).filter(([g]) => g.environmentKey === key);
    const charts: ChartData[] = [];
    for (const metric of metrics) {
      const withMetric = members.filter(([, g]) =>
        seedLists[g]!.some((s) => (s.values.get(metric) ?? []).some(Number.isFinite)),
      );
      if (withMetric.length === 0) continue;
      const seedCurves = withMetric.reduce((n, [g]) => n + g.seeds.size, 0);
      const buckets = Math.max(
        SEED_BUCKETS.min,
        Math.min(SEED_BUCKETS.max, Math.floor(SEED_POINTS_PER_CHART / (2 * seedCurves))),
      );
      const curves: CurveData[] = [];
      for (const [, g] of withMetric) {
        const seeds = seedLists[g]!;
        for (const s of seeds) {
          const values = column(s, metric);
          const keep = minMaxBuckets(values, buckets);
          if (keep.length > 0) {
            curves.push({ g, s: s.seed, x: keep.map((i) => s.x[i]!), y: keep.map((i) => round(values[i]!)) });
          }
        }
        const mean = meanCurve(g, seeds, metric, notes, labels[g]!);
        if (mean !== null) curves.push(mean);
      }
      charts.push({ metric, ...metricLabel(metric), curves });
    }
    return {
      label: members[0]![0].environmentLabel,
      charts,
      tables: summaryTables(
        members.map(([g, i]) => ({
          label: labels[i]!,
          run: g.run,
          strings: g.strings,
          seeds: [...g.seeds.values()].map((s) => ({ seed: s.seed, values: s.values })),
        })),
        metrics,
      ),
    };
  });
  const notices: string[] = runs.flatMap((r) => r.notices ?? []);
  if (environments.length > 1) {
    const runsOf = (key: string): string =>
      [...new Set(groups.filter((g) => g.environmentKey === key).map((g) => g.run.name))].join(', ');
    notices.push(
      `These runs use ${environments.length} different environments, whose curves cannot be compared on one axis: each environment has its own section (${environments
        .map((e, i) => `${i + 1}. ${e.label}: ${runsOf(environmentKeys[i]!)}`)
        .join('; ')}).`,
    );
  }
  const single = groups.filter((g) => g.seeds.size < 2).map((g) => labels[groups.indexOf(g)]!);
  if (single.length > 0) {
    notices.push(
      `${single.join(', ')} ${single.length === 1 ? 'has' : 'have'} a single seed: no 95% band (it needs two seeds or more).`,
    );
  }
  notices.push(...notes);
  const runNames = runs.map((r) => r.name);
  return {
    title: runs.length === 1 ? `ftw view: ${runNames[0]}` : `ftw view: ${runNames.join(', ')}`,
    notices,
    runs: runs.map((r) => ({ name: r.name, command: String(r.config['command']) })),
    groups: groups.map((g, i) => {
      const inEnvironment = groups.slice(0, i).filter((h) => h.environmentKey === g.environmentKey).length;
      return {
        label: labels[i]!,
        run: g.run.name,
        method: g.method,
        seeds: [...g.seeds.keys()],
        environment: environmentKeys.indexOf(g.environmentKey),
        color: PALETTE[inEnvironment % PALETTE.length]!,
      };
    }),
    environments,
    configDiff: configDiff(groups),
    figure1: figure1Defaults(groups),
  };
}
