import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Options } from 'tsup';

/**
 * The build of the `ftw view` page script: one minified browser IIFE, `view-client.js`, with
 * `@ftw/selection` bundled in from its source (the `@ftw/source` condition), written beside the CLI, which
 * inlines it into every report.html. Used by tsup.config.ts (into dist/) and by the end-to-end tests'
 * build (test/build-cli.ts), so both pages run the same code.
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
  esbuildOptions(options) {
    options.conditions = ['@ftw/source'];
  },
};
