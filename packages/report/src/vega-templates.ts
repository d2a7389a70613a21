import { parse } from 'vega';
import { compile } from 'vega-lite';
import { CURVE_HOLES, curveChartSpec, TEMPLATE_WIDTH } from './curve-chart-spec.js';
import { FIGURE_ONE_HOLES, figureOneSpec } from './figure-one-spec.js';
import { templateHoles } from './fill-template.js';

/** A Vega specification (JSON), as Vega-Lite compiles it. */
type VegaSpec = Record<string, unknown>;

/**
 * A chart template: Vega's runtime dataflow description of a chart (what `vega.parse` returns) as JSON
 * text, with holes (see fill-template.ts). `new vega.View(fillTemplate(template, values))` draws it.
 */
export type VegaTemplate = string;

/** The chart templates of the `ftw view` page, compiled from Vega-Lite and parsed by Vega at build time. */
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

/** The marks Vega-Lite names for the curve chart's hover points and mean line (its 5th and 4th layers). */
const HOVER_MARK = 'layer_4_marks';
const MEAN_MARK = 'layer_3_pathgroup';

/** A scale's domain drawn from data sets' fields, as Vega-Lite writes it for a layered chart. */
interface FieldsDomain {
  fields: { data: string; field: string }[];
}

/**
 * Drops the nearest-point hover's data set from a learning-curve chart's x and y scale domains. Its points
 * are the mean line's points (the same filter, and `hoverArmed`), which are in those domains already, so
 * the domains are unchanged; but until the pointer first enters the chart (see HOVER_ARMED) the hover's
 * data set is empty, and Vega would compute its extent and warn `Infinite extent for field "x"` for every
 * chart drawn.
 *
 * @throws Error when the compiled chart does not have the expected hover mark or scales
 */
function withoutHoverInDomains(name: string, spec: VegaSpec): VegaSpec {
  const marks = spec.marks as { name: string; from?: { data?: string } }[];
  const hover = marks.find((m) => m.name === HOVER_MARK)?.from?.data;
  const mean = marks.find((m) => m.name === MEAN_MARK) as unknown as
    | { from: { facet: { data: string } } }
    | undefined;
  const meanData = mean?.from?.facet?.data;
  const scales = spec.scales as { name: string; domain?: FieldsDomain }[];
  for (const scale of scales.filter((s) => s.name === 'x' || s.name === 'y')) {
    // A probability's y domain is [0, 1], drawn from no data.
    if (scale.name === 'y' && Array.isArray(scale.domain)) continue;
    const fields = scale.domain?.fields;
    const hoverFields = fields?.filter((f) => f.data === hover) ?? [];
    if (
      hover === undefined ||
      meanData === undefined ||
      fields === undefined ||
      hoverFields.length !== 1 ||
      !fields.some((f) => f.data === meanData && f.field === hoverFields[0]!.field)
    ) {
      throw new Error(
        `chart template ${name}: expected the ${scale.name} domain to draw on the hover's data (${hover}) and the mean line's (${meanData}), got ${JSON.stringify(scale.domain)}`,
      );
    }
    scale.domain = { fields: fields.filter((f) => f.data !== hover) };
  }
  return spec;
}

/**
 * Turns the holes Vega would write into generated code (an axis title, a mark's constant property:
 * `title: '@@yTitle'`, `opacity: { value: '@@seedOpacity' }`) into references to signals of the same name,
 * whose values are the holes: a signal's value stays a plain value in Vega's runtime description.
 */
function holesAsSignals(spec: VegaSpec): VegaSpec {
  const made = new Set<string>();
  const hole = (value: unknown): string | undefined =>
    typeof value === 'string' && /^@@[A-Za-z][A-Za-z0-9]*$/.test(value) ? value.slice(2) : undefined;
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (node === null || typeof node !== 'object') return node;
    const entries = Object.entries(node);
    if (entries.length === 1 && entries[0]![0] === 'value' && hole(entries[0]![1]) !== undefined) {
      const name = hole(entries[0]![1])!;
      made.add(name);
      return { signal: name };
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of entries) {
      const name = k === 'title' ? hole(v) : undefined;
      if (name !== undefined) made.add(name);
      out[k] = name === undefined ? visit(v) : { signal: name };
    }
    return out;
  };
  const out = visit(spec) as VegaSpec;
  const signals = (out.signals ?? []) as { name: string }[];
  out.signals = [...signals, ...[...made].map((name) => ({ name, value: `@@${name}` }))];
  return out;
}

/**
 * Compiles one chart to its template: Vega-Lite to Vega, then Vega's parser to the runtime description,
 * as plain JSON; checks its holes are exactly those expected, each a whole string, and its width is
 * {@link TEMPLATE_WIDTH}.
 */
function template(
  name: string,
  spec: object,
  holes: readonly string[],
  edit: (name: string, spec: VegaSpec) => VegaSpec = (_, s) => s,
): VegaTemplate {
  const vega = edit(name, compile(spec as Parameters<typeof compile>[0]).spec as unknown as VegaSpec);
  if (vega.width !== TEMPLATE_WIDTH) {
    throw new Error(
      `chart template ${name}: compiled width ${String(vega.width)}, expected ${TEMPLATE_WIDTH}`,
    );
  }
  // The runtime description holds only JSON values (its operators are class instances: copied as plain
  // objects; absent parameters are undefined: dropped).
  const runtime: VegaTemplate = JSON.stringify(parse(holesAsSignals(vega) as never));
  const found = templateHoles(runtime);
  const missing = holes.filter((h) => !found.includes(h));
  const extra = found.filter((h) => !holes.includes(h));
  // A hole copied into an expression or text ('… @@yTitle: …') would be left unfilled.
  const text = runtime;
  const embedded = [...text.matchAll(/@@[A-Za-z0-9]+/g)].length;
  const whole = [...text.matchAll(/"@@[A-Za-z0-9]+"/g)].length;
  if (missing.length > 0 || extra.length > 0 || embedded !== whole) {
    throw new Error(
      `chart template ${name}: holes ${JSON.stringify(found)}, expected ${JSON.stringify(holes)}` +
        (embedded !== whole ? `; ${embedded - whole} hole(s) inside a longer string` : ''),
    );
  }
  return runtime;
}

/**
 * Compiles the `ftw view` page's Vega-Lite specifications once, when the runner is built (the page script's
 * build inlines the result; see view-client.tsup.ts): Vega-Lite compiles each to Vega and Vega's parser
 * turns that into its runtime description, so that neither the page nor a run that writes report.html
 * loads Vega-Lite or compiles or parses a chart. The page fills each template's holes (see
 * fill-template.ts), makes a `vega.View` of it and sets its width.
 *
 * Two changes to what Vega-Lite writes: the curve charts' hover points, a subset of the mean line's, leave
 * the scale domains (see `withoutHoverInDomains`); holes that Vega would write into generated code (axis
 * titles, a mark's opacity) become signals (see `holesAsSignals`).
 *
 * @returns the templates
 * @throws Error when a template's holes are not the expected ones (a hole Vega would have copied into a
 *   longer string, say) or its structure is not the one expected
 * @example
 * ```ts
 * const t = vegaTemplates();
 * new vega.View(fillTemplate(t.figureOneLines, { xTitle: 'rank r' }) as object).width(700);
 * ```
 */
export function vegaTemplates(): VegaTemplates {
  return {
    curveUnit: template('curveUnit', curveChartSpec(true), CURVE_HOLES, withoutHoverInDomains),
    curveFree: template('curveFree', curveChartSpec(false), CURVE_HOLES, withoutHoverInDomains),
    figureOnePoints: template('figureOnePoints', figureOneSpec(true), FIGURE_ONE_HOLES),
    figureOneLines: template('figureOneLines', figureOneSpec(false), FIGURE_ONE_HOLES),
  };
}
