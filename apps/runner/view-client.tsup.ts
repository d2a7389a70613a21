import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
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
      // Each template is JSON text, parsed when a chart is drawn (see fill-template.ts).
      contents: `export default ${JSON.stringify(vegaTemplates())};`,
      loader: 'js',
    }));
  },
};

const CLIENT = join(dirname(fileURLToPath(import.meta.url)), 'src', 'view', 'client');

/** The folder of the installed `vega` package (its package.json's), whose own dependencies are Vega's packages. */
function vegaFolder(): string {
  let dir = dirname(createRequire(import.meta.url).resolve('vega'));
  for (; dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === 'vega')
      return dir;
  }
  throw new Error('cannot find the vega package');
}

/**
 * Resolves the page script's imports of Vega's packages (`vega-view`, `vega-dataflow`, …; see
 * src/view/client/vega-runtime.ts) as the `vega` package itself would: the runner depends on `vega`, not on
 * them, and the page bundles only the parts of Vega it uses instead of Vega's whole browser build.
 */
const VEGA_PACKAGES: EsbuildPlugin = {
  name: 'ftw-vega-packages',
  setup(build) {
    const vega = vegaFolder();
    build.onResolve({ filter: /^vega-[a-z-]+$/ }, async (args) => {
      if (!args.importer.startsWith(CLIENT + sep) || args.path === 'vega-tooltip') return undefined;
      return build.resolve(args.path, { kind: args.kind, resolveDir: vega });
    });
  },
};

/**
 * The build of the `ftw view` page script: one minified browser IIFE, `view-client.js`, with
 * `@ftw/selection` bundled in from its source (the `@ftw/source` condition), the parts of Vega the page
 * uses (above), vega-tooltip, and the chart templates compiled from Vega-Lite (`ftw:vega-templates`,
 * above), written beside the CLI, which inlines it into every report.html. Used by tsup.config.ts (into dist/) and by the end-to-end
 * tests' build (test/build-cli.ts), so both pages run the same code.
 */
export const VIEW_CLIENT_BUILD: Options = {
  entry: { 'view-client': join(CLIENT, 'main.ts') },
  format: ['iife'],
  platform: 'browser',
  target: 'es2022',
  minify: true,
  sourcemap: false,
  clean: false,
  dts: false,
  noExternal: [/.*/],
  outExtension: () => ({ js: '.js' }),
  esbuildPlugins: [VEGA_TEMPLATES, VEGA_PACKAGES],
  esbuildOptions(options) {
    options.conditions = ['@ftw/source'];
  },
};
