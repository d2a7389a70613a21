import { grpoAdvantages, ppoClipLoss, reinforceLoss } from '@ftw/objective';
import type { TrainConfig } from '../config/train-config.js';
import type { Optimizer } from './optimizer.js';
import type { Rollout, UpdateStats, Updater } from './rollout.js';
import type { TabularPolicy } from './tabular-policy.js';

/**
 * The policy-gradient baselines FTW is compared with, each updating from the current iteration's rollouts
 * only (on-policy, no pool), with the surrogate losses of `@ftw/objective`:
 *
 * - `reinforce`: −mean_i A_i log π(a_i | o_i) with A_i = r_i − b(o_i), b a running mean of the rewards seen
 *   in observation o (rate `baselineRate`; before the first reward of o, the batch's mean reward in o).
 * - `grpo`: advantages normalised within each group, a group being the iteration's rollouts that share an
 *   observation: A_i = (r_i − mean) / std, zero for a constant group; PPO's clipped surrogate on them
 *   (with one epoch, the policy gradient itself).
 * - `ppo`: the clipped surrogate −mean_i min(ρ_i A_i, clip(ρ_i, 1 − ε, 1 + ε) A_i), ρ_i = π(a_i|o_i) /
 *   q(a_i|o_i) against the behaviour log-probabilities, over `epochs` steps on the same batch, with the
 *   running-mean advantages of `reinforce` (no critic: the bandit has one step).
 *
 * References: R. J. Williams (1992), "Simple statistical gradient-following algorithms"; Z. Shao et al.
 * (2024), "DeepSeekMath", GRPO; J. Schulman et al. (2017), "Proximal Policy Optimization Algorithms".
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

  update(rollouts: readonly Rollout[]): UpdateStats | null {
    const { config, policy } = this;
    const rows = rollouts.length;
    const A = policy.actions;
    const advantages = config.method === 'grpo' ? this.groupAdvantages(rollouts) : this.baselineAdvantages(rollouts);
    const selected = Int32Array.from(rollouts, (r) => r.action);
    const behaviour = Float64Array.from(rollouts, (r) => r.logProb);
    const logits = new Float64Array(rows * A);
    const grad = new Float64Array(rows * A);
    let loss = 0;
    for (let epoch = 0; epoch < config.epochs; epoch++) {
      for (let i = 0; i < rows; i++) {
        const o = rollouts[i]!.observation;
        logits.set(policy.logits.subarray(o * A, o * A + A), i * A);
      }
      const result =
        config.method === 'reinforce'
          ? reinforceLoss({ logits, rows, actions: A, selected, advantages }, { out: grad })
          : ppoClipLoss(
              { logits, rows, actions: A, selected, advantages, behaviourLogProbs: behaviour, clip: config.clip },
              { out: grad },
            );
      loss = result.loss;
      this.tableGrad.fill(0);
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

  /** GRPO: one group per observation among this iteration's rollouts. */
  private groupAdvantages(rollouts: readonly Rollout[]): Float64Array {
    const advantages = new Float64Array(rollouts.length);
    const groups = new Map<number, number[]>();
    rollouts.forEach((r, i) => {
      const members = groups.get(r.observation);
      if (members === undefined) groups.set(r.observation, [i]);
      else members.push(i);
    });
    for (const members of groups.values()) {
      const normalised = grpoAdvantages(Float64Array.from(members, (i) => rollouts[i]!.reward));
      members.forEach((i, k) => {
        advantages[i] = normalised[k]!;
      });
    }
    return advantages;
  }

  /** REINFORCE and PPO: reward minus a running mean per observation, updated after use. */
  private baselineAdvantages(rollouts: readonly Rollout[]): Float64Array {
    const { baseline, seen } = this;
    for (const o of new Set(rollouts.map((r) => r.observation))) {
      if (seen[o] === 1) continue;
      let sum = 0;
      let n = 0;
      for (const r of rollouts) {
        if (r.observation === o) {
          sum += r.reward;
          n++;
        }
      }
      baseline[o] = sum / n;
      seen[o] = 1;
    }
    const advantages = Float64Array.from(rollouts, (r) => r.reward - baseline[r.observation]!);
    for (const r of rollouts) {
      baseline[r.observation] = baseline[r.observation]! + this.config.baselineRate * (r.reward - baseline[r.observation]!);
    }
    return advantages;
  }
}
