import { FtwObjective, type FtwObjectiveRows } from '@ftw/objective';
import type { Staleness } from '@ftw/replay-pool';
import { ReplayPool } from '@ftw/replay-pool';
import type { Episode } from './episode.js';
import { ExpectedSelection } from './expected-selection.js';
import { MinibatchSampler, TIE_RULES, type TieRule } from './minibatch-sampler.js';
import type { Optimizer } from './optimizer.js';
import type { Policy } from './policy.js';
import { PolicyStep } from './policy-step.js';
import {
  finiteArray,
  type MutableUpdateStats,
  statsWithoutSelection,
  type Updater,
  type UpdaterState,
  type UpdateStats,
} from './updater.js';
import { checkChoice, checkInteger, checkNumber } from './validate.js';

/** FTW's selection settings (N, C, K, J, the mode, the tie rule and the threshold). */
export interface FtwSelectionOptions {
  /** N, the pool's capacity (FIFO), ≥ 1. */
  readonly capacity: number;
  /** C, trajectories per minibatch, 1 ≤ C ≤ N. */
  readonly batchSize: number;
  /** K, elites kept per minibatch, 1 ≤ K ≤ C. */
  readonly keep: number;
  /** J, minibatches per update, ≥ 1. */
  readonly batches: number;
  /** `sampled` (J minibatches drawn) or `expected` (every trajectory weighted by its exact expected count). */
  readonly selection: 'sampled' | 'expected';
  /** Order among tied returns (see `MinibatchSamplerOptions.tieRule`). */
  readonly tieRule: TieRule;
  /** Elites must have a return strictly above it; null for none. */
  readonly threshold: number | null;
}

/** The settings of {@link FtwUpdater}. */
export interface FtwOptions extends FtwSelectionOptions {
  /** β, the KL term's weight, ≥ 0. */
  readonly beta: number;
  /** KL direction: reverse KL(π ‖ π_ref) or forward KL(π_ref ‖ π). */
  readonly kl: 'reverse' | 'forward';
  /** π_ref: uniform, the initial policy, or the policy before the previous update. */
  readonly reference: 'uniform' | 'initial' | 'previous';
  /** Updates start once the pool holds this many trajectories, 1 ≤ warmup ≤ N (selection needs C). */
  readonly warmup: number;
  /** Trajectories more than this many versions old are not selectable; null for no bound. */
  readonly maxVersionLag: number | null;
  /** Optimiser steps per update, ≥ 1. */
  readonly epochs: number;
  /**
   * Episodes with a return ≤ this count as failures in `UpdateStats.failureShare` (e.g. 0 for a binary success reward);
   * absent, the share is not measured (null). It changes nothing in the update.
   */
  readonly failureReturn?: number;
}

/**
 * Checks FTW's selection settings.
 *
 * @param options - the settings
 * @returns `options`
 * @throws RangeError naming the first setting out of range and its value (e.g. C > N, K > C)
 * @example
 * ```ts
 * checkFtwSelectionOptions({ ...DEFAULT_FTW_OPTIONS, keep: 6 }); // RangeError: keep must be <= batchSize (5), got 6
 * ```
 */
export function checkFtwSelectionOptions<T extends FtwSelectionOptions>(options: T): T {
  const N = checkInteger('capacity', options.capacity, 1);
  const C = checkInteger('batchSize', options.batchSize, 1);
  if (C > N) throw new RangeError(`batchSize must be <= capacity (${N}), got ${C}`);
  const K = checkInteger('keep', options.keep, 1);
  if (K > C) throw new RangeError(`keep must be <= batchSize (${C}), got ${K}`);
  checkInteger('batches', options.batches, 1);
  checkChoice('selection', options.selection, ['sampled', 'expected'] as const);
  checkChoice('tieRule', options.tieRule, TIE_RULES);
  if (options.threshold !== null) checkNumber('threshold', options.threshold, Number.NEGATIVE_INFINITY);
  return options;
}

/**
 * Checks every setting of {@link FtwUpdater}.
 *
 * @param options - the settings
 * @returns `options`
 * @throws RangeError naming the first setting out of range and its value (C > N, K > C, β < 0, …)
 * @example
 * ```ts
 * checkFtwOptions({ ...DEFAULT_FTW_OPTIONS, warmup: 5, beta: -1 }); // RangeError: beta must be a finite number >= 0, got -1
 * ```
 */
export function checkFtwOptions<T extends FtwOptions>(options: T): T {
  checkFtwSelectionOptions(options);
  checkNumber('beta', options.beta, 0);
  checkChoice('kl', options.kl, ['reverse', 'forward'] as const);
  checkChoice('reference', options.reference, ['uniform', 'initial', 'previous'] as const);
  checkInteger('warmup', options.warmup, 1, options.capacity);
  if (options.maxVersionLag !== null) checkInteger('maxVersionLag', options.maxVersionLag, 0);
  checkInteger('epochs', options.epochs, 1);
  if (options.failureReturn !== undefined) {
    checkNumber('failureReturn', options.failureReturn, Number.NEGATIVE_INFINITY);
  }
  return options;
}

/** The elites of one update: pool positions (distinct) and their selection counts m_i > 0. */
export interface EliteChoice {
  /** Pool positions of the selected trajectories, each once, in `positions[0 .. size)`. */
  readonly positions: ArrayLike<number>;
  /** Selection count m_i of each (an integer for sampled selection, an expected count otherwise). */
  readonly counts: ArrayLike<number>;
  /** Number of selected trajectories. */
  readonly size: number;
}

/**
 * Chooses the elites of one update from the pool, or returns null when too few trajectories are
 * selectable to form a minibatch (no update). Injected in tests to fix the counts.
 */
export type EliteSelector = (pool: ReplayPool, version: number) => EliteChoice | null;

/**
 * FTW's selection, at a cost that follows the work: `sampled` draws J minibatches of C
 * from the pool's selectable index and keeps the top K of each ({@link MinibatchSampler}, O(J·C));
 * `expected` weights every selectable trajectory by its exact expected count ({@link ExpectedSelection},
 * O(N) with no sort). Both apply the tie rule and the threshold.
 *
 * @param config - the selection settings
 * @param random - the selection stream, uniform on [0, 1)
 * @returns the selector
 * @throws RangeError when a setting is out of range (see {@link checkFtwSelectionOptions})
 * @example
 * ```ts
 * const select = eliteSelector({ capacity: 128, batchSize: 5, keep: 1, batches: 4, selection: 'sampled',
 *   tieRule: 'random', threshold: null }, random);
 * select(pool, version); // null until the pool holds C selectable trajectories
 * ```
 */
export function eliteSelector(config: FtwSelectionOptions, random: () => number): EliteSelector {
  checkFtwSelectionOptions(config);
  const options = {
    batches: config.batches,
    batchSize: config.batchSize,
    keep: config.keep,
    threshold: config.threshold,
    tieRule: config.tieRule,
  };
  if (config.selection === 'expected') {
    const expected = new ExpectedSelection(options, config.capacity);
    return (pool, version) => expected.select(pool, version);
  }
  const sampler = new MinibatchSampler(options);
  const byLength = config.tieRule === 'shortest' || config.tieRule === 'longest';
  return (pool, version) => {
    const index = pool.selectableIndex(version);
    if (index.size < config.batchSize) return null;
    return sampler.select(index, random, byLength ? (p) => pool.columnsAt(p).length : undefined);
  };
}

/**
 * FTW's update (arXiv 2610.03361, Algorithm 2) on any {@link Policy}: it reads the policy only through
 * batched logits and back-propagation, so a table, a linear layer and a network fit alike.
 *
 * Each iteration pushes its episodes into a FIFO `ReplayPool` of capacity N (every step's observation,
 * action, behaviour log-probability and version); once the pool holds `warmup` trajectories, every
 * iteration selects elites (see {@link eliteSelector}) and takes `epochs` optimiser steps on
 *
 *   L(θ) = −Σ_i (m_i / (L_i · M)) Σ_t log π_θ(a_{i,t} | o_{i,t}) + β · (1/R) Σ_rows D(π_θ(·|o), π_ref(·|o)),
 *
 * with m_i the selection count of trajectory i, L_i its length, M = Σ m_i (the per-trajectory weights of
 * `trajectoryWeights`, and `FtwObjective` from `@ftw/objective`) and D the KL divergence in the configured direction, averaged over the
 * R rows: the steps of the selected trajectories, each once. When a threshold leaves no elite, only the KL
 * term acts, averaged over the steps of this iteration's episodes (nothing happens when β = 0).
 *
 * References π_ref: `uniform`; `initial`, the policy before any update; `previous`, the policy before
 * the previous update (at update k, π_{k−1}: a trust region on successive policies; at the first update,
 * the current policy). The gradient of each row's logits is back-propagated by the policy into θ.
 */
export class FtwUpdater implements Updater {
  readonly #config: FtwOptions;
  readonly #policy: Policy;
  /** Back-propagation and the optimiser's step, on the rows' blocks only when it can. */
  readonly #step: PolicyStep;
  readonly #select: EliteSelector;
  readonly #pool: ReplayPool;
  /** True when the caller keeps the pool (it holds the episodes already: `update` pushes none). */
  readonly #external: boolean;
  #initial: Float64Array;
  /** The loss, its settings checked once; its row buffers are filled by each update. */
  readonly #objective: FtwObjective;
  /** Observation of each loss row, d numbers each. */
  #observations: Float64Array;
  readonly #observationSize: number;
  /** θ before the previous update (valid once `#hasPrevious`), and a spare for the current one. */
  #previous = new Float64Array(0);
  #spare = new Float64Array(0);
  #hasPrevious = false;
  /** The pool's staleness, refilled by each update. */
  #staleness: Staleness | undefined;
  /** What `update` returns, refilled by each update (see `Updater.update`). */
  readonly #stats: MutableUpdateStats = statsWithoutSelection(0, null);

  /**
   * @param config - the settings
   * @param policy - the policy to update
   * @param optimizer - the optimiser on `policy.parameters`
   * @param select - the selection rule (from {@link eliteSelector} unless a test fixes the counts)
   * @param pool - the pool to select from when the caller keeps it, already holding every episode it hands
   *   to `update` (a Redis learner's mirror of the stream: capacity N and the configured `maxVersionLag`);
   *   by default the updater keeps its own and pushes each iteration's episodes into it
   * @throws RangeError when a setting is out of range (see {@link checkFtwOptions})
   */
  constructor(
    config: FtwOptions,
    policy: Policy,
    optimizer: Optimizer,
    select: EliteSelector,
    pool?: ReplayPool,
  ) {
    checkFtwOptions(config);
    this.#config = config;
    this.#observationSize = checkInteger('policy.observationSize', policy.observationSize, 1);
    this.#observations = new Float64Array(16 * this.#observationSize);
    this.#policy = policy;
    this.#step = new PolicyStep(policy, optimizer);
    this.#select = select;
    this.#external = pool !== undefined;
    this.#pool =
      pool ??
      new ReplayPool(
        config.maxVersionLag === null
          ? { capacity: config.capacity }
          : { capacity: config.capacity, maxVersionLag: config.maxVersionLag },
      );
    this.#initial = Float64Array.from(policy.parameters);
    this.#objective = new FtwObjective({
      actions: policy.numActions,
      beta: config.beta,
      kl: config.kl,
      reference: config.reference === 'uniform' ? 'uniform' : 'rows',
    });
  }

  /**
   * θ before any update and before the previous one (see {@link UpdaterState}), for a checkpoint.
   *
   * @returns copies, as plain arrays
   */
  state(): UpdaterState {
    return {
      kind: 'ftw',
      initial: Array.from(this.#initial),
      previous: this.#hasPrevious ? Array.from(this.#previous) : null,
    };
  }

  /**
   * Goes on from a saved {@link FtwUpdater.state} (a fresh updater of the same configuration, its policy
   * holding the checkpoint's θ and its pool what the saved one's held).
   *
   * @param state - from `state()`
   * @throws RangeError naming the field when it is not an FTW state of finite numbers (nothing changed)
   */
  restore(state: UpdaterState): void {
    if (state?.kind !== 'ftw') {
      throw new RangeError(
        `state.kind must be ftw, got ${String((state as { kind?: unknown } | null)?.kind)}`,
      );
    }
    const initial = finiteArray(state.initial, 'state.initial');
    const previous = state.previous === null ? null : finiteArray(state.previous, 'state.previous');
    this.#initial = initial;
    this.#hasPrevious = previous !== null;
    this.#previous = previous ?? new Float64Array(0);
    this.#spare = new Float64Array(this.#previous.length);
  }

  /** The pool (read-only use: tests and diagnostics). */
  get pool(): ReplayPool {
    return this.#pool;
  }

  update(episodes: readonly Episode[], version: number): UpdateStats | null {
    const config = this.#config;
    const pool = this.#pool;
    if (!this.#external) {
      for (const e of episodes) {
        pool.push({
          actions: e.actions,
          logProbs: e.logProbs,
          versions: e.versions,
          return: e.return,
          observations: e.observations,
        });
      }
    }
    if (pool.size < config.warmup) return null;
    const choice = this.#select(pool, version);
    if (choice === null) return null;

    const size = choice.size;
    let steps = 0;
    let total = 0;
    let sum = 0;
    let sumSquares = 0;
    let ageSum = 0;
    let failed = 0;
    const failureReturn = config.failureReturn ?? Number.NEGATIVE_INFINITY;
    for (let i = 0; i < size; i++) {
      const m = choice.counts[i]!;
      const trajectory = pool.columnsAt(choice.positions[i]!);
      const r = trajectory.return;
      total += m;
      sum += m * r;
      sumSquares += m * r * r;
      ageSum += m * (version - trajectory.minVersion);
      if (r <= failureReturn) failed += m;
      steps += trajectory.length;
    }
    if (total === 0 && config.beta === 0) return null;
    let view: FtwObjectiveRows;
    if (total > 0) {
      view = this.#rowsOf(steps);
      const observations = this.#observations;
      const d = this.#observationSize;
      for (let i = 0, row = 0; i < size; i++) {
        const trajectory = pool.columnsAt(choice.positions[i]!);
        const length = trajectory.length;
        // Each step's weight m_i / (L_i · M): the per-trajectory normalisation of `trajectoryWeights`.
        const w = choice.counts[i]! / (length * total);
        for (let t = 0; t < length; t++, row++) {
          if (d === 1) observations[row] = trajectory.observation(t);
          else for (let k = 0; k < d; k++) observations[row * d + k] = trajectory.observation(t, k);
          view.selected[row] = trajectory.action(t);
          view.weights[row] = w;
        }
      }
    } else {
      // No elite: the KL term alone, over the steps of this iteration's episodes.
      steps = 0;
      for (const e of episodes) steps += e.length;
      view = this.#rowsOf(steps);
      const observations = this.#observations;
      let at = 0;
      for (const e of episodes) {
        const values = e.length * this.#observationSize;
        for (let k = 0; k < values; k++) observations[at++] = e.observations[k]!;
      }
      view.selected.fill(0);
      view.weights.fill(0);
    }
    this.#staleness = pool.staleness(version, this.#staleness);
    const poolStaleness = this.#staleness.trajectoryAge.mean;
    const loss = this.#descend(steps, view, total > 0 ? 'mean' : 'sum');
    const eliteMean = total > 0 ? sum / total : null;
    const stats = this.#stats;
    stats.eliteMean = eliteMean;
    stats.eliteSpread =
      eliteMean === null ? null : Math.sqrt(Math.max(0, sumSquares / total - eliteMean * eliteMean));
    stats.selected = total;
    stats.poolSize = pool.size;
    stats.poolStaleness = poolStaleness;
    stats.selectionStaleness = total > 0 ? ageSum / total : null;
    stats.failureShare = config.failureReturn === undefined || total === 0 ? null : failed / total;
    stats.loss = loss;
    stats.moved = this.#step.moved();
    return stats;
  }

  /** The reference parameters of this update, and the snapshot kept for the next one. */
  #reference(): Float64Array | undefined {
    const { reference } = this.#config;
    if (reference === 'uniform') return undefined;
    if (reference === 'initial') return this.#initial;
    const parameters = this.#policy.parameters;
    if (this.#spare.length < parameters.length) {
      const grown = new Float64Array(2 * parameters.length);
      grown.set(this.#previous);
      this.#previous = grown;
      this.#spare = new Float64Array(grown.length);
    }
    this.#spare.set(parameters);
    this.#spare.fill(0, parameters.length);
    const reference_ = this.#hasPrevious ? this.#previous : this.#spare;
    [this.#previous, this.#spare] = [this.#spare, this.#previous];
    this.#hasPrevious = true;
    return reference_;
  }

  /**
   * `epochs` optimiser steps on the FTW loss over the rows; returns the last loss value. Without elites
   * the rows carry weight 0 (`normalize: 'sum'`) and only the KL term acts.
   */
  #descend(rows: number, view: FtwObjectiveRows, normalize: 'mean' | 'sum'): number {
    const config = this.#config;
    const policy = this.#policy;
    const observations = this.#observations;
    const snapshot = this.#reference();
    if (snapshot !== undefined) policy.logits(observations, rows, view.reference, snapshot);
    let loss = 0;
    this.#step.begin();
    for (let epoch = 0; epoch < config.epochs; epoch++) {
      policy.logits(observations, rows, view.logits);
      const result = this.#objective.evaluate(rows, normalize);
      loss = result.loss;
      this.#step.apply(observations, rows, result.grad);
    }
    return loss;
  }

  /** The objective's buffers of `rows` rows, and room for their observations. */
  #rowsOf(rows: number): FtwObjectiveRows {
    if (this.#observations.length < rows * this.#observationSize) {
      this.#observations = new Float64Array(2 * rows * this.#observationSize);
    }
    return this.#objective.rows(rows);
  }
}
