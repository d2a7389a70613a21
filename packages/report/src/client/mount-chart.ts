/// <reference lib="dom" />
import { Handler } from 'vega-tooltip';
import { View, Warn } from './vega-runtime.js';
import type { VegaView } from './vega-view.js';

/** What a chart draws: its Vega runtime description (a filled template) and the rows of its data sets. */
export interface ChartInput {
  /** Vega's runtime description of the chart (compiled and parsed when the runner was built; see vega-templates.ts). */
  readonly runtime: object;
  /** The chart's width in pixels, axes included. */
  readonly width: number;
  /** The rows of each data set, by name. */
  readonly data: Readonly<Record<string, readonly object[]>>;
  /** Writes the tooltip's HTML from the hovered value (vega-tooltip's `formatTooltip`); its default if absent. */
  readonly formatTooltip?: (value: unknown, sanitize: (value: unknown) => string) => string;
  /** The file name of the exported SVG and PNG, without extension. */
  readonly fileName: string;
}

/**
 * Draws a Vega chart into an element, as vega-embed would without Vega-Lite and without parsing: makes a
 * canvas view of the runtime description with vega-tooltip's tooltips, sets its width, inserts the rows,
 * runs it, and adds links that export the chart as SVG or PNG (made when clicked, from the view: no
 * request).
 *
 * @param element - where the chart goes (its content is replaced)
 * @param input - the runtime description, width, data and tooltip
 * @returns the drawn view
 * @throws Error from Vega when the description is invalid
 */
export async function mountChart(element: HTMLElement, input: ChartInput): Promise<VegaView> {
  const view = new View(input.runtime, { renderer: 'canvas', logLevel: Warn });
  view.width(input.width);
  view.tooltip(
    new Handler({
      theme: 'light',
      ...(input.formatTooltip === undefined ? {} : { formatTooltip: input.formatTooltip }),
    }).call,
  );
  for (const [name, rows] of Object.entries(input.data)) view.insert(name, rows);
  element.replaceChildren();
  const plot = document.createElement('div');
  element.append(plot);
  await view.initialize(plot).runAsync();
  const links = document.createElement('div');
  links.className = 'export';
  for (const type of ['svg', 'png'] as const) {
    const a = document.createElement('a');
    a.href = '#';
    a.textContent = type.toUpperCase();
    a.download = `${input.fileName}.${type}`;
    a.title = `Save this chart as ${type.toUpperCase()}`;
    // The image is made when the button is pressed, before the click follows the link.
    a.addEventListener('mousedown', async () => {
      a.href = await view.toImageURL(type, type === 'png' ? 2 : 1);
    });
    links.append(a);
  }
  element.append(links);
  return view;
}
