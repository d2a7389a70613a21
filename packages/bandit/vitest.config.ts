import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// The test files share no mutable module state, so one module graph per worker (isolate: false) saves
// re-importing vitest and fast-check for every file: most of this suite's wall time on a loaded machine.
export default mergeConfig(shared, defineConfig({ test: { isolate: false } }));
