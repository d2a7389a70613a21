import { checkOptions, checkPositiveInteger, checkSizes, checkThreshold } from './validate.js';

/** How FTW selects elites from a pool: J minibatches of C, the K best of each. */
export interface SelectionOptions {
  /** J, minibatches per update; a positive integer. */
  batches: number;
  /** C, items per minibatch, drawn uniformly without replacement; 1 ≤ C ≤ pool size. */
  batchSize: number;
  /** K, items kept per minibatch (the K highest returns); 1 ≤ K ≤ C. */
  keep: number;
  /**
   * Only items whose return is strictly above this value may be kept, so a minibatch may keep fewer
   * than K. The remedy for massively tied binary returns, where K best would otherwise imitate failures.
   * @defaultValue undefined (every item is eligible)
   */
  threshold?: number | undefined;
}

/** Validated selection options. */
export interface CheckedSelection {
  batches: number;
  batchSize: number;
  keep: number;
  threshold: number | undefined;
}

/**
 * Validates selection options against a pool of `n` items.
 * @throws TypeError or RangeError naming the offending option and its value.
 */
export function checkSelectionOptions(options: unknown, n: number, needBatches = true): CheckedSelection {
  const o = checkOptions(options);
  checkSizes(n, o['batchSize'], o['keep'], 'returns.length');
  return {
    batches: needBatches ? checkPositiveInteger('batches', o['batches']) : 1,
    batchSize: o['batchSize'] as number,
    keep: o['keep'] as number,
    threshold: checkThreshold(o['threshold']),
  };
}
