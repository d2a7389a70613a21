import { defineConfig, type Options } from 'tsup';
import shared from '../../tsup.config.ts';

// The runner is an application: one ESM entry with a shebang, no declarations.
export default defineConfig({
  ...(shared as Options),
  entry: ['src/cli.ts'],
  format: ['esm'],
  dts: false,
  banner: { js: '#!/usr/bin/env node' },
});
