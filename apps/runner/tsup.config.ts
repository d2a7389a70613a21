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
    // Both builds write dist/ at once: this one must not delete the page script.
    clean: ['!view-client.js'],
    banner: { js: '#!/usr/bin/env node' },
  },
  VIEW_CLIENT_BUILD,
]);
