import { type FtwLossOut, ftwLoss, trajectoryWeights } from '@ftw/objective';
import { ReplayPool } from '@ftw/replay-pool';
import { expectedCounts, selectElites } from '@ftw/selection';
import type { TrainConfig } from '../config/train-config.js';
import type { Optimizer } from './optimizer.js';
import type { Rollout, Updater, UpdateStats } from './rollout.js';
import type { TabularPolicy } from './tabular-policy.js';
import { orderTies } from './tie-order.js';

/**
 * FTW's update (arXiv 2610.03361, Algorithm 2) on a tabular policy.
 *
 * Each iteration pushes its trajectories into a FIFO `ReplayPool` of capacity N; once the pool holds
 * `warmup` trajectories, every iteration selects elites among the selectable ones (`selectElites`: J
 * minibatches of C, top K of each; or `expectedCounts`, the exact expected counts, for the `expected`
 * mode) and takes `epochs` optimiser steps on
 *
 *   L(θ) = −(1/M) Σ_i m_i log π_θ(a_i | o_i) + β · mean_rows D(π_θ, π_ref),
 *
 * with m_i the selection count of trajectory i and M = Σ m_i (`ftwLoss` from `@ftw/objective`). The
 * gradient with respect to each selected row's logits is scattered back onto the table row of its
 * observation. When a threshold leaves no elite, only the KL term acts (nothing when β = 0).
 */
export class FtwUpdater implements Updater {
  private readonly config: TrainConfig;
  private readonly policy: TabularPolicy;
  private readonly optimizer: Optimizer;
  private readonly random: () => number;
  private readonly pool: ReplayPool;
  private readonly initial: Float64Array;
  private readonly tableGrad: Float64Array;

  /**
   * @param config - the resolved configuration (FTW fields)
   * @param policy - the policy to update
   * @param optimizer - the optimiser on `policy.logits`
   * @param random - the selection stream, uniform on [0, 1)
   */
  constructor(config: TrainConfig, policy: TabularPolicy, optimizer: Optimizer, random: () => number) {
    this.config = config;
    this.policy = policy;
    this.optimizer = optimizer;
    this.random = random;
    this.pool = new ReplayPool(
      config.maxVersionLag === null
        ? { capacity: config.capacity }
        : { capacity: config.capacity, maxVersionLag: config.maxVersionLag },
    );
    this.initial = Float64Array.from(policy.logits);
    this.tableGrad = new Float64Array(policy.logits.length);
  }

  update(rollouts: readonly Rollout[], version: number): UpdateStats | null {
    const { config, pool } = this;
    for (const r of rollouts) {
      pool.push({
        actions: [r.action],
        logProbs: [r.logProb],
        versions: r.version,
        return: r.reward,
        observations: [r.observation],
      });
    }
    if (pool.size < config.warmup) return null;
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
        ? selectElites(ordered.values, options, this.random).counts
        : expectedCounts(ordered.values, options);

    // Rows: the selected trajectories' steps; weights m_i / (L_i · M) from `trajectoryWeights`.
    const observations: number[] = [];
    const actions: number[] = [];
    const selectedCounts: number[] = [];
    const lengths: number[] = [];
    const selectedPositions: number[] = [];
    let total = 0;
    let sum = 0;
    let sumSquares = 0;
    for (let i = 0; i < counts.length; i++) {
      const m = counts[i]!;
      if (m === 0) continue;
      const trajectory = pool.at(positions[i]!);
      const r = returns[i]!;
      total += m;
      sum += m * r;
      sumSquares += m * r * r;
      selectedPositions.push(positions[i]!);
      selectedCounts.push(m);
      const steps = trajectory.actions.length;
      lengths.push(steps);
      for (let t = 0; t < steps; t++) {
        observations.push(trajectory.observations === undefined ? 0 : trajectory.observations[t]!);
        actions.push(trajectory.actions[t]!);
      }
    }
    if (total === 0 && config.beta === 0) return null;

    const poolStaleness = pool.staleness(version).trajectoryAge.mean;
    const selectionStaleness =
      selectedPositions.length === 0
        ? null
        : pool.selectionStaleness(selectedPositions, version).trajectoryAge.mean;
    const weights = total > 0 ? trajectoryWeights(selectedCounts, lengths) : undefined;
    const loss = this.descend(observations, actions, weights);
    const eliteMean = total > 0 ? sum / total : null;
    return {
      eliteMean,
      eliteSpread:
        eliteMean === null ? null : Math.sqrt(Math.max(0, sumSquares / total - eliteMean * eliteMean)),
      selected: total,
      poolSize: pool.size,
      poolStaleness,
      selectionStaleness,
      loss,
    };
  }

  /**
   * `epochs` optimiser steps on the FTW loss over the given rows; returns the last loss value. Without
   * weights (a threshold left no elite) the rows are every observation with zero weight, so only the KL term
   * acts.
   */
  private descend(observations: number[], actions: number[], weights: Float64Array | undefined): number {
    const { config, policy } = this;
    const A = policy.actions;
    const rowObs =
      weights === undefined ? Array.from({ length: policy.observations }, (_, o) => o) : observations;
    const rows = rowObs.length;
    const logits = new Float64Array(rows * A);
    const out: FtwLossOut = { grad: new Float64Array(rows * A) };
    const selected = weights === undefined ? new Int32Array(rows) : Int32Array.from(actions);
    const rowWeights = weights ?? new Float64Array(rows);
    const source =
      config.reference === 'uniform'
        ? undefined
        : config.reference === 'initial'
          ? this.initial
          : policy.logits.slice();
    let reference: Float64Array | undefined;
    if (source !== undefined) {
      reference = new Float64Array(rows * A);
      for (let r = 0; r < rows; r++)
        reference.set(source.subarray(rowObs[r]! * A, rowObs[r]! * A + A), r * A);
    }
    let loss = 0;
    for (let epoch = 0; epoch < config.epochs; epoch++) {
      for (let r = 0; r < rows; r++)
        logits.set(policy.logits.subarray(rowObs[r]! * A, rowObs[r]! * A + A), r * A);
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
      this.tableGrad.fill(0);
      const grad = result.grad;
      for (let r = 0; r < rows; r++) {
        const base = rowObs[r]! * A;
        for (let a = 0; a < A; a++) this.tableGrad[base + a] = this.tableGrad[base + a]! + grad[r * A + a]!;
      }
      this.optimizer.step(policy.logits, this.tableGrad);
    }
    return loss;
  }
}
