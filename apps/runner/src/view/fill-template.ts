/** What marks a hole in a template: a string `@@name`, filled with the value of `name`. */
const HOLE = /^@@([A-Za-z][A-Za-z0-9]*)$/;

/** The names of the holes of a template, each once, in order of first appearance. */
export function templateHoles(template: unknown): string[] {
  const found = new Set<string>();
  const visit = (node: unknown): void => {
    if (typeof node === 'string') {
      const hole = HOLE.exec(node);
      if (hole !== null) found.add(hole[1]!);
    } else if (Array.isArray(node)) {
      for (const item of node) visit(item);
    } else if (node !== null && typeof node === 'object') {
      for (const value of Object.values(node)) visit(value);
    }
  };
  visit(template);
  return [...found];
}

/**
 * Fills the holes of a chart template: a copy of `template` in which every string `@@name` is replaced by
 * `values[name]` (any JSON value, copied), and every array `['@@name']` whose value is an array by that
 * array itself (a colour scale's domain, say). The template is not changed.
 *
 * The templates are Vega specifications compiled from Vega-Lite when the runner is built (see
 * vega-templates.ts), with holes where a page's chart differs: its data's title, colours, legend state.
 *
 * @param template - a JSON value with holes
 * @param values - a value for every hole
 * @returns the filled copy
 * @throws Error naming a hole that has no value, or a value that fills no hole
 * @example
 * ```ts
 * fillTemplate({ title: '@@title', domain: ['@@labels'] }, { title: 'reward', labels: ['a', 'b'] });
 * // { title: 'reward', domain: ['a', 'b'] }
 * ```
 */
export function fillTemplate<T>(template: T, values: Readonly<Record<string, unknown>>): T {
  const used = new Set<string>();
  const value = (name: string): unknown => {
    if (!Object.hasOwn(values, name)) {
      throw new Error(
        `chart template hole @@${name} has no value (given: ${Object.keys(values).join(', ')})`,
      );
    }
    used.add(name);
    return structuredClone(values[name]);
  };
  const fill = (node: unknown): unknown => {
    if (typeof node === 'string') {
      const hole = HOLE.exec(node);
      return hole === null ? node : value(hole[1]!);
    }
    if (Array.isArray(node)) {
      if (node.length === 1 && typeof node[0] === 'string') {
        const hole = HOLE.exec(node[0]);
        if (hole !== null && Array.isArray(values[hole[1]!])) return value(hole[1]!);
      }
      return node.map(fill);
    }
    if (node !== null && typeof node === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(node)) out[k] = fill(v);
      return out;
    }
    return node;
  };
  const filled = fill(template) as T;
  const unused = Object.keys(values).filter((name) => !used.has(name));
  if (unused.length > 0)
    throw new Error(`no chart template hole for ${unused.map((n) => `@@${n}`).join(', ')}`);
  return filled;
}
