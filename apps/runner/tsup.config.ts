import { defineConfig, type Options } from 'tsup';
import shared from '../../tsup.config.ts';
import { VIEW_CLIENT_BUILD } from './view-client.tsup.ts';

// The runner is an application: the ESM CLI with a shebang, plus the training loop as a module for the
// benchmark (bench/index.mjs). No declarations. Second, the script of the `ftw view` page (see
// view-client.tsup.ts).
export default defineConfig([
  {
    ...(shared as Options),
    entry: { cli: 'src/cli.ts', training: 'src/training.ts' },
    format: ['esm'],
    dts: false,
    // Chunks for the modules imported on demand (each command of src/cli/main.ts, the asynchronous runs),
    // so that their third-party imports (Redis, Zod, …) load only when the command runs: without
    // splitting, esbuild hoists them to the top of the one bundle.
    splitting: true,
    // Vega and Vega-Lite are bundled into the (lazily loaded) chart chunk: as installed they are some
    // hundred ES modules, and resolving and loading them one by one cost about 0.5 s of CPU per run that
    // draws a chart, against about 0.15 s for the same code in one file. Vega's optional node-canvas stays
    // out (it is not installed; text is measured without it).
    noExternal: ['vega', 'vega-lite'],
    external: ['canvas'],
    // Both builds write dist/ at once: this one must not delete the page script.
    clean: ['!view-client.js'],
    banner: { js: '#!/usr/bin/env node' },
  },
  VIEW_CLIENT_BUILD,
]);
