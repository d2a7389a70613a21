import { type AxisScale, axisScale } from './axis-scale.js';
import type { ChartAxis, ChartSeries, ChartSpec } from './chart-spec.js';
import { escapeMarkup } from './escape-markup.js';

/** Vega's `tableau10` scheme, the colours the charts had when Vega drew them; it repeats past 10 series. */
const PALETTE = [
  '#4c78a8',
  '#f58518',
  '#e45756',
  '#72b7b2',
  '#54a24b',
  '#eeca3b',
  '#b279a2',
  '#ff9da6',
  '#9d755d',
  '#bab0ac',
];

/**
 * Advance widths of Helvetica/Arial for the printable ASCII characters (32 to 126), in thousandths of the
 * font size (the Adobe font metrics), to size the margins and the legend; other characters count 0.6 em.
 */
const WIDTHS = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556,
  556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278,
  500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469,
  556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500,
  278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];
/** Bold Helvetica is some 8% wider on average. */
const BOLD = 1.08;

const PAD = 5;
const TITLE_SIZE = 13;
const SUBTITLE_SIZE = 12;
const SUBTITLE_LINE = 15;
const TITLE_GAP = 12;
const LABEL_SIZE = 10;
const AXIS_TITLE_SIZE = 11;
const TICK = 5;
const LABEL_GAP = 2;
const Y_TITLE_GAP = 7;
const LEGEND_GAP = 21;
const LEGEND_ROW = 13;
const DOT_RADIUS = 2.1;

/** Estimated width of a line of sans-serif text, px. */
function textWidth(text: string, size: number, bold = false): number {
  let units = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    units += code >= 32 && code <= 126 ? WIDTHS[code - 32]! : 600;
  }
  return (units / 1000) * size * (bold ? BOLD : 1);
}

/** Least gap between two axis labels, px. */
const LABEL_SEPARATION = 3;

/**
 * Vega's "parity" strategy against overlapping axis labels: while two neighbours overlap (their extents,
 * in order along the axis, closer than {@link LABEL_SEPARATION}), keep every other label.
 */
function withoutOverlap<T extends { readonly from: number; readonly to: number }>(labels: readonly T[]): T[] {
  let kept = [...labels];
  const overlapping = (list: readonly T[]): boolean =>
    list.some((l, i) => i > 0 && l.from < list[i - 1]!.to + LABEL_SEPARATION);
  while (kept.length >= 3 && overlapping(kept)) kept = kept.filter((_, i) => i % 2 === 0);
  return kept;
}

/** A pixel coordinate with at most 2 decimals: the same text on every platform (toFixed is exact). */
function px(value: number): string {
  return String(Math.round(value * 100) / 100);
}

function text(x: number, y: number, content: string, attributes: string): string {
  return `<text x="${px(x)}" y="${px(y)}"${attributes}>${escapeMarkup(content)}</text>`;
}

/** Checks one series and appends its x and y values to `xs` and `ys` (for the axes' extents). */
function checkSeries(
  series: ChartSeries,
  index: number,
  x: ChartAxis,
  y: ChartAxis,
  xs: number[],
  ys: number[],
): void {
  const where = `series[${index}] (${JSON.stringify(series.name)})`;
  const n = series.x.length;
  if (n === 0) throw new RangeError(`${where} must have at least one point, got 0`);
  if (series.line === undefined && series.band === undefined && series.dots === undefined) {
    throw new RangeError(`${where} must have a line, a band or dots, got none`);
  }
  const check = (
    values: readonly (number | null)[],
    name: string,
    axis: ChartAxis,
    out: number[],
    nullable = false,
  ): void => {
    if (values.length !== n)
      throw new RangeError(`${where}.${name} must have ${n} values, got ${values.length}`);
    for (let i = 0; i < n; i++) {
      const v = values[i];
      if (v === null && nullable) continue;
      if (typeof v !== 'number' || !Number.isFinite(v)) {
        throw new RangeError(`${where}.${name}[${i}] must be a finite number, got ${v}`);
      }
      if (axis.type === 'log' && !(v > 0)) {
        throw new RangeError(`${where}.${name}[${i}] must be > 0 on the log axis "${axis.title}", got ${v}`);
      }
      out.push(v);
    }
  };
  check(series.x, 'x', x, xs);
  if (series.line !== undefined) check(series.line, 'line', y, ys);
  if (series.band !== undefined) {
    check(series.band.lower, 'band.lower', y, ys);
    check(series.band.upper, 'band.upper', y, ys);
  }
  if (series.dots !== undefined) check(series.dots, 'dots', y, ys, true);
}

function extent(values: readonly number[], axis: ChartAxis): [number, number] {
  if (axis.domain !== undefined) return [axis.domain[0], axis.domain[1]];
  if (values.length === 0) return axis.type === 'log' ? [1, 10] : [0, 1];
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return [min, max];
}

function scaleOf(axis: ChartAxis, values: readonly number[], range: [number, number]): AxisScale {
  return axisScale(extent(values, axis), {
    type: axis.type ?? 'linear',
    range,
    count: Math.ceil(Math.abs(range[1] - range[0]) / 40),
    nice: axis.domain === undefined && (axis.nice ?? true),
    zero: axis.zero ?? false,
  });
}

function polyline(xs: readonly number[], ys: readonly number[], x: AxisScale, y: AxisScale): string {
  let d = '';
  for (let i = 0; i < xs.length; i++) d += `${i === 0 ? 'M' : 'L'}${px(x.map(xs[i]!))},${px(y.map(ys[i]!))}`;
  return d;
}

/**
 * Draws a chart as a standalone SVG document, in the layout Vega-Lite gives a layered line chart: title and
 * subtitle at the top left, the plot with grid lines and axes (nice ticks, see {@link axisScale}), bands
 * under lines under dots, and the legend on the right. No browser, no Vega: plain string building, so a
 * chart of a few thousand points costs well under a millisecond to a few milliseconds.
 *
 * The output is deterministic (coordinates rounded to 0.01 px) and self-contained; marks are clipped to the
 * plot so that a band reaching past a fixed domain (a 95% interval above probability 1) stays inside.
 *
 * @param spec - titles, plot size, axes, series
 * @returns the SVG document, ending with a newline
 * @throws RangeError when a series has no points, arrays of different lengths, a non-finite value, a
 * value ≤ 0 on a log axis, or the plot size is not positive
 * @example
 * ```ts
 * renderSvg({ title: 'T', subtitle: [], width: 560, height: 300, x: { title: 'x', zero: true },
 *   y: { title: 'y' }, legend: 'series', symbol: 'stroke',
 *   series: [{ name: 'a', x: [1, 2], line: [0.5, 0.7] }] });
 * // '<svg xmlns="http://www.w3.org/2000/svg" width="…" height="…" …>…</svg>\n'
 * ```
 */
export function renderSvg(spec: ChartSpec): string {
  const { width, height } = spec;
  if (!(Number.isFinite(width) && width > 0 && Number.isFinite(height) && height > 0)) {
    throw new RangeError(`width and height must be positive, got ${width} × ${height}`);
  }
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [i, series] of spec.series.entries()) checkSeries(series, i, spec.x, spec.y, xs, ys);
  const x = scaleOf(spec.x, xs, [0, width]);
  const y = scaleOf(spec.y, ys, [height, 0]);

  const labelWidth = Math.max(
    0,
    ...y.ticks.map((t) => (t.label === null ? 0 : textWidth(t.label, LABEL_SIZE))),
  );
  const left = PAD + AXIS_TITLE_SIZE + Y_TITLE_GAP + labelWidth + TICK + LABEL_GAP;
  const top = PAD + TITLE_SIZE + spec.subtitle.length * SUBTITLE_LINE + TITLE_GAP;
  const legendWidth = Math.max(
    textWidth(spec.legend, AXIS_TITLE_SIZE, true),
    ...spec.series.map((s) => 16 + textWidth(s.name, LABEL_SIZE)),
  );
  const legendHeight = 16 + spec.series.length * LEGEND_ROW;
  const titleWidth = Math.max(
    textWidth(spec.title, TITLE_SIZE, true),
    ...spec.subtitle.map((s) => textWidth(s, SUBTITLE_SIZE)),
  );
  const totalWidth = Math.ceil(Math.max(left + width + LEGEND_GAP + legendWidth, PAD + titleWidth) + PAD);
  const totalHeight = Math.ceil(top + Math.max(height + 34, legendHeight) + PAD);
  const clip = `ftw-plot-${width}x${height}`;
  const colour = (i: number): string => PALETTE[i % PALETTE.length]!;

  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${totalWidth}" height="${totalHeight}" viewBox="0 0 ${totalWidth} ${totalHeight}" font-family="sans-serif" role="img" aria-label="${escapeMarkup(spec.title)}">`,
    `<title>${escapeMarkup(spec.title)}</title>`,
    `<rect width="${totalWidth}" height="${totalHeight}" fill="white"/>`,
    text(PAD, PAD + 10, spec.title, ` font-size="${TITLE_SIZE}" font-weight="bold"`),
  );
  for (const [i, line] of spec.subtitle.entries()) {
    out.push(text(PAD, PAD + 10 + (i + 1) * SUBTITLE_LINE, line, ` font-size="${SUBTITLE_SIZE}"`));
  }
  out.push(
    `<defs><clipPath id="${clip}"><rect width="${width}" height="${height}"/></clipPath></defs>`,
    `<g transform="translate(${px(left)},${px(top)})">`,
  );

  // Grid, frame and axes.
  const grid: string[] = [];
  for (const t of x.ticks) grid.push(`M${px(x.map(t.value))},0v${height}`);
  for (const t of y.ticks) grid.push(`M0,${px(y.map(t.value))}h${width}`);
  out.push(
    `<path d="${grid.join('')}" stroke="#ddd" fill="none" shape-rendering="crispEdges"/>`,
    `<rect width="${width}" height="${height}" stroke="#ddd" fill="none" shape-rendering="crispEdges"/>`,
  );
  const ticks: string[] = [];
  const labels: string[] = [];
  const xLabelled = x.ticks.filter((t) => t.label !== null);
  const xLabels = xLabelled.map((t, i) => {
    const at = x.map(t.value);
    ticks.push(`M${px(at)},${height}v${TICK}`);
    // The end labels are flush with the plot's edges, as Vega-Lite's labelFlush does.
    const anchor = at <= 0.5 && i === 0 ? 'start' : at >= width - 0.5 ? 'end' : 'middle';
    const w = textWidth(t.label!, LABEL_SIZE);
    const from = anchor === 'start' ? at : anchor === 'end' ? at - w : at - w / 2;
    return { at, anchor, label: t.label!, from, to: from + w };
  });
  for (const l of withoutOverlap(xLabels)) {
    labels.push(text(l.at, height + TICK + LABEL_GAP + 8, l.label, ` text-anchor="${l.anchor}"`));
  }
  const yLabels = y.ticks
    .filter((t) => t.label !== null)
    .map((t) => {
      const at = y.map(t.value);
      ticks.push(`M0,${px(at)}h${-TICK}`);
      return { at, label: t.label!, from: at - LABEL_SIZE / 2, to: at + LABEL_SIZE / 2 };
    })
    .sort((a, b) => a.from - b.from);
  for (const l of withoutOverlap(yLabels)) {
    labels.push(text(-(TICK + LABEL_GAP), l.at + 3, l.label, ' text-anchor="end"'));
  }
  out.push(
    `<path d="M0,${height}h${width}M0,0v${height}${ticks.join('')}" stroke="#888" fill="none" shape-rendering="crispEdges"/>`,
    `<g font-size="${LABEL_SIZE}" fill="#000">${labels.join('')}</g>`,
    text(
      width / 2,
      height + 30,
      spec.x.title,
      ` font-size="${AXIS_TITLE_SIZE}" font-weight="bold" text-anchor="middle"`,
    ),
    `<text transform="translate(${px(-(TICK + LABEL_GAP + labelWidth + Y_TITLE_GAP))},${px(height / 2)}) rotate(-90)" font-size="${AXIS_TITLE_SIZE}" font-weight="bold" text-anchor="middle">${escapeMarkup(spec.y.title)}</text>`,
  );

  // Marks: every band, then every line, then every dot, so that no band hides another series' line.
  const marks: string[] = [];
  const bandOpacity = spec.bandOpacity ?? 0.15;
  for (const [i, s] of spec.series.entries()) {
    if (s.band === undefined) continue;
    const upper = polyline(s.x, s.band.upper, x, y);
    const back: string[] = [];
    for (let j = s.x.length - 1; j >= 0; j--)
      back.push(`L${px(x.map(s.x[j]!))},${px(y.map(s.band.lower[j]!))}`);
    marks.push(`<path d="${upper}${back.join('')}Z" fill="${colour(i)}" fill-opacity="${bandOpacity}"/>`);
  }
  for (const [i, s] of spec.series.entries()) {
    if (s.line === undefined) continue;
    marks.push(
      `<path d="${polyline(s.x, s.line, x, y)}" stroke="${colour(i)}" stroke-width="1.5" fill="none"/>`,
    );
  }
  for (const [i, s] of spec.series.entries()) {
    if (s.dots === undefined) continue;
    const dots: string[] = [];
    for (let j = 0; j < s.x.length; j++) {
      const v = s.dots[j];
      if (v === null || v === undefined) continue;
      dots.push(`<circle cx="${px(x.map(s.x[j]!))}" cy="${px(y.map(v))}" r="${DOT_RADIUS}"/>`);
    }
    marks.push(`<g fill="${colour(i)}" fill-opacity="0.8">${dots.join('')}</g>`);
  }
  out.push(`<g clip-path="url(#${clip})">${marks.join('')}</g>`);
  if (spec.series.length === 0) {
    out.push(
      text(width / 2, height / 2, 'no values to draw', ' font-size="12" fill="#888" text-anchor="middle"'),
    );
  }

  // Legend.
  out.push(`<g transform="translate(${width + LEGEND_GAP},0)">`);
  out.push(text(0, 9, spec.legend, ` font-size="${AXIS_TITLE_SIZE}" font-weight="bold"`));
  for (const [i, s] of spec.series.entries()) {
    const row = 16 + i * LEGEND_ROW;
    out.push(
      spec.symbol === 'stroke'
        ? `<path d="M1,${row + 6}h10" stroke="${colour(i)}" stroke-width="2"/>`
        : `<circle cx="6" cy="${row + 6}" r="4.5" fill="${colour(i)}"/>`,
      text(16, row + 9, s.name, ` font-size="${LABEL_SIZE}"`),
    );
  }
  out.push('</g>', '</g>', '</svg>');
  return `${out.join('\n')}\n`;
}
