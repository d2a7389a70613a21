import { type PolicyShift, policyShift } from '@ftw/objective';
import { type BaselineOptions, BaselineUpdater } from './baseline-updater.js';
import type { Environment } from './environment.js';
import { checkAlike, checkFits, EpisodeCollector } from './episode-collector.js';
import { eliteSelector, type FtwOptions, FtwUpdater } from './ftw-updater.js';
import { createOptimizer, type Optimizer } from './optimizer.js';
import type { Policy } from './policy.js';
import { PolicyShiftMeter } from './policy-shift-meter.js';
import { stepsBlocksOnly } from './policy-step.js';
import { ProbedTasks, type ProbeOptions } from './probed-tasks.js';
import type { TaskEnvironment } from './task-environment.js';
import { movedBy, type Updater } from './updater.js';
import { checkChoice, checkInteger } from './validate.js';

/** The state after one training iteration, as {@link train} reports it. */
export interface IterationMetrics {
  /** 1-based iteration. */
  readonly iteration: number;
  /** Environment steps so far (the sampling budget spent). */
  readonly samples: number;
  /** Mean return of this iteration's episodes. */
  readonly reward: number;
  /**
   * The environment's score after the update (`Environment.evaluate`), or null without one. With
   * {@link TrainOptions.evaluateEvery} > 1, an iteration not evaluated carries the last evaluation's score
   * (iteration {@link IterationMetrics.evaluatedAt}).
   */
  readonly score: number | null;
  /**
   * The evaluation's further figures, when it reports some (carried as `score` is); with the `probe`
   * option also `probeKeptShare`, the share of this iteration's probed candidates kept.
   */
  readonly evaluation: Readonly<Record<string, number>> | undefined;
  /**
   * The iteration whose evaluation `score` reports: this one when it was evaluated, an earlier one when
   * `evaluateEvery` skipped it; null without `Environment.evaluate`.
   */
  readonly evaluatedAt: number | null;
  /** Cumulative expected regret of the acting policies (`Environment.stepRegret`), or null without one. */
  readonly regret: number | null;
  /** Mean KL(π_before ‖ π_after) of this update over the measured observations (0 when no update). */
  readonly klMean: number;
  /** Max of that KL. */
  readonly klMax: number;
  /** Max total-variation distance moved (TRPO's α). */
  readonly tvMax: number;
  /** Whether the policy was updated (false during FTW's warm-up, or when nothing was selectable). */
  readonly updated: boolean;
  /** Mean return of the selected elites, weighted by selection count (FTW); null otherwise. */
  readonly eliteMean: number | null;
  /** Standard deviation of the selected returns (FTW); null otherwise. */
  readonly eliteSpread: number | null;
  /** Σ selection counts (J·K without a threshold; FTW); null otherwise. */
  readonly selected: number | null;
  /** Pool size when the update ran (FTW); null otherwise. */
  readonly poolSize: number | null;
  /** Mean age in policy versions of the trajectories in the pool (FTW); null otherwise. */
  readonly poolStaleness: number | null;
  /** Mean age of the selected trajectories, repeats included (FTW); null otherwise. */
  readonly selectionStaleness: number | null;
  /** Share of the selection count on failures (FTW with `failureReturn`); null otherwise. */
  readonly failureShare: number | null;
  /** Loss at the update's last gradient step; null without an update. */
  readonly loss: number | null;
}

/** What {@link train} returns. */
export interface TrainResult {
  /** One entry per iteration run (none with `keepMetrics: false`). */
  readonly metrics: readonly IterationMetrics[];
  /** Environment steps taken. */
  readonly samples: number;
  /** Episodes collected. */
  readonly episodes: number;
  /** Updates made (the final policy version). */
  readonly updates: number;
  /** Mean return per episode. */
  readonly meanReward: number;
}

/** The options of {@link train}. */
export interface TrainOptions {
  /**
   * The environment to act in, or several instances of it stepped in lockstep, one batched
   * `policy.logits` call per step for all of them (see `EpisodeCollector`). The first instance evaluates
   * the policy and tells `observationCount`.
   */
  readonly env: Environment | readonly Environment[];
  /** The policy to train (its `parameters` change in place). */
  readonly policy: Policy;
  /** Training iterations, ≥ 1: each collects `rollouts` episodes, then updates. */
  readonly iterations: number;
  /** Uniform on [0, 1): draws the actions; with several environment instances, one stream per instance. */
  readonly random: (() => number) | readonly (() => number)[];
  /**
   * Uniform on [0, 1): draws FTW's minibatches; a stream of its own keeps the actions the same whatever
   * the selection draws.
   * @defaultValue `random` (its first stream)
   */
  readonly selectionRandom?: () => number;
  /** @defaultValue `'ftw'` */
  readonly method?: 'ftw' | 'reinforce' | 'grpo' | 'ppo';
  /** Episodes per iteration, ≥ 1. @defaultValue 1 */
  readonly rollouts?: number;
  /** `sgd`, `adam`, or an optimiser of your own on `policy.parameters`. @defaultValue `'sgd'` */
  readonly optimizer?: 'sgd' | 'adam' | Optimizer;
  /** Learning rate > 0 of a named optimiser. @defaultValue 0.08 */
  readonly lr?: number;
  /**
   * FTW's settings. @defaultValue the small reproduction's: N = 128, C = 5, K = 1, J = 4, β = 0.05,
   * reverse KL to a uniform reference, sampled selection, random tie rule, no threshold, warm-up C, no
   * version bound, 1 epoch
   */
  readonly ftw?: Partial<FtwOptions>;
  /** The baselines' settings. @defaultValue clip 0.2, baselineRate 0.1, epochs 4 for PPO and 1 otherwise */
  readonly baseline?: Partial<Omit<BaselineOptions, 'method'>>;
  /** Stop once this many environment steps are taken (probe steps included). @defaultValue no limit */
  readonly maxSamples?: number;
  /**
   * Difficulty probes: before each iteration, draw `candidates` tasks of `env` (then a
   * {@link TaskEnvironment}, or several instances of one), play each `probes` times with the current
   * policy (on the first instance) and collect the iteration's episodes, on every instance, on those
   * with 0 < successes < probes ({@link ProbedTasks}). Probe steps count in `samples` and `maxSamples`. @defaultValue none: episodes start with `env.reset()`
   */
  readonly probe?: ProbeOptions;
  /**
   * Evaluate the policy (`Environment.evaluate`) after the first iteration, every `evaluateEvery`-th
   * (iterations n, 2n, …) and the last one (the final iteration, or the one `maxSamples` stops at), an
   * integer ≥ 1; the iterations in between carry the last evaluation (see
   * {@link IterationMetrics.evaluatedAt}), so an environment with an evaluation scores every iteration.
   * @defaultValue 1: after every iteration
   */
  readonly evaluateEvery?: number;
  /** Called after each iteration with its metrics (progress). */
  readonly onIteration?: (metrics: IterationMetrics) => void;
  /**
   * Whether {@link TrainResult.metrics} keeps every iteration's metrics; `false` for a caller that
   * streams them from `onIteration` (a long run then holds none in memory).
   * @defaultValue true
   */
  readonly keepMetrics?: boolean;
}

/** The small reproduction's FTW settings, the defaults of {@link TrainOptions.ftw}. */
export const DEFAULT_FTW_OPTIONS: Readonly<Omit<FtwOptions, 'warmup'>> = {
  capacity: 128,
  batchSize: 5,
  keep: 1,
  batches: 4,
  beta: 0.05,
  kl: 'reverse',
  reference: 'uniform',
  selection: 'sampled',
  tieRule: 'random',
  threshold: null,
  maxVersionLag: null,
  epochs: 1,
};

const NO_SHIFT: PolicyShift = { klMean: 0, klMax: 0, tvMean: 0, tvMax: 0 };

/**
 * Trains a policy on an environment: each iteration collects `rollouts` episodes with the current policy
 * (every step's behaviour log-probability and version recorded), lets the method's updater change the
 * policy (FTW through its replay pool; REINFORCE, GRPO and PPO on the iteration's episodes), measures
 * how far the update moved the policy, and evaluates it when the environment can.
 *
 * Every option is checked before anything runs; the policy and the environment are untouched when one
 * is refused. The same options and random streams give the same run, bit for bit.
 *
 * @param options - see {@link TrainOptions}
 * @returns per-iteration metrics and totals
 * @throws RangeError naming an option out of range and its value (C > N, K > C, β < 0, …)
 * @throws TrainerError `ACTION_COUNT_MISMATCH` / `OBSERVATION_SIZE_MISMATCH` when the policy does not fit
 *   the environment, `NON_FINITE_LOGITS` when it returns a NaN or infinite logit
 * @example
 * ```ts
 * const result = train({ env, policy: new TabularPolicy(2), iterations: 100, random: Math.random });
 * result.metrics.at(-1)?.reward; // the last iteration's mean return
 * ```
 */
export function train(options: TrainOptions): TrainResult {
  const { policy } = options;
  const envs: readonly Environment[] = Array.isArray(options.env)
    ? options.env
    : [options.env as Environment];
  checkInteger('env.length', envs.length, 1);
  const env = envs[0]!;
  const method = checkChoice('method', options.method ?? 'ftw', ['ftw', 'reinforce', 'grpo', 'ppo'] as const);
  const iterations = checkInteger('iterations', options.iterations, 1);
  const rollouts = checkInteger('rollouts', options.rollouts ?? 1, 1);
  const randoms = typeof options.random === 'function' ? [options.random] : options.random;
  if (
    !Array.isArray(randoms) ||
    randoms.length !== envs.length ||
    randoms.some((r) => typeof r !== 'function')
  ) {
    throw new TypeError(
      `random must be ${envs.length === 1 ? 'a function' : `${envs.length} functions (one per environment instance)`} returning uniforms on [0, 1), got ${String(options.random)}`,
    );
  }
  const evaluateEvery = checkInteger('evaluateEvery', options.evaluateEvery ?? 1, 1);
  const maxSamples = options.maxSamples;
  if (maxSamples !== undefined) checkInteger('maxSamples', maxSamples, 1);
  checkAlike(envs);
  checkFits(env, policy);
  const optimizer =
    typeof options.optimizer === 'object'
      ? options.optimizer
      : createOptimizer(options.optimizer ?? 'sgd', options.lr ?? 0.08);
  const updater = createUpdater(method, options, optimizer, randoms[0]!);
  const probed =
    options.probe === undefined
      ? null
      : new ProbedTasks(envs as readonly TaskEnvironment[], policy, options.probe, randoms[0]!);
  const collector = new EpisodeCollector(probed?.instances ?? envs, policy, rollouts);
  const counted = env.observationCount !== undefined;
  const meter = counted ? new PolicyShiftMeter(policy, stepsBlocksOnly(policy, optimizer)) : null;
  const rowsShift = counted ? null : new VisitedShift(policy);

  const hasEvaluate = env.evaluate !== undefined;
  const keep = options.keepMetrics !== false;
  const { onIteration } = options;
  const random = envs.length === 1 ? randoms[0]! : randoms;
  const metrics: IterationMetrics[] = [];
  let samples = 0;
  let episodes = 0;
  let regret: number | null = null;
  let returnTotal = 0;
  let version = 0;
  let evaluation: ReturnType<NonNullable<Environment['evaluate']>> | null = null;
  let evaluatedAt: number | null = null;
  // Whether an update went unevaluated: the next evaluation is then told that any observation may have moved.
  let unevaluatedUpdate = false;
  for (let iteration = 1; iteration <= iterations; iteration++) {
    const round = probed === null ? null : probed.probe();
    if (round !== null) samples += round.steps;
    const batch = collector.collect(version, random);
    samples += batch.steps;
    episodes += rollouts;
    returnTotal += batch.returnSum;
    if (batch.regret !== null) regret = (regret ?? 0) + batch.regret;
    if (meter !== null) meter.beforeUpdate(env.observationCount!);
    else rowsShift!.before(collector.episodes, collector.stepLogits);
    const stats = updater.update(collector.episodes, version);
    if (stats !== null) version++;
    const shift =
      stats === null
        ? NO_SHIFT
        : meter !== null
          ? meter.measure(stats.moved, env.observationCount!)
          : rowsShift!.after();
    const evaluateNow =
      iteration === 1 ||
      iteration === iterations ||
      (maxSamples !== undefined && samples >= maxSamples) ||
      iteration % evaluateEvery === 0;
    if (hasEvaluate && evaluateNow) {
      evaluation = env.evaluate!(policy, unevaluatedUpdate ? null : movedBy(stats));
      evaluatedAt = iteration;
      unevaluatedUpdate = false;
    } else if (stats !== null) unevaluatedUpdate = true;
    const entry: IterationMetrics = {
      iteration,
      samples,
      reward: batch.returnSum / rollouts,
      score: evaluation === null ? null : evaluation.score,
      evaluation:
        round === null ? evaluation?.details : { ...evaluation?.details, probeKeptShare: round.keptShare },
      evaluatedAt,
      regret,
      klMean: shift.klMean,
      klMax: shift.klMax,
      tvMax: shift.tvMax,
      updated: stats !== null,
      eliteMean: stats === null ? null : stats.eliteMean,
      eliteSpread: stats === null ? null : stats.eliteSpread,
      selected: stats === null ? null : stats.selected,
      poolSize: stats === null ? null : stats.poolSize,
      poolStaleness: stats === null ? null : stats.poolStaleness,
      selectionStaleness: stats === null ? null : stats.selectionStaleness,
      failureShare: stats?.failureShare ?? null,
      loss: stats === null ? null : stats.loss,
    };
    if (keep) metrics.push(entry);
    if (onIteration !== undefined) onIteration(entry);
    if (maxSamples !== undefined && samples >= maxSamples) break;
  }
  return { metrics, samples, episodes, updates: version, meanReward: returnTotal / episodes };
}

/** The updater of a method, its settings completed with the defaults and checked. */
function createUpdater(
  method: 'ftw' | 'reinforce' | 'grpo' | 'ppo',
  options: TrainOptions,
  optimizer: Optimizer,
  random: () => number,
): Updater {
  const { policy } = options;
  if (method === 'ftw') {
    const given = options.ftw ?? {};
    const batchSize = given.batchSize ?? DEFAULT_FTW_OPTIONS.batchSize;
    const ftw: FtwOptions = { ...DEFAULT_FTW_OPTIONS, warmup: batchSize, ...given };
    const select = eliteSelector(ftw, options.selectionRandom ?? random);
    return new FtwUpdater(ftw, policy, optimizer, select);
  }
  const given = options.baseline ?? {};
  const baseline: BaselineOptions = {
    method,
    clip: given.clip ?? 0.2,
    baselineRate: given.baselineRate ?? 0.1,
    epochs: given.epochs ?? (method === 'ppo' ? 4 : 1),
  };
  return new BaselineUpdater(baseline, policy, optimizer);
}

/**
 * The policy shift over the observations of the iteration's episodes, for an environment without dense
 * ids: their logits before the update, then after it.
 */
class VisitedShift {
  readonly #policy: Policy;
  #observations = new Float64Array(0);
  #before = new Float64Array(0);
  #after = new Float64Array(0);
  #rows = 0;
  readonly #out: PolicyShift = { klMean: 0, klMax: 0, tvMean: 0, tvMax: 0 };

  constructor(policy: Policy) {
    this.#policy = policy;
  }

  /** Takes the iteration's rows and their logits before the update: the behaviour policy's, as it acted. */
  before(
    episodes: readonly { readonly length: number; readonly observations: ArrayLike<number> }[],
    logits: readonly Float64Array[],
  ): void {
    const d = this.#policy.observationSize;
    const A = this.#policy.numActions;
    let rows = 0;
    for (const e of episodes) rows += e.length;
    if (this.#observations.length < rows * d) {
      this.#observations = new Float64Array(2 * rows * d);
      this.#before = new Float64Array(2 * rows * A);
      this.#after = new Float64Array(2 * rows * A);
    }
    let at = 0;
    let z = 0;
    for (const [i, e] of episodes.entries()) {
      for (let k = 0; k < e.length * d; k++) this.#observations[at++] = e.observations[k]!;
      this.#before.set(logits[i]!.subarray(0, e.length * A), z);
      z += e.length * A;
    }
    this.#rows = rows;
  }

  after(): PolicyShift {
    const rows = this.#rows;
    const A = this.#policy.numActions;
    this.#policy.logits(this.#observations, rows, this.#after);
    return policyShift(this.#before.subarray(0, rows * A), this.#after.subarray(0, rows * A), A, this.#out);
  }
}
