import type { Environment, EnvironmentStep, Evaluation } from './environment.js';
import { checkAlike } from './episode-collector.js';
import type { Observation, Policy } from './policy.js';
import { checkTaskEnvironment, probeTasks } from './probe-tasks.js';
import type { TaskEnvironment } from './task-environment.js';
import { TrainerError } from './trainer-error.js';
import { checkInteger } from './validate.js';

/** The settings of a {@link ProbedTasks} (`train`'s `probe` option). */
export interface ProbeOptions {
  /** Episodes per candidate task n, an integer ≥ 1; a task is kept when 0 < successes < n. */
  readonly probes: number;
  /** Candidate tasks drawn and probed per round, an integer ≥ 1. */
  readonly candidates: number;
}

/** What one {@link ProbedTasks.probe} round did. */
export interface ProbeRound {
  /** Environment steps of the round's probe episodes (count them in the budget). */
  readonly steps: number;
  /** Kept candidates / candidates probed, in [0, 1]. */
  readonly keptShare: number;
}

/**
 * A task environment whose training episodes are played on the tasks the last difficulty probe kept:
 * each {@link ProbedTasks.probe} round draws `candidates` tasks uniformly (with replacement) from all
 * `taskCount`, probes each `probes` times with the current policy ({@link probeTasks}), and from then on
 * `reset()` starts episodes on the kept tasks in turn (the first kept, the second, …, then the first
 * again). When a round keeps none, episodes cycle over its candidates instead, so training never stalls
 * (the kept share then reads 0). Everything else (`step`, `evaluate`, `stepRegret`, ids) is the wrapped
 * environment's.
 *
 * @example
 * ```ts
 * const probed = new ProbedTasks(levels, policy, { probes: 8, candidates: 16 }, random);
 * const { steps, keptShare } = probed.probe(); // then collect episodes on probed
 * ```
 */
export class ProbedTasks<O extends Observation = Observation> implements Environment<O> {
  readonly numActions: number;
  readonly observationSize?: number;
  /** The wrapped environment's, read afresh each time (it may grow); absent when it has none. */
  declare readonly observationCount?: number;
  readonly evaluate?: (policy: Policy, moved?: Int32Array | null) => Evaluation;
  readonly stepRegret?: (observation: O, probabilities: Float64Array) => number;
  /**
   * One environment per instance given, to be stepped together (an `EpisodeCollector`'s lanes): this
   * object for the first, and for each further instance a view whose `reset()` starts its episode on the
   * next task of the same cycle. Probes play on the first instance only.
   */
  readonly instances: readonly Environment<O>[];
  readonly #env: TaskEnvironment<O>;
  readonly #policy: Policy;
  readonly #probes: number;
  readonly #candidates: Int32Array;
  readonly #random: () => number;
  /** The tasks episodes cycle over, and the next one's index. */
  #tasks: ArrayLike<number> = [];
  #next = 0;

  /**
   * @param env - the task environment, or several instances of it (see {@link ProbedTasks.instances})
   * @param policy - the policy probes act with (read at each round, so the current one)
   * @param options - probes per task and candidates per round
   * @param random - uniform on [0, 1): draws the candidates and the probes' actions
   * @throws TypeError when `env` (or `env[j]`) is not a task environment; RangeError when `env` is an
   *   empty array, or naming `probes` or `candidates` and the value received; TrainerError
   *   `ENV_MISMATCH` when instances differ in actions, observation size or task count
   */
  constructor(
    env: TaskEnvironment<O> | readonly TaskEnvironment<O>[],
    policy: Policy,
    options: ProbeOptions,
    random: () => number,
  ) {
    const envs: readonly TaskEnvironment<O>[] = Array.isArray(env) ? env : [env as TaskEnvironment<O>];
    if (envs.length === 0) throw new RangeError('env must hold at least one task environment, got []');
    for (let j = 0; j < envs.length; j++)
      checkTaskEnvironment(envs[j], envs.length === 1 ? 'env' : `env[${j}]`);
    checkAlike(envs);
    env = envs[0]!;
    for (let j = 1; j < envs.length; j++) {
      if (envs[j]!.taskCount !== env.taskCount) {
        throw new TrainerError(
          'ENV_MISMATCH',
          `env[${j}].taskCount is ${envs[j]!.taskCount}, env[0].taskCount is ${env.taskCount}`,
        );
      }
    }
    this.#probes = checkInteger('probes', options.probes, 1);
    this.#candidates = new Int32Array(checkInteger('candidates', options.candidates, 1));
    if (typeof random !== 'function') {
      throw new TypeError(`random must be a function returning uniforms on [0, 1), got ${String(random)}`);
    }
    this.#env = env;
    this.#policy = policy;
    this.#random = random;
    this.numActions = env.numActions;
    if (env.observationSize !== undefined) this.observationSize = env.observationSize;
    if (env.evaluate !== undefined) this.evaluate = env.evaluate.bind(env);
    if (env.stepRegret !== undefined) this.stepRegret = env.stepRegret.bind(env);
    const first = env;
    if (first.observationCount !== undefined) {
      Object.defineProperty(this, 'observationCount', {
        get: () => first.observationCount,
        enumerable: true,
      });
    }
    this.instances = [
      this,
      ...envs.slice(1).map(
        (instance): Environment<O> => ({
          numActions: instance.numActions,
          ...(instance.observationSize === undefined ? {} : { observationSize: instance.observationSize }),
          reset: () => instance.resetTask(this.#nextTask()),
          step: (action: number) => instance.step(action),
        }),
      ),
    ];
  }

  /**
   * Draws and probes a round of candidates with the current policy; the following episodes play the
   * kept ones.
   * @returns the probe steps and the kept share
   */
  probe(): ProbeRound {
    const candidates = this.#candidates;
    const count = this.#env.taskCount;
    for (let i = 0; i < candidates.length; i++) candidates[i] = Math.floor(this.#random() * count);
    const result = probeTasks(this.#env, this.#policy, candidates, this.#probes, this.#random);
    this.#tasks = result.kept.length > 0 ? result.kept : candidates;
    this.#next = 0;
    return { steps: result.steps, keptShare: result.kept.length / candidates.length };
  }

  /** Starts an episode on the next task of the last round (before any round, on a task drawn uniformly). */
  reset(): O {
    return this.#env.resetTask(this.#nextTask());
  }

  /** The next task of the shared cycle (before any round, one drawn uniformly). */
  #nextTask(): number {
    if (this.#tasks.length === 0) return Math.floor(this.#random() * this.#env.taskCount);
    const task = this.#tasks[this.#next]!;
    this.#next = (this.#next + 1) % this.#tasks.length;
    return task;
  }

  step(action: number): EnvironmentStep<O> {
    return this.#env.step(action);
  }
}
