import { TEMPLATE_WIDTH } from './curve-chart-spec.js';

/** The curves of the Figure 1 widget, in legend order. */
export const FIGURE_ONE_SERIES = [
  'Eq. 5 (distinct returns)',
  'ties broken at random',
  'only returns above the threshold',
] as const;

/** The name of the widget's data set: rows `{ series, rank, p }`. */
export const FIGURE_ONE_DATA = 'occupancy';

/** The holes of the widget's template (see fill-template.ts): the x-axis title, which names N. */
export const FIGURE_ONE_HOLES = ['xTitle'] as const;

/**
 * The Vega-Lite specification of the Figure 1 widget's chart, with a hole `@@xTitle`: P(r) per elite slot
 * against the rank r, one line per series (Eq. 5, with ties, with a threshold), zoomable on the rank axis,
 * with a tooltip per point. Compiled to Vega when the runner is built (vega-templates.ts).
 *
 * @param points - draw a point at every rank (for small pools, N ≤ 64)
 * @param width - the plot's width in pixels (the page sets each chart's own)
 * @returns the specification, reading its rows from the data set {@link FIGURE_ONE_DATA}
 * @example
 * ```ts
 * compile(figureOneSpec(true)).spec; // a Vega spec whose x-axis title is '@@xTitle'
 * ```
 */
export function figureOneSpec(points: boolean, width = TEMPLATE_WIDTH): object {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width,
    height: 280,
    autosize: { type: 'fit-x', contains: 'padding' },
    // Canvas drawing has no accessibility tree, and a point's text description would copy the hole.
    config: { aria: false },
    data: { name: FIGURE_ONE_DATA },
    mark: { type: 'line', strokeWidth: 2, point: points },
    params: [{ name: 'zoomRank', select: { type: 'interval', encodings: ['x'] }, bind: 'scales' }],
    encoding: {
      x: {
        field: 'rank',
        type: 'quantitative',
        title: '@@xTitle',
        axis: { tickMinStep: 1, format: 'd' },
      },
      y: { field: 'p', type: 'quantitative', title: 'P(r) per elite slot' },
      color: {
        field: 'series',
        type: 'nominal',
        title: null,
        scale: { domain: [...FIGURE_ONE_SERIES], range: ['#4e79a7', '#f28e2b', '#e15759'] },
        legend: { orient: 'top-right' },
      },
      tooltip: [{ field: 'series' }, { field: 'rank' }, { field: 'p', title: 'P(r)', format: '.6~g' }],
    },
  };
}
