/// <reference lib="dom" />

/** The parts of a Vega view the page uses (Vega is loaded as a global by its own script element). */
export interface VegaView {
  signal(name: string, value: unknown): VegaView;
  runAsync(): Promise<VegaView>;
  scenegraph(): { root: SceneNode };
  change(name: string, changes: unknown): VegaView;
  insert(name: string, values: readonly object[]): VegaView;
  data(name: string): object[];
  tooltip(handler: unknown): VegaView;
  width(width: number): VegaView;
  initialize(element: HTMLElement): VegaView;
  toImageURL(type: 'svg' | 'png', scaleFactor?: number): Promise<string>;
}

/** A node of Vega's scenegraph: a mark (with items) or an item (possibly a group with marks). */
export interface SceneNode {
  marktype?: string;
  role?: string;
  name?: string;
  items?: SceneNode[];
}

/** The parts of the `vega` global the page uses. */
export interface VegaGlobal {
  View: new (
    runtime: object,
    options: { renderer: 'canvas' | 'svg' | 'none'; logLevel?: number },
  ) => VegaView;
  Warn: number;
  changeset(): { remove(filter: () => boolean): { insert(values: object[]): unknown } };
}

/** The `vega` global that the inlined Vega script defines. */
export function vegaGlobal(): VegaGlobal {
  const g = globalThis as unknown as { vega?: VegaGlobal };
  if (g.vega === undefined) {
    throw new Error('Vega did not load: the page is missing its inlined vega script');
  }
  return g.vega;
}

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
