import { fileURLToPath } from 'node:url';
import { defaultServerConditions } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Test configuration every package re-uses. The `@ftw/source` condition makes sibling packages resolve to
 * their TypeScript source, so tests need no build of their dependencies; the setup file takes the
 * fast-check seed from `FC_SEED` so that a failure in CI replays.
 */
const shared = defineConfig({
  ssr: { resolve: { conditions: ['@ftw/source', ...defaultServerConditions] } },
  resolve: { conditions: ['@ftw/source', ...defaultServerConditions] },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // End-to-end tests (whole CLI processes, actor processes over Redis, a page in headless Chromium) run
    // in their own task, `test:e2e` (config `endToEnd` below), so that `pnpm verify` stays affordable.
    exclude: [...configDefaults.exclude, '**/*.e2e.test.ts'],
    setupFiles: [fileURLToPath(new URL('./vitest.setup.ts', import.meta.url))],
    // Test files share no mutable module state: one module graph per worker saves re-importing vitest and
    // fast-check for every file, most of a suite's wall time on a 2-core machine.
    isolate: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});

export default shared;

/** The configuration of a package's `test:e2e` task: only its `*.e2e.test.ts` files. */
export const endToEnd = defineConfig({
  ...shared,
  test: {
    ...shared.test,
    include: ['src/**/*.e2e.test.ts', 'test/**/*.e2e.test.ts'],
    exclude: configDefaults.exclude,
  },
});

/**
 * The shared configuration, with one test file moved to a worker of its own: an allocation test measures
 * V8's steady state for functions called from one call site, and the other files (run in one worker,
 * `isolate: false`) call the same functions with many shapes, whose JIT feedback would leak into it.
 */
export function withOwnWorker(name: string, file: string) {
  return defineConfig({
    ...shared,
    test: {
      projects: [
        { ...shared, test: { ...shared.test, name, exclude: [file] } },
        { ...shared, test: { ...shared.test, name: 'allocation', include: [file], isolate: true } },
      ],
    },
  });
}
