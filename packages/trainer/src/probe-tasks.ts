import { ActionDistribution } from './action-distribution.js';
import { checkFits, MAX_EPISODE_STEPS } from './episode-collector.js';
import type { Observation, Policy } from './policy.js';
import type { TaskEnvironment } from './task-environment.js';
import { TrainerError } from './trainer-error.js';
import { checkInteger } from './validate.js';

/** What {@link probeTasks} returns. */
export interface ProbeResult {
  /** The tasks kept, those with 0 < successes < probes, in the order they were given. */
  readonly kept: number[];
  /** Successes of each given task in its probes, in the order given. */
  readonly successes: Int32Array;
  /** Environment steps the probes took: the caller counts them in its sampling budget. */
  readonly steps: number;
}

/**
 * Checks that an environment can be probed: a {@link TaskEnvironment} with an integer `taskCount` ≥ 1.
 * @param env - the environment
 * @param name - what the error calls it (`env`, `env[2]` …)
 * @throws TypeError naming `name` and what it lacks
 */
export function checkTaskEnvironment(env: unknown, name = 'env'): TaskEnvironment {
  const candidate = env as Partial<TaskEnvironment> | null;
  const count = candidate?.taskCount;
  if (
    typeof candidate?.resetTask !== 'function' ||
    typeof count !== 'number' ||
    !Number.isInteger(count) ||
    count < 1
  ) {
    throw new TypeError(
      `${name} must be a TaskEnvironment (resetTask, an integer taskCount >= 1, succeeded), got taskCount ${String(count)} and resetTask ${typeof candidate?.resetTask}`,
    );
  }
  return env as TaskEnvironment;
}

/**
 * The research note's difficulty probe, on real episodes: plays each given task `probes` times with the
 * current policy (actions sampled from it, as in training) and keeps the tasks with
 * 0 < successes < probes, dropping those the policy always fails (too hard for now) and those it
 * always solves (too easy). When the policy solves task i with probability p_i, independently per
 * episode, task i is kept with probability 1 − p_i^n − (1 − p_i)^n (`@ftw/bandit`'s `keepProbability`).
 *
 * Nothing is learnt from the probe episodes; their steps are returned so that the caller counts them in
 * its budget (a probe of n episodes costs about as much as n training episodes).
 *
 * @param env - the environment of tasks
 * @param policy - the acting policy (not changed)
 * @param tasks - the tasks to probe, each an integer in [0, env.taskCount); repeats are probed again
 * @param probes - episodes per task n, an integer ≥ 1 (n = 1 keeps nothing)
 * @param random - uniform on [0, 1): one draw per action
 * @returns the kept tasks, the success counts and the steps taken
 * @throws RangeError naming `probes` or `tasks[i]` and the value received, before any episode;
 *   TypeError when `env` is not a task environment or `random` not a function
 * @throws TrainerError `ACTION_COUNT_MISMATCH` / `OBSERVATION_SIZE_MISMATCH` when the policy does not fit,
 *   `EPISODE_TOO_LONG` when an episode does not end
 * @example
 * ```ts
 * const { kept, successes, steps } = probeTasks(env, policy, [0, 1, 2], 8, Math.random);
 * ```
 */
export function probeTasks(
  env: TaskEnvironment,
  policy: Policy,
  tasks: ArrayLike<number>,
  probes: number,
  random: () => number,
): ProbeResult {
  checkInteger('probes', probes, 1);
  checkTaskEnvironment(env);
  checkFits(env, policy);
  if (typeof random !== 'function') {
    throw new TypeError(`random must be a function returning uniforms on [0, 1), got ${String(random)}`);
  }
  for (let i = 0; i < tasks.length; i++) checkInteger(`tasks[${i}]`, tasks[i], 0, env.taskCount - 1);
  const distribution = new ActionDistribution(env.numActions);
  const successes = new Int32Array(tasks.length);
  const kept: number[] = [];
  let steps = 0;
  for (let i = 0; i < tasks.length; i++) {
    const task = tasks[i]!;
    let count = 0;
    for (let probe = 0; probe < probes; probe++) {
      let observation: Observation = env.resetTask(task);
      for (let length = 1; ; length++) {
        const result = env.step(distribution.of(policy, observation).sample(random()));
        steps++;
        if (result.terminated || result.truncated) break;
        if (length >= MAX_EPISODE_STEPS) {
          throw new TrainerError(
            'EPISODE_TOO_LONG',
            `the environment did not end an episode within ${MAX_EPISODE_STEPS} steps; it must terminate or truncate`,
          );
        }
        observation = result.observation;
      }
      if (env.succeeded) count++;
    }
    successes[i] = count;
    if (count > 0 && count < probes) kept.push(task);
  }
  return { kept, successes, steps };
}
