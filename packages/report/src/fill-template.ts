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
 * 50 kB description of a chart value by value took longer than drawing the chart's axes. The text is cut
 * at its holes once per template (and kept for the next chart).
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
  let text = '';
  for (const piece of pieces(template)) {
    if (typeof piece === 'string') {
      text += piece;
      continue;
    }
    const { name, array } = piece;
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
    text += !array || Array.isArray(value) ? json : `[${json}]`;
  }
  const unused = Object.keys(values).filter((name) => !used.has(name));
  if (unused.length > 0)
    throw new Error(`no chart template hole for ${unused.map((n) => `@@${n}`).join(', ')}`);
  return JSON.parse(text);
}

/** A template cut at its holes: the text between them, and each hole. */
type Pieces = readonly (string | { readonly name: string; readonly array: boolean })[];

const cut = new Map<string, Pieces>();

/**
 * A template's text cut at its holes, once per template: a page draws many charts from one template, and
 * a regular expression run over 50 kB of text is slow in a page that has just loaded (V8 interprets it
 * until it is hot).
 */
function pieces(template: string): Pieces {
  let found = cut.get(template);
  if (found === undefined) {
    const out: (string | { name: string; array: boolean })[] = [];
    let at = 0;
    for (const m of template.matchAll(HOLE)) {
      out.push(template.slice(at, m.index), { name: (m[1] ?? m[2])!, array: m[1] !== undefined });
      at = m.index + m[0].length;
    }
    out.push(template.slice(at));
    found = out;
    cut.set(template, found);
  }
  return found;
}
