import { EliteDraw } from './elite-draw.js';
import { type RandomSource, toIndexSource } from './random.js';
import { checkSelectionOptions, type SelectionOptions } from './selection-options.js';
import { checkReturns } from './validate.js';

/** One minibatch drawn by {@link EliteSampler.next}: views that the next call overwrites (copy to keep). */
export interface Minibatch {
  /** The C drawn items (indices into `returns`), in draw order. */
  readonly batch: Uint32Array;
  /**
   * The kept items (indices into `returns`), in no particular order: the K best of `batch`, or fewer
   * with a threshold.
   */
  readonly kept: Uint32Array;
}

/**
 * Draws FTW minibatches one at a time: C items uniformly without replacement, then the K best by return
 * (ties at the cut broken uniformly at random; with a threshold, only items strictly above it).
 * {@link selectElites} keeps the same items as J calls of {@link EliteSampler.next} on the same random
 * source (a test checks it); use the sampler directly to stream minibatches (to train on each as it
 * comes, or to inspect what each kept).
 *
 * Cost per minibatch: O(C) to draw (a partial Fisher–Yates shuffle), O(C log K) at worst to keep (about
 * K + 3√K + 3 candidates are searched); no allocation.
 *
 * @example
 * ```ts
 * import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
 * const sampler = new EliteSampler([0.1, 0.9, 0.5, 0.3], { batchSize: 3, keep: 1 }, xoroshiro128plus(7));
 * const { batch, kept } = sampler.next();
 * // batch: 3 distinct indices, e.g. Uint32Array [0, 2, 3]; kept: the best of them, Uint32Array [2]
 * ```
 */
export class EliteSampler {
  /** Pool size n: the number of returns. */
  readonly size: number;
  readonly #returns: Float64Array;
  readonly #draw: EliteDraw;
  /** One view of the kept buffer per possible count, and one result object: nothing is allocated per call. */
  readonly #keptViews: Uint32Array[];
  readonly #result: MinibatchView;

  /**
   * @param returns - the return of each item (finite numbers; not copied when a Float64Array, so do not
   * change it while sampling).
   * @param options - `batchSize` C, `keep` K and optional `threshold`; `batches` is ignored.
   * @param random - a `() => number` uniform on [0, 1), or a pure-rand generator.
   * @throws TypeError or RangeError naming the bad parameter (see {@link selectElites}).
   */
  constructor(returns: ArrayLike<number>, options: Omit<SelectionOptions, 'batches'>, random: RandomSource) {
    this.#returns = checkReturns(returns);
    this.size = this.#returns.length;
    const { batchSize, keep, threshold } = checkSelectionOptions(options, this.size, false);
    this.#draw = new EliteDraw(
      this.#returns,
      this.size,
      batchSize,
      keep,
      threshold,
      toIndexSource(random),
      Number.POSITIVE_INFINITY,
    );
    const kept = this.#draw.kept;
    this.#keptViews = Array.from({ length: keep + 1 }, (_, count) => kept.subarray(0, count));
    this.#result = new MinibatchView(this.#draw, new Uint32Array(batchSize), kept);
  }

  /**
   * Draws the next minibatch and keeps its best items.
   * @returns views of the minibatch and of its kept items, valid until the next call.
   * @throws RangeError when `random` yields a value outside [0, 1).
   */
  next(): Minibatch {
    this.#result.kept = this.#keptViews[this.#draw.next()]!;
    return this.#result;
  }
}

/**
 * The sampler's one {@link Minibatch}: `batch` is written from the draw when it is read, so a caller that
 * only needs `kept` does not pay for copying the minibatch.
 */
class MinibatchView implements Minibatch {
  kept: Uint32Array;
  readonly #draw: EliteDraw;
  readonly #batch: Uint32Array;

  constructor(draw: EliteDraw, batch: Uint32Array, kept: Uint32Array) {
    this.#draw = draw;
    this.#batch = batch;
    this.kept = kept;
  }

  get batch(): Uint32Array {
    return this.#draw.copyBatch(this.#batch);
  }
}
