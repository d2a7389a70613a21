import { defineConfig, type Options } from 'tsup';
import shared from '../../tsup.config.ts';

// The runner is an application: the ESM CLI with a shebang, plus the training loop as a module for the
// benchmark (bench/index.mjs). No declarations. The script of the `ftw view` page is @ftw/report's
// (its dist/view-client.js, built with that package).
export default defineConfig({
  ...(shared as Options),
  entry: { cli: 'src/cli.ts', training: 'src/training.ts' },
  format: ['esm'],
  dts: false,
  // Chunks for the modules imported on demand (each command of src/main.ts, the asynchronous runs),
  // so that their third-party imports (Redis, Zod, …) load only when the command runs: without
  // splitting, esbuild hoists them to the top of the one bundle.
  splitting: true,
  // The @ftw packages (from their sources, so never a stale dist/ of theirs) and commander are bundled
  // in: a CLI run then resolves a handful of files of its own instead of walking node_modules for each
  // package, some 30 ms of every start. Bundled CommonJS (commander) calls `require` for Node's built-in
  // modules, which an ES module has not: the banner gives every chunk one.
  noExternal: [/^@ftw\//, 'commander'],
  esbuildOptions(options) {
    options.conditions = ['@ftw/source'];
  },
  banner: {
    js: [
      '#!/usr/bin/env node',
      "import { createRequire as __ftwCreateRequire } from 'node:module';",
      'const require = __ftwCreateRequire(import.meta.url);',
    ].join('\n'),
  },
});
