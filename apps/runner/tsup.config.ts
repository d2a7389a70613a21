import { defineConfig, type Options } from 'tsup';
import shared from '../../tsup.config.ts';

// The runner is an application: the ESM CLI with a shebang, plus the training loop as a module for the
// benchmark (bench/index.mjs). No declarations.
export default defineConfig({
  ...(shared as Options),
  entry: { cli: 'src/cli.ts', training: 'src/training.ts' },
  format: ['esm'],
  dts: false,
  banner: { js: '#!/usr/bin/env node' },
});
