import type { GroupData } from '../view-model.js';
import type { MeanRow } from './curve-rows.js';

/** What the tooltip formatter passes to write a value safely into HTML. */
type Sanitize = (value: unknown) => string;

/**
 * Environment steps: up to 12 significant digits, thousands separated by commas (12,000). Written by hand:
 * the first `Intl.NumberFormat` of a page costs some 70 ms in Chromium (its locale data), as much as
 * drawing a chart.
 */
function steps(value: number): string {
  const [whole, fraction] = String(Number(value.toPrecision(12))).split('.');
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

/** Four significant digits, trailing zeros trimmed (Vega's `.4~g`). */
function fourDigits(value: number): string {
  return String(Number(value.toPrecision(4)));
}

/**
 * The tooltip of a learning-curve chart, written only when a row is hovered (vega-tooltip's
 * `formatTooltip`): the nearest mean point's run (its group's label), environment steps, mean and 95%
 * interval.
 *
 * @param axis - the chart's y-axis title
 * @param groups - the page's curve groups (a row's `g` indexes them)
 * @returns a formatter for vega-tooltip's `formatTooltip` option
 * @example
 * ```ts
 * curveTooltip('P(optimal action)', groups)({ g: 0, x: 1200, y: 0.8123, lo: 0.8, hi: 0.82 }, String);
 * // '<table><tr><td class="key">run</td><td class="value">a · ftw</td></tr>…1,200…0.8123…0.8…0.82…</table>'
 * ```
 */
export function curveTooltip(
  axis: string,
  groups: readonly GroupData[],
): (value: unknown, sanitize: Sanitize) => string {
  return (value, sanitize) => {
    // Over the nearest-point hover, Vega-Lite's Voronoi cell gives the hovered point's scene item, whose
    // `datum` is the row.
    let row = value as (Partial<MeanRow> & { datum?: unknown }) | null;
    for (let depth = 0; depth < 3 && row?.g === undefined && typeof row?.datum === 'object'; depth++) {
      row = row.datum as typeof row;
    }
    const group = typeof row?.g === 'number' ? groups[row.g] : undefined;
    // A mean row has an interval (null without one); anything else is shown as vega-tooltip would.
    if (row === null || typeof row !== 'object' || group === undefined || !('hi' in row))
      return sanitize(value);
    const entries: [string, string][] = [
      ['run', group.label],
      ['environment steps', steps(row.x!)],
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
