import type { TopLevelSpec } from 'vega-lite';

/**
 * Renders a Vega-Lite specification to an SVG string, headless: no canvas, no browser.
 *
 * Method: compile the Vega-Lite spec to Vega, then `new vega.View(vega.parse(spec), { renderer: 'none' })
 * .toSVG()`; text widths are estimated by Vega's built-in metric (no canvas package, no native binary).
 * Vega and Vega-Lite are imported on first use, so commands that draw nothing do not load them.
 *
 * @param spec - a Vega-Lite specification with inline data
 * @returns the SVG document, ending with a newline
 * @throws Error from Vega-Lite when the specification is invalid
 * @example
 * ```ts
 * await renderSvg({ data: { values: [{ x: 1, y: 2 }] }, mark: 'point',
 *   encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'y', type: 'quantitative' } } });
 * // '<svg xmlns="http://www.w3.org/2000/svg" ...>...</svg>\n'
 * ```
 */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const [vega, vegaLite] = await Promise.all([import('vega'), import('vega-lite')]);
  const view = new vega.View(vega.parse(vegaLite.compile(spec).spec), { renderer: 'none' });
  try {
    const svg = await view.toSVG();
    return svg.endsWith('\n') ? svg : `${svg}\n`;
  } finally {
    view.finalize();
  }
}
