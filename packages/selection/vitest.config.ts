import { defineConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// The shared config runs every test file in one worker (isolate: false). The allocation test measures
// V8's steady state for a sampler called from one call site, so it runs as a project with a worker of its
// own: the other files call the same functions with many shapes and random sources, and their JIT feedback
// would otherwise leak into its measurement.
const ALLOCATION = 'test/allocation.test.ts';

export default defineConfig({
  ...shared,
  test: {
    projects: [
      { ...shared, test: { ...shared.test, name: 'selection', exclude: [ALLOCATION] } },
      { ...shared, test: { ...shared.test, name: 'allocation', include: [ALLOCATION], isolate: true } },
    ],
  },
});
