import { defineConfig } from 'tsup';

/**
 * The one build configuration every package re-uses (`tsup --config ../../tsup.config.ts`), so the
 * bundler can be swapped in this file alone. Dual ESM + CommonJS output with declarations for both.
 */
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  platform: 'node',
  splitting: false,
  treeshake: true,
});
