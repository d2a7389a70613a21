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
 * mean point's values.
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
    params: LEGEND_PARAMS.map((name) => {
      const value = state[name];
      return { name, value: Array.isArray(value) ? [...value] : value };
    }),
    transform: [{ filter: visible }],
    layer: [
      {
        transform: [{ filter: "showMean && datum.kind === 'mean' && isValid(datum.lo)" }],
        mark: { type: 'area', opacity: 0.18, clip: true },
        encoding: { x, y: { ...y, field: 'lo' }, y2: { field: 'hi' }, color, detail: { field: 'curve' } },
      },
      {
        transform: [{ filter: "showSeeds && datum.kind === 'seed' && indexof(hiddenSeeds, datum.seed) < 0" }],
        mark: { type: 'line', strokeWidth: 1, opacity: seedOpacity, clip: true },
        encoding: {
          x,
          y,
          color,
          detail: { field: 'curve' },
          tooltip: [
            { field: 'label', title: 'run' },
            { field: 'seed', title: 'seed' },
          ],
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
        transform: [{ filter: "showMean && datum.kind === 'mean'" }],
        params: [
          {
            name: 'hover',
            select: { type: 'point', on: 'pointerover', nearest: true, clear: 'pointerout' },
          },
        ],
        mark: { type: 'point', filled: true, size: 60, clip: true },
        encoding: {
          x,
          y,
          color,
          opacity: { condition: { param: 'hover', empty: false, value: 1 }, value: 0 },
          tooltip: [
            { field: 'label', title: 'run' },
            { field: 'x', title: 'environment steps', format: ',' },
            { field: 'y', title: `${chart.axis} (mean)`, format: '.4~g' },
            { field: 'lo', title: '95% CI from', format: '.4~g' },
            { field: 'hi', title: '95% CI to', format: '.4~g' },
          ],
        },
      },
    ],
  };
}
