import { type FtwLossOut, ftwLoss, trajectoryWeights } from '@ftw/objective';
import { ReplayPool } from '@ftw/replay-pool';
import { expectedCounts, selectElites } from '@ftw/selection';
import type { TrainConfig } from '../config/train-config.js';
import type { Episode } from './episode.js';
import type { Optimizer } from './optimizer.js';
import type { Policy } from './policy.js';
import { orderTies } from './tie-order.js';
import type { Updater, UpdateStats } from './updater.js';

/** The elites of one update: pool positions (distinct) and their selection counts m_i > 0. */
export interface EliteChoice {
  /** Pool positions of the selected trajectories, each once. */
  readonly positions: ArrayLike<number>;
  /** Selection count m_i of each (an integer for sampled selection, an expected count otherwise). */
  readonly counts: ArrayLike<number>;
}

/**
 * Chooses the elites of one update from the pool, or returns null when too few trajectories are
 * selectable to form a minibatch (no update). Injected in tests to fix the counts.
 */
export type EliteSelector = (pool: ReplayPool, version: number) => EliteChoice | null;

/**
 * The selection of a configuration: `selectElites` (J minibatches of C, top K of each) or, for the
 * `expected` mode, `expectedCounts`, over the pool's selectable trajectories, with the tie rule and the
 * threshold.
 *
 * @param config - the FTW fields of the configuration
 * @param random - the selection stream
 * @returns the selector
 */
export function configSelector(config: TrainConfig, random: () => number): EliteSelector {
  return (pool, version) => {
    const { returns, positions } = pool.selectable(version);
    if (returns.length < config.batchSize) return null;
    const ordered =
      config.tieRule === 'random'
        ? { values: returns, threshold: config.threshold ?? undefined }
        : orderTies(returns, config.tieRule, config.threshold);
    const options = {
      batches: config.batches,
      batchSize: config.batchSize,
      keep: config.keep,
      ...(ordered.threshold === undefined ? {} : { threshold: ordered.threshold }),
    };
    const counts: ArrayLike<number> =
      config.selection === 'sampled'
        ? selectElites(ordered.values, options, random).counts
        : expectedCounts(ordered.values, options);
    const chosen: number[] = [];
    const chosenCounts: number[] = [];
    for (let i = 0; i < counts.length; i++) {
      if (counts[i]! > 0) {
        chosen.push(positions[i]!);
        chosenCounts.push(counts[i]!);
      }
    }
    return { positions: chosen, counts: chosenCounts };
  };
}

/**
 * FTW's update (arXiv 2610.03361, Algorithm 2) on any {@link Policy}.
 *
 * Each iteration pushes its episodes into a FIFO `ReplayPool` of capacity N (every step's observation,
 * action, behaviour log-probability and version); once the pool holds `warmup` trajectories, every
 * iteration selects elites (see {@link configSelector}) and takes `epochs` optimiser steps on
 *
 *   L(θ) = −Σ_i (m_i / (L_i · M)) Σ_t log π_θ(a_{i,t} | o_{i,t}) + β · (1/R) Σ_rows D(π_θ(·|o), π_ref(·|o)),
 *
 * with m_i the selection count of trajectory i, L_i its length, M = Σ m_i (`trajectoryWeights` and
 * `ftwLoss` from `@ftw/objective`) and D the KL divergence in the configured direction, averaged over the
 * R rows: the steps of the selected trajectories, each once. When a threshold leaves no elite, only the KL
 * term acts, averaged over the steps of this iteration's episodes (nothing happens when β = 0).
 *
 * References π_ref: `uniform`; `initial`, the policy before any update; `previous`, the policy before
 * the previous update (at update k, π_{k−1}: a trust region on successive policies; at the first update,
 * the current policy). The gradient of each row's logits is back-propagated by the policy into θ.
 */
export class FtwUpdater implements Updater {
  readonly #config: TrainConfig;
  readonly #policy: Policy;
  readonly #optimizer: Optimizer;
  readonly #select: EliteSelector;
  readonly #pool: ReplayPool;
  readonly #initial: Float64Array;
  #previous: Float64Array | null = null;
  #grad = new Float64Array(0);

  /**
   * @param config - the resolved configuration (FTW fields)
   * @param policy - the policy to update
   * @param optimizer - the optimiser on `policy.parameters`
   * @param select - the selection rule (from {@link configSelector} unless a test fixes the counts)
   */
  constructor(config: TrainConfig, policy: Policy, optimizer: Optimizer, select: EliteSelector) {
    this.#config = config;
    this.#policy = policy;
    this.#optimizer = optimizer;
    this.#select = select;
    this.#pool = new ReplayPool(
      config.maxVersionLag === null
        ? { capacity: config.capacity }
        : { capacity: config.capacity, maxVersionLag: config.maxVersionLag },
    );
    this.#initial = Float64Array.from(policy.parameters);
  }

  /** The pool (read-only use: tests and diagnostics). */
  get pool(): ReplayPool {
    return this.#pool;
  }

  update(episodes: readonly Episode[], version: number): UpdateStats | null {
    const config = this.#config;
    const pool = this.#pool;
    for (const e of episodes) {
      pool.push({
        actions: e.actions,
        logProbs: e.logProbs,
        versions: e.versions,
        return: e.return,
        observations: e.observations,
      });
    }
    if (pool.size < config.warmup) return null;
    const choice = this.#select(pool, version);
    if (choice === null) return null;

    const observations: number[] = [];
    const actions: number[] = [];
    const lengths: number[] = [];
    let total = 0;
    let sum = 0;
    let sumSquares = 0;
    let ageSum = 0;
    for (let i = 0; i < choice.positions.length; i++) {
      const m = choice.counts[i]!;
      const trajectory = pool.at(choice.positions[i]!);
      const r = trajectory.return;
      total += m;
      sum += m * r;
      sumSquares += m * r * r;
      ageSum += m * (version - trajectory.minVersion);
      lengths.push(trajectory.length);
      for (let t = 0; t < trajectory.length; t++) {
        observations.push(trajectory.observations![t]!);
        actions.push(trajectory.actions[t]!);
      }
    }
    if (total === 0 && config.beta === 0) return null;
    let weights: Float64Array | undefined;
    if (total > 0) {
      weights = trajectoryWeights(choice.counts, lengths);
    } else {
      for (const e of episodes) for (let t = 0; t < e.length; t++) observations.push(e.observations[t]!);
    }
    const poolStaleness = pool.staleness(version).trajectoryAge.mean;
    const loss = this.#descend(observations, actions, weights);
    const eliteMean = total > 0 ? sum / total : null;
    return {
      eliteMean,
      eliteSpread:
        eliteMean === null ? null : Math.sqrt(Math.max(0, sumSquares / total - eliteMean * eliteMean)),
      selected: total,
      poolSize: pool.size,
      poolStaleness,
      selectionStaleness: total > 0 ? ageSum / total : null,
      loss,
    };
  }

  /** The reference parameters of this update, and the snapshot kept for the next one. */
  #reference(): Float64Array | undefined {
    const { reference } = this.#config;
    if (reference === 'uniform') return undefined;
    if (reference === 'initial') return this.#initial;
    const current = Float64Array.from(this.#policy.parameters);
    const previous = this.#previous ?? current;
    this.#previous = current;
    return previous;
  }

  /**
   * `epochs` optimiser steps on the FTW loss over the given rows; returns the last loss value. Without
   * weights (no elite) the rows carry weight 0 and only the KL term acts.
   */
  #descend(observations: number[], actions: number[], weights: Float64Array | undefined): number {
    const config = this.#config;
    const policy = this.#policy;
    const A = policy.numActions;
    const rows = observations.length;
    const logits = new Float64Array(rows * A);
    const out: FtwLossOut = { grad: new Float64Array(rows * A) };
    const selected = weights === undefined ? new Int32Array(rows) : Int32Array.from(actions);
    const rowWeights = weights ?? new Float64Array(rows);
    const snapshot = this.#reference();
    let reference: Float64Array | undefined;
    if (snapshot !== undefined) {
      reference = new Float64Array(rows * A);
      for (let r = 0; r < rows; r++)
        policy.logits(observations[r]!, reference.subarray(r * A, r * A + A), snapshot);
    }
    let loss = 0;
    for (let epoch = 0; epoch < config.epochs; epoch++) {
      for (let r = 0; r < rows; r++) policy.logits(observations[r]!, logits.subarray(r * A, r * A + A));
      const result = ftwLoss(
        {
          logits,
          rows,
          actions: A,
          selected,
          weights: rowWeights,
          beta: config.beta,
          kl: config.kl,
          normalize: weights === undefined ? 'sum' : 'mean',
          ...(reference === undefined ? {} : { reference: { logits: reference } }),
        },
        out,
      );
      loss = result.loss;
      const parameters = policy.parameters;
      if (this.#grad.length < parameters.length) this.#grad = new Float64Array(2 * parameters.length);
      const grad = this.#grad;
      grad.fill(0, 0, parameters.length);
      for (let r = 0; r < rows; r++) policy.backward(observations[r]!, result.grad, r * A, grad);
      this.#optimizer.step(parameters, grad);
    }
    return loss;
  }
}
