import type { Episode } from './episode.js';

/** What one update reports for the metrics (null fields do not apply to the method). */
export interface UpdateStats {
  /** Mean return of the selected trajectories, weighted by selection count. */
  readonly eliteMean: number | null;
  /** Standard deviation of the selected returns (weighted, population form). */
  readonly eliteSpread: number | null;
  /** Total selection count (Σ counts; J·K without a threshold). */
  readonly selected: number | null;
  /** Pool size when the update ran. */
  readonly poolSize: number | null;
  /** Mean age in policy versions of the trajectories held. */
  readonly poolStaleness: number | null;
  /** Mean age of the selected trajectories, repeats included (what FTW imitates). */
  readonly selectionStaleness: number | null;
  /**
   * Share of the selection count Σ m_i on failures (return ≤ FTW's `failureReturn`), repeats included;
   * null or absent when not measured or nothing was selected.
   */
  readonly failureShare?: number | null;
  /** Loss value at the last gradient step. */
  readonly loss: number;
  /**
   * The observations whose logits the update may have moved, distinct and in increasing order (the
   * others' logits are as before it), or null when it may have moved any (see `PolicyStep.moved`).
   * Valid until the next update.
   */
  readonly moved: Int32Array | null;
}

const NOTHING_MOVED = new Int32Array(0);

/**
 * What an iteration moved, for `Environment.evaluate`: the rows its update lists, none when no update ran,
 * or null when the update may have moved any.
 *
 * @param stats - what the iteration's update returned (null: no update)
 * @returns the moved rows, an empty list, or null
 */
export function movedBy(stats: UpdateStats | null): Int32Array | null {
  return stats === null ? NOTHING_MOVED : stats.moved;
}

/** {@link UpdateStats} that an updater may refill in place. */
export type MutableUpdateStats = { -readonly [K in keyof UpdateStats]: UpdateStats[K] };

/**
 * The statistics of an update that selected nothing (a baseline's, or FTW's before its first update):
 * every selection figure null.
 *
 * @param loss - the loss at the step
 * @param moved - the observations whose logits the update may have moved, or null for any
 * @returns a new object
 */
export function statsWithoutSelection(loss: number, moved: Int32Array | null): MutableUpdateStats {
  return {
    eliteMean: null,
    eliteSpread: null,
    selected: null,
    poolSize: null,
    poolStaleness: null,
    selectionStaleness: null,
    failureShare: null,
    loss,
    moved,
  };
}

/**
 * A training method's update rule. It reads episodes only through {@link Episode} and changes the
 * policy only through `Policy` (logits, back-propagation) and its optimiser, so it works unchanged on
 * every environment and every policy.
 */
export interface Updater {
  /**
   * Takes one iteration's episodes and updates the policy (or not, e.g. during FTW's warm-up).
   * @param episodes - this iteration's episodes (valid during the call only: a collector reuses them)
   * @param version - the current policy version (the number of updates made so far)
   * @returns statistics of the update, or null when the policy was not updated; an updater may refill and
   *   return the same object at every update, so read it before the next call
   */
  update(episodes: readonly Episode[], version: number): UpdateStats | null;
  /**
   * Offered by `FtwUpdater` and `BaselineUpdater`: what the updater carries from update to update besides
   * θ and the optimiser, as JSON-able data, for a checkpoint.
   */
  state?(): UpdaterState;
  /**
   * Offered with `state`: makes a fresh updater (of the same configuration, on the checkpoint's θ) go on
   * where the saved one stood.
   * @throws RangeError naming the field when `state` is not a valid state of this updater
   */
  restore?(state: UpdaterState): void;
}

/**
 * What an updater carries besides θ and the optimiser. FTW: θ before any update (the `initial` reference)
 * and before the previous update (the `previous` reference; null before the first update). The baselines:
 * the running-mean baseline per start observation (REINFORCE and PPO; GRPO keeps none).
 */
export type UpdaterState =
  | { readonly kind: 'ftw'; readonly initial: readonly number[]; readonly previous: readonly number[] | null }
  | { readonly kind: 'baseline'; readonly baselines: readonly (readonly [number | string, number])[] };

/**
 * @throws RangeError unless `values` is an array of finite numbers, naming `field` and the first bad entry
 * @returns the values as a Float64Array
 */
export function finiteArray(values: unknown, field: string): Float64Array<ArrayBuffer> {
  if (!Array.isArray(values)) {
    throw new RangeError(`${field} must be an array of finite numbers, got ${String(values)}`);
  }
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const x = values[i] as unknown;
    if (typeof x !== 'number' || !Number.isFinite(x)) {
      throw new RangeError(`${field}[${i}] must be a finite number, got ${String(x)}`);
    }
    out[i] = x;
  }
  return out;
}
