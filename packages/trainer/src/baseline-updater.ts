import {
  grpoAdvantages,
  type PolicyGradientOut,
  type PpoClipOut,
  ppoClipLoss,
  reinforceLoss,
} from '@ftw/objective';
import type { Episode } from './episode.js';
import type { Optimizer } from './optimizer.js';
import type { Policy } from './policy.js';
import { PolicyStep } from './policy-step.js';
import { trajectoryImportanceWeights } from './trajectory-importance-weights.js';
import { statsWithoutSelection, type Updater, type UpdaterState, type UpdateStats } from './updater.js';
import { checkChoice, checkInteger, checkNumber } from './validate.js';

/** The settings of {@link BaselineUpdater}. */
export interface BaselineOptions {
  /** The method: `reinforce`, `grpo` or `ppo`. */
  readonly method: 'reinforce' | 'grpo' | 'ppo';
  /** Optimiser steps per batch, ≥ 1 (PPO's epochs; 1 for the others in the comparisons). */
  readonly epochs: number;
  /** PPO/GRPO clipping range ε > 0. */
  readonly clip: number;
  /** Rate of the running-mean baseline, in (0, 1]. */
  readonly baselineRate: number;
}

/**
 * Checks every setting of {@link BaselineUpdater}.
 *
 * @param options - the settings
 * @returns `options`
 * @throws RangeError naming the first setting out of range and its value
 * @example
 * ```ts
 * checkBaselineOptions({ method: 'ppo', epochs: 4, clip: 0, baselineRate: 0.1 }); // RangeError: clip must be a finite number > 0, got 0
 * ```
 */
export function checkBaselineOptions<T extends BaselineOptions>(options: T): T {
  checkChoice('method', options.method, ['reinforce', 'grpo', 'ppo'] as const);
  checkInteger('epochs', options.epochs, 1);
  checkNumber('clip', options.clip, 0, true);
  checkNumber('baselineRate', options.baselineRate, 0, true);
  if (options.baselineRate > 1)
    throw new RangeError(`baselineRate must be <= 1, got ${options.baselineRate}`);
  return options;
}

/** The key of an episode's start observation: the number itself (d = 1), else its numbers joined. */
function startKey(episode: Episode, d: number): number | string {
  if (d === 1) return episode.observations[0]!;
  let key = '';
  for (let k = 0; k < d; k++) key += `${episode.observations[k]!},`;
  return key;
}

/** Orders two episodes by their start observations, number by number. */
function compareStarts(a: Episode, b: Episode, d: number): number {
  for (let k = 0; k < d; k++) {
    const difference = a.observations[k]! - b.observations[k]!;
    if (difference !== 0) return difference;
  }
  return 0;
}

/**
 * The policy-gradient baselines FTW is compared with. Each updates from the current iteration's E
 * episodes only (on-policy, no pool), on every step of every episode: episode e has length L_e, return
 * G_e and steps (o_t, a_t) with behaviour log-probabilities log q(a_t | o_t). The surrogate losses are
 * those of `@ftw/objective`; the gradient of each step's logits is back-propagated by the policy.
 *
 * - `reinforce` (`reinforceLoss`): L = −(1/E) Σ_e (G_e − b_e) Σ_t log π(a_t | o_t), the score-function
 *   estimator of the policy-gradient theorem for an undiscounted episodic return. b_e is a running mean
 *   of the returns of earlier episodes that started in the same observation o_0 (equal numbers) (rate `baselineRate`;
 *   for a start never seen, this batch's mean return from it), so it does not depend on the episode's
 *   own actions.
 * - `grpo` (`grpoAdvantages` then `ppoClipLoss`): a group is the batch's episodes that share a start
 *   observation; A_e = (G_e − mean) / std within the group (0 for a constant group); the clipped surrogate
 *   averaged per episode over its steps, L = −(1/E) Σ_e (1/L_e) Σ_t min(ρ_t A_e, clip(ρ_t, 1 ± ε) A_e)
 *   (DeepSeekMath, Eq. 3, one group per start), which with one epoch is the policy gradient itself.
 * - `ppo` (`ppoClipLoss`): L = −(1/S) Σ_steps min(ρ_t A_t, clip(ρ_t, 1 − ε, 1 + ε) A_t) over the S steps
 *   of the batch, ρ_t = π(a_t|o_t) / q(a_t|o_t) against the behaviour log-probabilities (frozen across
 *   the `epochs` steps on the same batch), with A_t = G_e − b_e of `reinforce` (no critic).
 *
 * Truncated importance weights (option `truncation: c`; the CLI's `--is truncate:c`). Asynchronous actors act with
 * older policy versions, so an episode's steps come from q_{v_t}, not from the policy being trained. Each
 * episode's contribution is then multiplied by w̄_e = min(w(τ_e), c), with
 * w(τ) = Π_t π_θ₀(a_t | o_t) / q_{v_t}(a_t | o_t) computed in log space (`trajectoryImportanceWeights`,
 * the same code as FTW's weighted elite counts) against θ₀, the current policy before this update, and
 * frozen across PPO's epochs. Exactly what is weighted:
 *
 * - `reinforce`: L = −(1/E) Σ_e w̄_e (G_e − b_e) Σ_t log π(a_t | o_t), the per-row weights w̄_e / E.
 * - `grpo`: L = −(1/E) Σ_e w̄_e (1/L_e) Σ_t min(ρ_t A_e, clip(ρ_t, 1 ± ε) A_e) with
 *   ρ_t = π(a_t|o_t) / π_θ₀(a_t|o_t).
 * - `ppo`: L = −(1/S) Σ_e w̄_e Σ_{t ∈ e} min(ρ_t A_t, clip(ρ_t, 1 ± ε) A_t), the same ρ_t = π / π_θ₀.
 *
 * Choice for GRPO and PPO (decoupled PPO, J. Hilton et al. 2022, "Batch size-invariance for policy
 * optimization", Eq. 3): with weights, the ratio's denominator becomes the policy before the update θ₀
 * (frozen across the epochs) instead of the behaviour q. Their ratio π/q already corrects the behaviour
 * step by step, so weighting it by w̄ would count the correction twice (a one-step episode would get
 * w̄·w ≈ w²). Split this way, w̄ corrects from the actors' versions to θ₀ (the staleness, truncated at
 * c), and the clipped ratio is only PPO's trust region around θ₀, the policy the update starts from;
 * at θ₀ the gradient is the w̄-weighted policy gradient. Without `truncation` nothing changes: the ratio
 * is against q and every weight is 1. The running-mean baselines b_e and GRPO's group statistics are not
 * weighted (they centre the returns; any b independent of the episode's actions keeps the estimator
 * unbiased). The weighted estimators are the truncated importance-sampling estimators of the policy
 * gradient at θ₀: biased toward the behaviour policies when c binds, with variance bounded by c.
 *
 * References: R. J. Williams (1992), "Simple statistical gradient-following algorithms"; Z. Shao et al.
 * (2024), "DeepSeekMath" (GRPO); J. Schulman et al. (2017), "Proximal Policy Optimization Algorithms",
 * Eq. 7; J. Hilton, K. Cobbe, J. Schulman (2022), "Batch size-invariance for policy optimization";
 * L. Espeholt et al. (2018), "IMPALA" (truncated importance weights).
 */
export class BaselineUpdater implements Updater {
  readonly #config: BaselineOptions;
  readonly #policy: Policy;
  /** Back-propagation and the optimiser's step, on the rows' blocks only when it can. */
  readonly #step: PolicyStep;
  /** The running-mean baseline by start observation (see `startKey`). */
  readonly #baseline = new Map<number | string, number>();
  readonly #truncation: number | null;

  /**
   * @param config - the settings
   * @param policy - the policy to update
   * @param optimizer - the optimiser on `policy.parameters`
   * @param options - `truncation`: weight each episode by min(w(τ), c) with this c (see above); omitted,
   *   no weights
   * @throws RangeError if a setting is out of range, or `truncation` is given and not a finite number > 0
   */
  constructor(
    config: BaselineOptions,
    policy: Policy,
    optimizer: Optimizer,
    options: { readonly truncation?: number | undefined } = {},
  ) {
    const c = options.truncation;
    if (c !== undefined && !(typeof c === 'number' && c > 0 && Number.isFinite(c))) {
      throw new RangeError(`options.truncation must be a finite number > 0, got ${String(c)}`);
    }
    checkBaselineOptions(config);
    checkInteger('policy.observationSize', policy.observationSize, 1);
    this.#config = config;
    this.#policy = policy;
    this.#step = new PolicyStep(policy, optimizer);
    this.#truncation = c ?? null;
  }

  update(episodes: readonly Episode[], _version: number): UpdateStats {
    const config = this.#config;
    const policy = this.#policy;
    const A = policy.numActions;
    const d = policy.observationSize;
    const E = episodes.length;
    let rows = 0;
    for (const e of episodes) rows += e.length;
    const observations = new Float64Array(rows * d);
    const selected = new Int32Array(rows);
    const behaviourLogProbs = new Float64Array(rows);
    const returns = new Float64Array(rows);
    const weights = new Float64Array(rows);
    // With truncation: w̄_e against θ₀ (before any epoch), and log π_θ₀ as the ratio's denominator.
    const weighted =
      this.#truncation === null
        ? null
        : trajectoryImportanceWeights(policy, E, (e) => episodes[e]!, this.#truncation);
    for (let e = 0, row = 0; e < E; e++) {
      const episode = episodes[e]!;
      const w = weighted === null ? 1 : weighted.weights.truncatedWeights[e]!;
      for (let k = 0; k < episode.length * d; k++) observations[row * d + k] = episode.observations[k]!;
      for (let t = 0; t < episode.length; t++, row++) {
        selected[row] = episode.actions[t]!;
        behaviourLogProbs[row] = weighted === null ? episode.logProbs[t]! : weighted.currentLogProbs[row]!;
        returns[row] = episode.return;
        weights[row] =
          config.method === 'grpo' ? w / (E * episode.length) : config.method === 'ppo' ? w / rows : w / E;
      }
    }
    const perEpisode =
      config.method === 'grpo' ? this.#groupAdvantages(episodes) : this.#runningBaseline(episodes);
    const perRow = new Float64Array(rows);
    for (let e = 0, row = 0; e < E; e++)
      for (let t = 0; t < episodes[e]!.length; t++) perRow[row++] = perEpisode[e]!;
    const advantages = config.method === 'ppo' ? returns.map((g, i) => g - perRow[i]!) : perRow;

    const logits = new Float64Array(rows * A);
    const out: PolicyGradientOut & PpoClipOut = { grad: new Float64Array(rows * A) };
    let loss = 0;
    this.#step.begin();
    for (let epoch = 0; epoch < config.epochs; epoch++) {
      policy.logits(observations, rows, logits);
      const result =
        config.method === 'reinforce'
          ? reinforceLoss(
              { logits, rows, actions: A, selected, returns, baseline: perRow, weights, normalize: 'sum' },
              out,
            )
          : ppoClipLoss(
              {
                logits,
                rows,
                actions: A,
                selected,
                behaviourLogProbs,
                advantages,
                clip: config.clip,
                ...(config.method === 'grpo' || weighted !== null
                  ? { weights, normalize: 'sum' as const }
                  : {}),
              },
              out,
            );
      loss = result.loss;
      this.#step.apply(observations, rows, result.grad);
    }
    return statsWithoutSelection(loss, this.#step.moved());
  }

  /** GRPO: one group per start observation among this batch's episodes, normalised within the group. */
  #groupAdvantages(episodes: readonly Episode[]): Float64Array {
    const d = this.#policy.observationSize;
    const order = episodes.map((_, i) => i).sort((a, b) => compareStarts(episodes[a]!, episodes[b]!, d));
    const sizes: number[] = [];
    for (let k = 0; k < order.length; k++) {
      if (k === 0 || compareStarts(episodes[order[k]!]!, episodes[order[k - 1]!]!, d) !== 0) sizes.push(1);
      else sizes[sizes.length - 1]! += 1;
    }
    const grouped = grpoAdvantages(
      Float64Array.from(order, (i) => episodes[i]!.return),
      sizes,
    );
    const advantages = new Float64Array(episodes.length);
    order.forEach((i, k) => {
      advantages[i] = grouped[k]!;
    });
    return advantages;
  }

  /**
   * The running-mean baselines (see {@link UpdaterState}), for a checkpoint.
   *
   * @returns a copy: [start observation, baseline] pairs
   */
  state(): UpdaterState {
    return { kind: 'baseline', baselines: Array.from(this.#baseline.entries()) };
  }

  /**
   * Goes on from a saved {@link BaselineUpdater.state} (a fresh updater of the same configuration).
   *
   * @param state - from `state()`
   * @throws RangeError naming the field when it is not a baseline state of [key, finite number] pairs
   *   (nothing changed)
   */
  restore(state: UpdaterState): void {
    if (state?.kind !== 'baseline' || !Array.isArray(state.baselines)) {
      throw new RangeError(
        `state.kind must be baseline with a baselines array, got ${String((state as { kind?: unknown } | null)?.kind)}`,
      );
    }
    const pairs = state.baselines.map((pair, i) => {
      const [key, value] = Array.isArray(pair) ? pair : [];
      if (
        (typeof key !== 'number' && typeof key !== 'string') ||
        typeof value !== 'number' ||
        !Number.isFinite(value)
      ) {
        throw new RangeError(
          `state.baselines[${i}] must be [a number or string, a finite number], got ${JSON.stringify(pair)}`,
        );
      }
      return [key, value] as const;
    });
    this.#baseline.clear();
    for (const [key, value] of pairs) this.#baseline.set(key, value);
  }

  /** REINFORCE and PPO: the running-mean baseline per episode, then the running means take the batch in. */
  #runningBaseline(episodes: readonly Episode[]): Float64Array {
    const d = this.#policy.observationSize;
    const baseline = this.#baseline;
    const keys = episodes.map((e) => startKey(e, d));
    // A start never seen: this batch's mean return from it.
    for (const key of keys) {
      if (baseline.has(key)) continue;
      let sum = 0;
      let n = 0;
      for (let q = 0; q < episodes.length; q++) {
        if (keys[q] === key) {
          sum += episodes[q]!.return;
          n++;
        }
      }
      baseline.set(key, sum / n);
    }
    const perEpisode = Float64Array.from(keys, (key) => baseline.get(key)!);
    episodes.forEach((e, q) => {
      const b = baseline.get(keys[q]!)!;
      baseline.set(keys[q]!, b + this.#config.baselineRate * (e.return - b));
    });
    return perEpisode;
  }
}
