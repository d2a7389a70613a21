import { compile } from 'vega-lite';
import { CURVE_HOLES, curveChartSpec, TEMPLATE_WIDTH } from './curve-chart-spec.js';
import { FIGURE_ONE_HOLES, figureOneSpec } from './figure-one-spec.js';
import { templateHoles } from './fill-template.js';

/** A Vega specification (JSON) with holes, as Vega-Lite compiled it. */
export type VegaTemplate = Readonly<Record<string, unknown>> & { readonly width: number };

/** The compiled chart templates of the `ftw view` page. */
export interface VegaTemplates {
  /** A learning-curve chart of a probability (y axis [0, 1]). */
  readonly curveUnit: VegaTemplate;
  /** A learning-curve chart whose y axis fits the data. */
  readonly curveFree: VegaTemplate;
  /** The Figure 1 widget with a point at every rank. */
  readonly figureOnePoints: VegaTemplate;
  /** The Figure 1 widget, lines only. */
  readonly figureOneLines: VegaTemplate;
}

/** Compiles one template and checks its holes are exactly those expected and its width is the template's. */
function template(name: string, spec: object, holes: readonly string[]): VegaTemplate {
  const compiled = compile(spec as Parameters<typeof compile>[0]).spec as unknown as VegaTemplate;
  const found = templateHoles(compiled);
  const missing = holes.filter((h) => !found.includes(h));
  const extra = found.filter((h) => !holes.includes(h));
  // A hole Vega-Lite copied into an expression or text ('… @@yTitle: …') would be left unfilled.
  const text = JSON.stringify(compiled);
  const embedded = [...text.matchAll(/@@[A-Za-z0-9]+/g)].length;
  const whole = [...text.matchAll(/"@@[A-Za-z0-9]+"/g)].length;
  if (missing.length > 0 || extra.length > 0 || embedded !== whole) {
    throw new Error(
      `chart template ${name}: holes ${JSON.stringify(found)}, expected ${JSON.stringify(holes)}` +
        (embedded !== whole ? `; ${embedded - whole} hole(s) inside a longer string` : ''),
    );
  }
  if (compiled.width !== TEMPLATE_WIDTH) {
    throw new Error(
      `chart template ${name}: compiled width ${String(compiled.width)}, expected ${TEMPLATE_WIDTH}`,
    );
  }
  return compiled;
}

/**
 * Compiles the `ftw view` page's Vega-Lite specifications to Vega once, when the runner is built (the page
 * script's build inlines the result; see view-client.tsup.ts), so that neither the page nor a run that
 * writes report.html loads Vega-Lite or compiles a chart: the page fills each template's holes (see
 * fill-template.ts) and hands it to Vega.
 *
 * @returns the templates
 * @throws Error when a template's holes are not the expected ones (a hole Vega-Lite would have copied
 *   into a longer string, say)
 * @example
 * ```ts
 * const t = vegaTemplates();
 * t.curveUnit.scales; // [{ name: 'x', … }, { name: 'y', domain: [0, 1], … }, { name: 'color', domain: ['@@colorDomain'], … }]
 * ```
 */
export function vegaTemplates(): VegaTemplates {
  return {
    curveUnit: template('curveUnit', curveChartSpec(true), CURVE_HOLES),
    curveFree: template('curveFree', curveChartSpec(false), CURVE_HOLES),
    figureOnePoints: template('figureOnePoints', figureOneSpec(true), FIGURE_ONE_HOLES),
    figureOneLines: template('figureOneLines', figureOneSpec(false), FIGURE_ONE_HOLES),
  };
}
