/**
 * What the legend hides, as Vega parameters (signals) of every chart, which the page sets from the legend:
 * the curve groups hidden (by their own box, their run's or their method's), the seeds hidden, and whether
 * the per-seed curves and the means are shown.
 */
export const LEGEND_PARAMS = ['hiddenGroups', 'hiddenSeeds', 'showSeeds', 'showMean'] as const;

/**
 * The parameter that arms a chart's hover: the invisible mean points that the nearest-point tooltip picks
 * from (and their Voronoi cells) are built only once it is true, which the page sets when the pointer first
 * enters the chart.
 */
export const HOVER_ARMED = 'hoverArmed';

/**
 * The names of a chart's two data sets, whose rows the page inserts (see `curveRows` in
 * client/curve-rows.ts): the seeds' curves, rows `{ g, seed, x, y }` (g the curve group), and the groups'
 * mean curves, rows `{ g, x, y, lo, hi }`. Two sets, not one with a field telling them apart: each layer
 * then reads only its own rows, instead of every layer's filter passing over all of them and Vega keeping
 * the id of every row it filtered out (a quarter of a chart's drawing time with 100 seeds).
 */
export const SEED_DATA = 'seeds';
export const MEAN_DATA = 'means';

/**
 * The width the templates are compiled with; the page sets each chart's own (a fixed width draws once;
 * `container` would draw twice).
 */
export const TEMPLATE_WIDTH = 600;

/**
 * The holes of a learning-curve chart's template (see fill-template.ts), filled in the page: the y-axis
 * title, the colour scale of the whole page (group indices and their colours), the per-seed lines' opacity
 * and the legend's state when the chart is drawn.
 */
export const CURVE_HOLES = ['yTitle', 'colorDomain', 'colorRange', 'seedOpacity', ...LEGEND_PARAMS] as const;

/**
 * The Vega-Lite specification of one learning-curve chart, with holes (`@@name` strings, see
 * {@link CURVE_HOLES}) where a page's charts differ: the 95% band, thin per-seed lines and the thick mean
 * line of each group, coloured by group with one colour scale for the whole page; the legend's parameters
 * filter what is drawn; scroll and drag zoom and pan the x axis; hovering anywhere on the plot shows the
 * nearest mean point's values (the hovered row, written by `curveTooltip`).
 *
 * It is compiled to Vega when the runner is built (vega-templates.ts), never in the page nor in a run:
 * only its y scale changes the compiled structure, hence one template per `unitInterval`.
 *
 * @param unitInterval - true for a probability: the y axis spans [0, 1]; else it fits the data
 * @param width - the plot's width in pixels (the page sets each chart's own on the compiled template)
 * @returns the specification, reading its rows from the data sets {@link SEED_DATA} and {@link MEAN_DATA}
 * @example
 * ```ts
 * compile(curveChartSpec(true)).spec; // a Vega spec with '@@yTitle', ['@@colorDomain'], …
 * ```
 */
export function curveChartSpec(unitInterval: boolean, width = TEMPLATE_WIDTH): object {
  const color = {
    field: 'g',
    type: 'nominal',
    scale: { domain: ['@@colorDomain'], range: ['@@colorRange'] },
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
    title: '@@yTitle',
    scale: unitInterval ? { domain: [0, 1] } : { zero: false },
  };
  const seeds = { name: SEED_DATA };
  const means = { name: MEAN_DATA };
  const shown = 'indexof(hiddenGroups, datum.g) < 0';
  const mean = `showMean && ${shown}`;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width,
    height: 250,
    autosize: { type: 'fit-x', contains: 'padding' },
    // Canvas drawing has no accessibility tree: without this Vega-Lite writes a text description of every
    // point of every curve (formatting its numbers) each time a chart is drawn.
    config: { aria: false },
    params: [
      ...LEGEND_PARAMS.map((name) => ({ name, value: `@@${name}` })),
      // False until the pointer first enters the chart (see HOVER_ARMED): the nearest-point hover needs a
      // Voronoi diagram of the mean points, a quarter of a chart's drawing time, for no visible mark.
      { name: HOVER_ARMED, value: false },
    ],
    layer: [
      {
        data: means,
        transform: [{ filter: `${mean} && isValid(datum.lo)` }],
        mark: { type: 'area', opacity: 0.18, clip: true },
        encoding: { x, y: { ...y, field: 'lo' }, y2: { field: 'hi' }, color },
      },
      {
        data: seeds,
        transform: [{ filter: `showSeeds && ${shown} && indexof(hiddenSeeds, datum.seed) < 0` }],
        // One line per group through all its seeds' curves in row order (order: null, no sorting by x),
        // each curve ended by a row without x and y, where the line breaks: one path instead of one Vega
        // group per seed, which cost about two thirds of a chart's drawing with 100 seeds. Drawn in one
        // stroke, overlapping seeds do not darken each other: the cloud shows where seeds went, at an
        // opacity that falls with their number (@@seedOpacity). No tooltip: the nearest mean point's
        // hover (below) covers the whole plot.
        mark: { type: 'line', strokeWidth: 1, opacity: '@@seedOpacity', clip: true },
        encoding: { x, y, color, order: { value: null } },
      },
      {
        // A white halo under each mean line keeps it readable over the seeds' cloud.
        data: means,
        transform: [{ filter: mean }],
        mark: { type: 'line', strokeWidth: 5, color: 'white', opacity: 0.9, clip: true },
        encoding: { x, y, detail: { field: 'g' } },
      },
      {
        data: means,
        transform: [{ filter: mean }],
        params: [{ name: 'zoom', select: { type: 'interval', encodings: ['x'] }, bind: 'scales' }],
        mark: { type: 'line', strokeWidth: 2.4, clip: true },
        encoding: { x, y, color },
      },
      {
        data: means,
        transform: [{ filter: `${HOVER_ARMED} && ${mean}` }],
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
