/// <reference lib="dom" />

/** The parts of a Vega view the page uses (see vega-runtime.ts). */
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
