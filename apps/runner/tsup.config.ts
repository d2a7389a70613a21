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
    // No Vega here: report.md's charts are written as SVG directly (src/report/render-svg.ts), and the
    // `ftw view` page's charts are compiled when its script is built (view-client.tsup.ts).
    // Both builds write dist/ at once: this one must not delete the page script.
    clean: ['!view-client.js'],
    banner: { js: '#!/usr/bin/env node' },
  },
  VIEW_CLIENT_BUILD,
]);
