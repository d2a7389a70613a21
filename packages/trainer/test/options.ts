// Test-only settings: the small reproduction's (FTW N = 128, C = 5, K = 1, J = 4, β = 0.05) with the
// baselines' fields, as one object that every updater of the package accepts.
import type { BaselineOptions } from '../src/baseline-updater.js';
import type { FtwOptions } from '../src/ftw-updater.js';
import { DEFAULT_FTW_OPTIONS } from '../src/train.js';

/** FTW and baseline settings in one object (`method` chooses the baseline). */
export type TestOptions = FtwOptions &
  Omit<BaselineOptions, 'method'> & { readonly method: 'ftw' | BaselineOptions['method'] };

/** The reproduction's settings. */
export const REPRODUCE_OPTIONS: TestOptions = Object.freeze({
  ...DEFAULT_FTW_OPTIONS,
  warmup: 5,
  method: 'ftw',
  clip: 0.2,
  baselineRate: 0.1,
});
