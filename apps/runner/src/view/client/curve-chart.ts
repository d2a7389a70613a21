import templates from 'ftw:vega-templates';
import { LEGEND_PARAMS } from '../curve-chart-spec.js';
import { fillTemplate } from '../fill-template.js';
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
 * The Vega specification of one learning-curve chart: the template compiled from `curveChartSpec` when the
 * runner was built, for the chart's y scale, with its holes filled: the y-axis title, the page's colour
 * scale, the per-seed lines' opacity (the more seeds a group has, the fainter each one) and the legend's
 * state now (charts drawn later start from it). Its rows go to the data set `CURVE_DATA`.
 *
 * @param chart - the chart's model
 * @param groups - every group of the page (labels and colours)
 * @param width - the chart's width in pixels, axes included
 * @param state - the legend's state
 * @returns the specification
 */
export function curveChartVega(
  chart: ChartData,
  groups: readonly GroupData[],
  width: number,
  state: LegendState,
): object {
  const seeds = Math.max(1, ...chart.curves.map((c) => groups[c.g]!.seeds.length));
  const filled = fillTemplate(chart.unitInterval ? templates.curveUnit : templates.curveFree, {
    yTitle: chart.axis,
    colorDomain: groups.map((g) => g.label),
    colorRange: groups.map((g) => g.color),
    seedOpacity: Math.max(0.08, Math.min(0.45, 4 / seeds)),
    ...Object.fromEntries(LEGEND_PARAMS.map((name) => [name, state[name]])),
  });
  return { ...filled, width };
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
 * @returns a formatter for vega-tooltip's `formatTooltip` option
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
