import { defineConfig, type Options } from 'tsup';
import shared from '../../tsup.config.ts';

// Two entry points (the shared build: ESM + CommonJS + declarations): the package itself and
// `@ftw/sokoban/trainer`. The trainer entry imports the package by its own name, kept external, so that
// both entries share one copy of its classes (an `instanceof SokobanError` holds across them).
export default defineConfig({
  ...(shared as Options),
  entry: { index: 'src/index.ts', trainer: 'src/trainer/index.ts' },
  external: ['@ftw/sokoban'],
});
