import {
  grpoAdvantages,
  type PolicyGradientOut,
  type PpoClipOut,
  ppoClipLoss,
  reinforceLoss,
} from '@ftw/objective';
import type { TrainConfig } from '../config/train-config.js';
import type { Optimizer } from './optimizer.js';
import type { Rollout, Updater, UpdateStats } from './rollout.js';
import type { TabularPolicy } from './tabular-policy.js';

/**
 * The policy-gradient baselines FTW is compared with. Each updates from the current iteration's rollouts
 * only (on-policy, no pool), with the surrogate losses of `@ftw/objective`:
 *
 * - `reinforce` (`reinforceLoss`): −mean_i (G_i − b_i) log π(a_i | o_i), b_i a running mean of the rewards
 *   seen in observation o_i before this batch (rate `baselineRate`; for an observation never seen, the
 *   batch's mean reward in it).
 * - `grpo` (`grpoAdvantages` then `ppoClipLoss`): a group is the iteration's rollouts that share an
 *   observation; A_i = (r_i − mean) / std within the group (zero for a constant group); the clipped
 *   surrogate on them, which with one epoch is the policy gradient itself.
 * - `ppo` (`ppoClipLoss`): −mean_i min(ρ_i A_i, clip(ρ_i, 1 − ε, 1 + ε) A_i), ρ_i = π(a_i|o_i) / q(a_i|o_i)
 *   against the behaviour log-probabilities, over `epochs` steps on the same batch, with the advantages
 *   of `reinforce` (no critic: a bandit episode has one step, so the running mean is the value estimate).
 *
 * References: R. J. Williams (1992), "Simple statistical gradient-following algorithms"; Z. Shao et al.
 * (2024), "DeepSeekMath" (GRPO); J. Schulman et al. (2017), "Proximal Policy Optimization Algorithms".
 */
export class BaselineUpdater implements Updater {
  private readonly config: TrainConfig;
  private readonly policy: TabularPolicy;
  private readonly optimizer: Optimizer;
  private readonly baseline: Float64Array;
  private readonly seen: Uint8Array;
  private readonly tableGrad: Float64Array;

  /**
   * @param config - the resolved configuration (`method` is `reinforce`, `grpo` or `ppo`)
   * @param policy - the policy to update
   * @param optimizer - the optimiser on `policy.logits`
   */
  constructor(config: TrainConfig, policy: TabularPolicy, optimizer: Optimizer) {
    this.config = config;
    this.policy = policy;
    this.optimizer = optimizer;
    this.baseline = new Float64Array(policy.observations);
    this.seen = new Uint8Array(policy.observations);
    this.tableGrad = new Float64Array(policy.logits.length);
  }

  update(rollouts: readonly Rollout[]): UpdateStats {
    const { config, policy } = this;
    const rows = rollouts.length;
    const A = policy.actions;
    const selected = Int32Array.from(rollouts, (r) => r.action);
    const returns = Float64Array.from(rollouts, (r) => r.reward);
    const advantages = config.method === 'grpo' ? this.groupAdvantages(rollouts) : undefined;
    const baseline = config.method === 'grpo' ? undefined : this.runningBaseline(rollouts);
    const behaviourLogProbs = Float64Array.from(rollouts, (r) => r.logProb);
    const logits = new Float64Array(rows * A);
    const out: PolicyGradientOut & PpoClipOut = { grad: new Float64Array(rows * A) };
    let loss = 0;
    for (let epoch = 0; epoch < config.epochs; epoch++) {
      for (let i = 0; i < rows; i++) {
        const o = rollouts[i]!.observation;
        logits.set(policy.logits.subarray(o * A, o * A + A), i * A);
      }
      const result =
        config.method === 'reinforce'
          ? reinforceLoss({ logits, rows, actions: A, selected, returns, baseline: baseline! }, out)
          : ppoClipLoss(
              {
                logits,
                rows,
                actions: A,
                selected,
                behaviourLogProbs,
                advantages: advantages ?? returns.map((g, i) => g - baseline![i]!),
                clip: config.clip,
              },
              out,
            );
      loss = result.loss;
      this.tableGrad.fill(0);
      const grad = result.grad;
      for (let i = 0; i < rows; i++) {
        const base = rollouts[i]!.observation * A;
        for (let a = 0; a < A; a++) this.tableGrad[base + a] = this.tableGrad[base + a]! + grad[i * A + a]!;
      }
      this.optimizer.step(policy.logits, this.tableGrad);
    }
    return {
      eliteMean: null,
      eliteSpread: null,
      selected: null,
      poolSize: null,
      poolStaleness: null,
      selectionStaleness: null,
      loss,
    };
  }

  /** GRPO: one group per observation among this iteration's rollouts, normalised within the group. */
  private groupAdvantages(rollouts: readonly Rollout[]): Float64Array {
    const order = rollouts
      .map((_, i) => i)
      .sort((a, b) => rollouts[a]!.observation - rollouts[b]!.observation);
    const sizes: number[] = [];
    for (let k = 0; k < order.length; k++) {
      const o = rollouts[order[k]!]!.observation;
      if (k === 0 || o !== rollouts[order[k - 1]!]!.observation) sizes.push(1);
      else sizes[sizes.length - 1]! += 1;
    }
    const grouped = grpoAdvantages(
      Float64Array.from(order, (i) => rollouts[i]!.reward),
      sizes,
    );
    const advantages = new Float64Array(rollouts.length);
    order.forEach((i, k) => {
      advantages[i] = grouped[k]!;
    });
    return advantages;
  }

  /** REINFORCE and PPO: the running-mean baseline per row, then the running means take the batch in. */
  private runningBaseline(rollouts: readonly Rollout[]): Float64Array {
    const { baseline, seen } = this;
    for (const r of rollouts) {
      if (seen[r.observation] === 1) continue;
      let sum = 0;
      let n = 0;
      for (const q of rollouts) {
        if (q.observation === r.observation) {
          sum += q.reward;
          n++;
        }
      }
      baseline[r.observation] = sum / n;
      seen[r.observation] = 1;
    }
    const perRow = Float64Array.from(rollouts, (r) => baseline[r.observation]!);
    for (const r of rollouts) {
      baseline[r.observation] =
        baseline[r.observation]! + this.config.baselineRate * (r.reward - baseline[r.observation]!);
    }
    return perRow;
  }
}
