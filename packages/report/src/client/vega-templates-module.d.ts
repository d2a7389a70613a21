// The chart templates, compiled from Vega-Lite when the page script is built: view-client.tsup.ts resolves
// this module to the JSON of `vegaTemplates()`.
declare module 'ftw:vega-templates' {
  import type { VegaTemplates } from '../vega-templates.js';

  const templates: VegaTemplates;
  export default templates;
}
