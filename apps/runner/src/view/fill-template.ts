/** A hole in a template's JSON text: `"@@name"`, or `["@@name"]` (an array the hole may fill whole). */
const HOLE = /\[\s*"@@([A-Za-z][A-Za-z0-9]*)"\s*\]|"@@([A-Za-z][A-Za-z0-9]*)"/g;

/** The names of the holes of a template (JSON text), each once, in order of first appearance. */
export function templateHoles(template: string): string[] {
  return [...new Set([...template.matchAll(HOLE)].map((m) => (m[1] ?? m[2])!))];
}

/**
 * Fills the holes of a chart template, given as JSON text: every string value `"@@name"` becomes
 * `values[name]` (any JSON value), and every array `["@@name"]` whose value is an array becomes that array
 * (a colour scale's domain, say); then the text is parsed. Working on the text, not on the parsed value,
 * makes a chart's copy of its template one `JSON.parse`: in a page that has just loaded, walking the
 * 50 kB description of a chart value by value took longer than drawing the chart's axes.
 *
 * The templates are Vega runtime descriptions compiled from Vega-Lite when the runner is built (see
 * vega-templates.ts), with holes where a page's charts differ: a title, colours, the legend's state.
 *
 * @param template - JSON text whose holes are whole string values
 * @param values - a JSON value for every hole
 * @returns the filled value
 * @throws Error naming a hole that has no value, a value that fills no hole, or a value that is not JSON
 * @example
 * ```ts
 * fillTemplate('{"title":"@@title","domain":["@@labels"]}', { title: 'reward', labels: ['a', 'b'] });
 * // { title: 'reward', domain: ['a', 'b'] }
 * ```
 */
export function fillTemplate(template: string, values: Readonly<Record<string, unknown>>): unknown {
  const used = new Set<string>();
  const text = template.replace(HOLE, (_, arrayHole: string | undefined, hole: string | undefined) => {
    const name = (arrayHole ?? hole)!;
    if (!Object.hasOwn(values, name)) {
      throw new Error(
        `chart template hole @@${name} has no value (given: ${Object.keys(values).join(', ')})`,
      );
    }
    used.add(name);
    const value = values[name];
    const json = JSON.stringify(value);
    if (json === undefined)
      throw new Error(`chart template hole @@${name}: ${String(value)} is not a JSON value`);
    return arrayHole === undefined || Array.isArray(value) ? json : `[${json}]`;
  });
  const unused = Object.keys(values).filter((name) => !used.has(name));
  if (unused.length > 0)
    throw new Error(`no chart template hole for ${unused.map((n) => `@@${n}`).join(', ')}`);
  return JSON.parse(text);
}
