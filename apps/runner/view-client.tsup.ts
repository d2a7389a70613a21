import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Options } from 'tsup';
import { vegaTemplates } from './src/view/vega-templates.ts';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

/**
 * Resolves `import templates from 'ftw:vega-templates'` to the page's chart templates, compiled from
 * Vega-Lite to Vega and parsed by Vega now, at build time (src/view/vega-templates.ts): Vega-Lite is never
 * loaded by the page nor by a run that writes report.html, and the page parses no chart.
 */
const VEGA_TEMPLATES: EsbuildPlugin = {
  name: 'ftw-vega-templates',
  setup(build) {
    build.onResolve({ filter: /^ftw:vega-templates$/ }, (args) => ({
      path: args.path,
      namespace: 'ftw-vega-templates',
    }));
    build.onLoad({ filter: /.*/, namespace: 'ftw-vega-templates' }, () => ({
      // As a JSON string: V8 reads JSON.parse of a string faster than the same object literal.
      contents: `export default JSON.parse(${JSON.stringify(JSON.stringify(vegaTemplates()))});`,
      loader: 'js',
    }));
  },
};

/**
 * The build of the `ftw view` page script: one minified browser IIFE, `view-client.js`, with
 * `@ftw/selection` bundled in from its source (the `@ftw/source` condition), vega-tooltip, and the chart
 * templates compiled from Vega-Lite (`ftw:vega-templates`, above), written beside the CLI, which inlines it
 * into every report.html after Vega's own script. Used by tsup.config.ts (into dist/) and by the end-to-end
 * tests' build (test/build-cli.ts), so both pages run the same code.
 */
export const VIEW_CLIENT_BUILD: Options = {
  entry: { 'view-client': join(dirname(fileURLToPath(import.meta.url)), 'src', 'view', 'client', 'main.ts') },
  format: ['iife'],
  platform: 'browser',
  target: 'es2022',
  minify: true,
  sourcemap: false,
  clean: false,
  dts: false,
  noExternal: [/.*/],
  outExtension: () => ({ js: '.js' }),
  esbuildPlugins: [VEGA_TEMPLATES],
  esbuildOptions(options) {
    options.conditions = ['@ftw/source'];
  },
};
