import type { ViewModelOptions } from '@ftw/report';
import { describeEnvironment } from '../train/describe-config.js';

/**
 * How the runner's HTML reports (`report.html` of a run, `ftw view`) name environments: with the same
 * one-line description as report.md, e.g. `Gaussian bandit, means 1, 0.3, sd 0.2`.
 *
 * @example
 * ```ts
 * reportPage([await readRunFolder('runs/reproduce')], REPORT_OPTIONS);
 * ```
 */
export const REPORT_OPTIONS: ViewModelOptions = {
  // A run folder's environment is the configuration this runner wrote; an unknown kind makes the
  // description throw or contain `undefined`, and the page falls back to the environment's fields.
  describeEnvironment: (environment) => describeEnvironment(environment as never),
};
