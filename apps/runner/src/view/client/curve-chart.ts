import type { ChartData, GroupData } from '../view-model.js';
import type { LegendState } from './legend.js';

/** One row of a chart's data: a point of a seed's curve or of a mean curve. */
export interface CurveRow {
  readonly g: number;
  readonly label: string;
  readonly run: string;
  readonly method: string;
  /** The seed, or -1 on a mean curve. */
  readonly seed: number;
  readonly kind: 'seed' | 'mean';
  /** Curve identity, for drawing one line per curve. */
  readonly curve: string;
  readonly x: number;
  readonly y: number;
  readonly lo: number | null;
  readonly hi: number | null;
}

/** The legend's state: what is hidden. Vega-Lite parameters of every chart, set by the legend. */
export const LEGEND_PARAMS: readonly (keyof LegendState)[] = [
  'hiddenRuns',
  'hiddenMethods',
  'hiddenGroups',
  'hiddenSeeds',
  'showSeeds',
  'showMean',
];

/**
 * The Vega-Lite parameter that arms a chart's hover: the invisible mean points that the nearest-point
 * tooltip picks from (and their Voronoi cells) are built only once it is true, which the page sets when the
 * pointer first enters the chart.
 */
export const HOVER_ARMED = 'hoverArmed';

/** Expands the compact curves of the page model into rows. */
export function curveRows(chart: ChartData, groups: readonly GroupData[]): CurveRow[] {
  const rows: CurveRow[] = [];
  for (const c of chart.curves) {
    const group = groups[c.g]!;
    const kind = c.s === null ? 'mean' : 'seed';
    const curve = `${c.g}:${c.s ?? 'mean'}`;
    for (let i = 0; i < c.x.length; i++) {
      rows.push({
        g: c.g,
        label: group.label,
        run: group.run,
        method: group.method,
        seed: c.s ?? -1,
        kind,
        curve,
        x: c.x[i]!,
        y: c.y[i]!,
        lo: c.lo?.[i] ?? null,
        hi: c.hi?.[i] ?? null,
      });
    }
  }
  return rows;
}

/**
 * The Vega-Lite specification of one learning-curve chart: the 95% band, thin per-seed lines and the thick
 * mean line of each group, coloured by group with one colour scale for the whole page; the legend's
 * parameters filter what is drawn; scroll and drag zoom and pan the x axis; hovering shows the nearest
 * mean point's values, or a seed curve's run and seed (the hovered row, written by {@link curveTooltip}).
 *
 * @param chart - the chart's model
 * @param groups - every group of the page (labels and colours)
 * @param rows - the chart's rows (see {@link curveRows})
 * @param width - the plot's width in pixels (a fixed width draws once; `container` would draw twice)
 * @param state - the legend's state now (charts drawn later start from it)
 * @returns the specification
 */
export function curveChartSpec(
  chart: ChartData,
  groups: readonly GroupData[],
  rows: readonly CurveRow[],
  width: number,
  state: LegendState,
): object {
  const color = {
    field: 'label',
    type: 'nominal',
    scale: { domain: groups.map((g) => g.label), range: groups.map((g) => g.color) },
    legend: null,
  };
  const x = {
    field: 'x',
    type: 'quantitative',
    title: 'environment steps',
    axis: { format: ',.0f' },
  };
  const y = {
    field: 'y',
    type: 'quantitative',
    title: chart.axis,
    scale: chart.unitInterval ? { domain: [0, 1] } : { zero: false },
  };
  // Many seeds overlap into a solid cloud: the more seeds a curve group has, the fainter each one.
  const seeds = Math.max(1, ...chart.curves.map((c) => groups[c.g]!.seeds.length));
  const seedOpacity = Math.max(0.08, Math.min(0.45, 4 / seeds));
  const visible =
    'indexof(hiddenRuns, datum.run) < 0 && indexof(hiddenMethods, datum.method) < 0 && indexof(hiddenGroups, datum.g) < 0';
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width,
    height: 250,
    autosize: { type: 'fit-x', contains: 'padding' },
    data: { values: rows },
    params: [
      ...LEGEND_PARAMS.map((name) => {
        const value = state[name];
        return { name, value: Array.isArray(value) ? [...value] : value };
      }),
      // False until the pointer first enters the chart (see HOVER_ARMED): the nearest-point hover needs a
      // Voronoi diagram of the mean points, a quarter of a chart's drawing time, for no visible mark.
      { name: HOVER_ARMED, value: false },
    ],
    transform: [{ filter: visible }],
    layer: [
      {
        transform: [{ filter: "showMean && datum.kind === 'mean' && isValid(datum.lo)" }],
        mark: { type: 'area', opacity: 0.18, clip: true },
        encoding: { x, y: { ...y, field: 'lo' }, y2: { field: 'hi' }, color, detail: { field: 'curve' } },
      },
      {
        transform: [{ filter: "showSeeds && datum.kind === 'seed' && indexof(hiddenSeeds, datum.seed) < 0" }],
        // The tooltip is the row itself, written out on hover by curveTooltip (see vega-globals.ts): a
        // formatted tooltip encoding would format every point of every curve when the chart is drawn.
        mark: { type: 'line', strokeWidth: 1, opacity: seedOpacity, clip: true, tooltip: { expr: 'datum' } },
        encoding: {
          x,
          y,
          color,
          detail: { field: 'curve' },
        },
      },
      {
        // A white halo under each mean line keeps it readable over the seeds' cloud.
        transform: [{ filter: "showMean && datum.kind === 'mean'" }],
        mark: { type: 'line', strokeWidth: 5, color: 'white', opacity: 0.9, clip: true },
        encoding: { x, y, detail: { field: 'curve' } },
      },
      {
        transform: [{ filter: "showMean && datum.kind === 'mean'" }],
        params: [{ name: 'zoom', select: { type: 'interval', encodings: ['x'] }, bind: 'scales' }],
        mark: { type: 'line', strokeWidth: 2.4, clip: true },
        encoding: { x, y, color, detail: { field: 'curve' } },
      },
      {
        transform: [{ filter: `${HOVER_ARMED} && showMean && datum.kind === 'mean'` }],
        params: [
          {
            name: 'hover',
            select: { type: 'point', on: 'pointerover', nearest: true, clear: 'pointerout' },
          },
        ],
        mark: { type: 'point', filled: true, size: 60, clip: true, tooltip: { expr: 'datum' } },
        encoding: {
          x,
          y,
          color,
          opacity: { condition: { param: 'hover', empty: false, value: 1 }, value: 0 },
        },
      },
    ],
  };
}

/** What the tooltip formatter passes to write a value safely into HTML. */
type Sanitize = (value: unknown) => string;

/** Thousands separators, up to 12 significant digits: environment steps. */
const STEPS = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 12 });

/** Four significant digits, trailing zeros trimmed (Vega's `.4~g`). */
function fourDigits(value: number): string {
  return String(Number(value.toPrecision(4)));
}

/**
 * The tooltip of a learning-curve chart, written only when a row is hovered (vega-tooltip's
 * `formatTooltip`): a mean point shows its run, environment steps, mean and 95% interval; a seed curve its
 * run and seed.
 *
 * @param axis - the chart's y-axis title
 * @returns a formatter for vega-embed's `tooltip.formatTooltip` option
 * @example
 * ```ts
 * curveTooltip('P(optimal action)')({ kind: 'seed', label: 'a · ftw', seed: 3 }, String);
 * // '<table><tr><td class="key">run</td><td class="value">a · ftw</td></tr><tr>…seed…3…</table>'
 * ```
 */
export function curveTooltip(axis: string): (value: unknown, sanitize: Sanitize) => string {
  return (value, sanitize) => {
    // Over the nearest-point hover, Vega-Lite's Voronoi cell gives the hovered point's scene item, whose
    // `datum` is the row.
    let row = value as (Partial<CurveRow> & { datum?: unknown }) | null;
    for (let depth = 0; depth < 3 && row?.kind === undefined && typeof row?.datum === 'object'; depth++) {
      row = row.datum as typeof row;
    }
    if (row === null || typeof row !== 'object' || row.kind === undefined) return sanitize(value);
    const entries: [string, string][] =
      row.kind === 'seed'
        ? [
            ['run', String(row.label)],
            ['seed', String(row.seed)],
          ]
        : [
            ['run', String(row.label)],
            ['environment steps', STEPS.format(row.x!)],
            [`${axis} (mean)`, fourDigits(row.y!)],
            ...(row.lo === null || row.lo === undefined
              ? []
              : ([
                  ['95% CI from', fourDigits(row.lo)],
                  ['95% CI to', fourDigits(row.hi!)],
                ] as [string, string][])),
          ];
    const cells = entries
      .map(([k, v]) => `<tr><td class="key">${sanitize(k)}</td><td class="value">${sanitize(v)}</td></tr>`)
      .join('');
    return `<table>${cells}</table>`;
  };
}
