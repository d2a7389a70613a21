/// <reference lib="dom" />

/** The parts of a Vega view the page uses (Vega is loaded as a global by its own script element). */
export interface VegaView {
  signal(name: string, value: unknown): VegaView;
  runAsync(): Promise<VegaView>;
  scenegraph(): { root: SceneNode };
  change(name: string, changes: unknown): VegaView;
  data(name: string): object[];
}

/** A node of Vega's scenegraph: a mark (with items) or an item (possibly a group with marks). */
export interface SceneNode {
  marktype?: string;
  role?: string;
  name?: string;
  items?: SceneNode[];
}

interface VegaGlobal {
  changeset(): { remove(filter: () => boolean): { insert(values: object[]): unknown } };
}

type Embed = (element: HTMLElement, spec: object, options: object) => Promise<{ view: VegaView }>;

/** The globals that the inlined Vega, Vega-Lite and vega-embed scripts define. */
export function vegaGlobals(): { readonly embed: Embed; readonly vega: VegaGlobal } {
  const g = globalThis as unknown as { vegaEmbed?: Embed; vega?: VegaGlobal };
  if (g.vegaEmbed === undefined || g.vega === undefined) {
    throw new Error('Vega did not load: the page is missing its inlined vega / vega-embed scripts');
  }
  return { embed: g.vegaEmbed, vega: g.vega };
}

/** Options of every embed: canvas (fast with many points), export menu only (no editor link: no network). */
export const EMBED_OPTIONS = {
  renderer: 'canvas',
  actions: { export: true, source: false, compiled: false, editor: false },
  tooltip: { theme: 'light' },
} as const;

/**
 * Counts the items of line, area and point marks in a view's scenegraph (axes and legends excluded): what a
 * test compares before and after a legend toggle.
 */
export function countMarks(view: VegaView): number {
  let count = 0;
  const visit = (node: SceneNode): void => {
    if (node.marktype !== undefined && node.items !== undefined) {
      const data = node.role === 'mark' && ['line', 'area', 'symbol', 'rule'].includes(node.marktype);
      if (data) count += node.items.length;
    }
    for (const item of node.items ?? []) visit(item);
  };
  visit(view.scenegraph().root);
  return count;
}
