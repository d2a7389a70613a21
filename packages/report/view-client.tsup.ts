import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Options } from 'tsup';
import { vegaTemplates } from './src/vega-templates.ts';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

/**
 * Resolves `import templates from 'ftw:vega-templates'` to the page's chart templates, compiled from
 * Vega-Lite to Vega and parsed by Vega now, at build time (src/vega-templates.ts): Vega-Lite is never
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

const SOURCE = join(dirname(fileURLToPath(import.meta.url)), 'src');
const CLIENT = join(SOURCE, 'client');

/**
 * Bundles the page script's own modules as modules with side effects, whatever package.json's
 * `sideEffects: false` (which is about the library's entry points) says: `client/vega-runtime.ts` registers
 * Vega's transforms when it loads, and esbuild's choice of minified names depends on this flag, so with it
 * the page script is the same, byte for byte, as when it was built inside the runner.
 */
const PAGE_MODULES: EsbuildPlugin = {
  name: 'ftw-page-modules',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, async (args) => {
      if (args.pluginData === PAGE_MODULES || !args.importer.startsWith(SOURCE + sep)) return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: PAGE_MODULES,
      });
      return resolved.errors.length > 0
        ? { errors: resolved.errors }
        : { path: resolved.path, sideEffects: true };
    });
  },
};

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
 * src/client/vega-runtime.ts) as the `vega` package itself would: this package depends on `vega`, not on
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
 * above), written into dist/ beside the package's entry points: `pageAssets` reads it and `renderPage`
 * inlines it into every page. Used by tsup.config.ts and by the runner's end-to-end tests of `ftw view`
 * (apps/runner/test/view-page.e2e.test.ts), which build it beside their CLI, so both pages run the same code.
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
  esbuildPlugins: [VEGA_TEMPLATES, VEGA_PACKAGES, PAGE_MODULES],
  esbuildOptions(options) {
    options.conditions = ['@ftw/source'];
  },
};
