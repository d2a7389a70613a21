// Vega's packages that the page script bundles (resolved from the `vega` package's own dependencies by
// view-client.tsup.ts; the runner does not depend on them directly): the parts the page uses.
declare module 'vega-dataflow' {
  export const transforms: Record<string, unknown>;
  export function changeset(): { remove(filter: () => boolean): { insert(values: object[]): unknown } };
}
declare module 'vega-util' {
  export const Warn: number;
}
declare module 'vega-view' {
  import type { VegaView } from './vega-view.js';
  export const View: new (
    runtime: object,
    options: { renderer: 'canvas' | 'svg' | 'none'; logLevel?: number },
  ) => VegaView;
}
declare module 'vega-transforms';
declare module 'vega-view-transforms';
declare module 'vega-encode';
declare module 'vega-voronoi';
